// Markdown → sanitized HTML in the browser, with the very pipeline the server renders
// artifacts with (shared/src/domain/markdown.ts: remark + GFM → rehype → rehype-sanitize
// with GitHub's schema → code highlighting → the reading touches), so the preview and the
// history show what the published page shows. Scripts, event handlers and unsafe URLs are
// removed before anything reaches the DOM.
import { markdownToHtml, renderTitled } from "@atelier/shared/domain/markdown";

/** The HTML of Markdown that is not the start of a page. */
export function renderMarkdown(markdown: string): string {
  return markdownToHtml(markdown);
}

/**
 * The page's heading (HTML for the inside of its `<h1>`) and the HTML of its first Markdown
 * part, by the published page's rule: a leading `# Title` that says the title, or close to
 * it, is the heading and is not printed again below it.
 */
export function renderPageStart(markdown: string, title: string): { heading: string; html: string } {
  return renderTitled(markdown, title);
}
