// The note a published page's footer links to (`/privacy#reading-figures`): how its views
// are counted, in the words of docs/decisions.md ("Reading figures (issue 32)").
import { escapeHtml } from "../markdown";

const TEXT = [
  "Atelier counts how often each page is read, without cookies and without tracking you.",
  "When you open a page, this server notes which page it was and which site linked to it (the site’s name only). No script reports on you, and nothing is stored in your browser.",
  "To count distinct readers, the server hashes your network address and browser name with a secret that changes every day and is deleted when the day ends; only that hash is kept, for that day only. Your address itself is never stored or logged by Atelier.",
  "If your browser sends Do Not Track (DNT) or Global Privacy Control (Sec-GPC), your visit is not counted at all.",
  "Only the owners and editors of the workspace see the totals: views per day, distinct readers, referring sites and reads by AI agents. Daily figures are kept for about 13 months and then only as monthly totals; they are deleted with the page.",
];

export function privacyDocument(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>How views are counted</title>
<style>:root{color-scheme:light dark}body{font:17px/1.6 system-ui,sans-serif;max-width:40rem;margin:0 auto;padding:2.5rem 1.25rem}</style></head>
<body><main><h1 id="reading-figures">How views are counted</h1>
${TEXT.map((t) => `<p>${escapeHtml(t)}</p>`).join("\n")}
</main></body></html>
`;
}
