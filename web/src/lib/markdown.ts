// Markdown → sanitized HTML in the browser, with the very pipeline the server renders
// artifacts with (shared/src/domain/render.ts: remark + GFM → rehype → rehype-sanitize with
// GitHub's schema), so the live preview shows what the published page will show. Scripts,
// event handlers and unsafe URLs are removed before anything reaches the DOM.
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";

const schema = { ...defaultSchema, clobberPrefix: "md-" };

const processor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeSanitize, schema).use(rehypeStringify);

export function renderMarkdown(markdown: string): string {
  return String(processor.processSync(markdown));
}
