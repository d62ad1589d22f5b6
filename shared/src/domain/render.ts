// Rendering on write (DESIGN §3): Markdown becomes sanitized HTML inside a standalone,
// readable document; an HTML page is kept as given. A read is then a lookup.
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import type { PartDoc } from "../db/index";
import { sha256 } from "../ids";

const schema = {
  ...defaultSchema,
  // GitHub-style ids for headings are kept, prefixed so they cannot clobber globals.
  clobberPrefix: "md-",
};

const markdown = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeSanitize, schema).use(rehypeStringify);

export function markdownToHtml(md: string): string {
  return String(markdown.processSync(md));
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

const STYLE = `
:root{color-scheme:light dark;--fg:#1c1d21;--bg:#fffefb;--muted:#5f636b;--line:#e4e3dc;--code:#f3f2ec;--accent:#2f4fc9}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8eb;--bg:#141518;--muted:#a2a5ad;--line:#2d2f35;--code:#1f2126;--accent:#94a7ff}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:17px/1.65 Charter,"Iowan Old Style",Georgia,Cambria,serif;-webkit-text-size-adjust:100%}
main{max-width:44rem;margin:0 auto;padding:2.5rem 1.25rem 4rem}
header.atelier-head{margin-bottom:2rem;border-bottom:1px solid var(--line);padding-bottom:1.25rem}
h1,h2,h3,h4{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.25;margin:2rem 0 .75rem}
header.atelier-head h1{font-size:2.1rem;margin:0 0 .5rem}
.atelier-summary{color:var(--muted);font-size:1.1rem;margin:0}
a{color:var(--accent)}
img,video{max-width:100%;height:auto}
pre,code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em}
code{background:var(--code);padding:.1em .3em;border-radius:4px}
pre{background:var(--code);padding:1rem;border-radius:8px;overflow:auto;line-height:1.45}
pre code{background:none;padding:0}
blockquote{margin:1.25rem 0;padding:.25rem 1rem;border-left:3px solid var(--line);color:var(--muted)}
table{border-collapse:collapse;width:100%;display:block;overflow-x:auto;font-size:.95em}
th,td{border:1px solid var(--line);padding:.45rem .7rem;text-align:left;vertical-align:top}
th{background:var(--code)}
hr{border:0;border-top:1px solid var(--line);margin:2rem 0}
.atelier-table{margin:1.5rem 0}caption{text-align:left;font-weight:600;padding:.4rem 0;font-family:system-ui,sans-serif}
.atelier-more,.atelier-missing{color:var(--muted);font-size:.9em}
@media (max-width:600px){body{font-size:16px}main{padding:1.5rem 1rem 3rem}header.atelier-head h1{font-size:1.7rem}}
`.trim();

export interface RenderInput {
  title: string;
  summary: string;
  parts: Pick<PartDoc, "id" | "kind" | "body" | "position">[];
  /** Absolute URL of the artifact, for social previews. */
  url: string;
  /** The rendered HTML of each table_view part, by part id. */
  tables?: Record<string, string>;
}

/**
 * The standalone document for a page. A page that is exactly one HTML part is served as
 * given (it is the author's document); anything else is composed into our template.
 */
export function renderPage(input: RenderInput): string {
  const parts = [...input.parts].sort((a, b) => a.position - b.position);
  const only = parts[0];
  if (parts.length === 1 && only?.kind === "html") return only.body;
  const body = parts
    .map((p) => {
      switch (p.kind) {
        case "markdown":
          return markdownToHtml(p.body);
        case "html":
          return p.body;
        case "table_view":
          return input.tables?.[p.id] ?? "";
      }
    })
    .join("\n");
  const title = escapeHtml(input.title);
  const summary = escapeHtml(input.summary);
  const url = escapeHtml(input.url);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${summary ? `<meta name="description" content="${summary}">\n` : ""}<meta property="og:type" content="article">
<meta property="og:title" content="${title}">
${summary ? `<meta property="og:description" content="${summary}">\n` : ""}<meta property="og:url" content="${url}">
<meta name="twitter:card" content="summary">
<meta name="twitter:title" content="${title}">
${summary ? `<meta name="twitter:description" content="${summary}">\n` : ""}<link rel="canonical" href="${url}">
<style>${STYLE}</style>
</head>
<body>
<main>
<header class="atelier-head"><h1>${title}</h1>${summary ? `<p class="atelier-summary">${summary}</p>` : ""}</header>
<article>
${body}
</article>
</main>
</body>
</html>
`;
}

export function etagOf(html: string): string {
  return `"${sha256(html).slice(0, 32)}"`;
}
