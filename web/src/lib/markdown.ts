// Markdown → sanitized HTML in the browser, with the very pipeline the server renders
// artifacts with (shared/src/domain/markdown.ts: remark + GFM → rehype → rehype-sanitize
// with GitHub's schema → code highlighting), so the live preview shows what the published
// page will show. Scripts, event handlers and unsafe URLs are removed before anything
// reaches the DOM.
import { markdownToHtml } from "@atelier/shared/domain/markdown";

/** With `title`, a leading `# Title` that says the same is left out, as the published page does. */
export function renderMarkdown(markdown: string, title?: string): string {
  return markdownToHtml(markdown, { title });
}
