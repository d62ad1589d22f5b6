// Markdown → sanitized, highlighted HTML: the one pipeline the server renders artifacts with
// (render.ts) and the app's live preview runs in the browser (web/src/lib/markdown.ts), so
// the preview shows what the published page will show. Browser-safe: no Node imports.
//
//   remark (+ GFM) → [a leading "# Title" equal to the page title dropped] → rehype
//   → rehype-sanitize (GitHub's schema) → code blocks highlighted → HTML
//
// Highlighting runs after the sanitizer: it only wraps the text of `pre > code` in spans
// with `hljs-*` classes (no styles, no attributes from the input), so nothing it adds can
// carry script; the colours are in the document's stylesheet (render.ts), light and dark.
import type { Element, Root as HastRoot } from "hast";
import type { Heading, Root as MdastRoot, RootContent } from "mdast";
import rehypeHighlight from "rehype-highlight";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { type Plugin, unified } from "unified";

/**
 * GitHub's schema (it keeps `align` on table cells, which is how GFM states a column's
 * alignment), with heading ids prefixed so they cannot clobber globals.
 */
export const markdownSchema = { ...defaultSchema, clobberPrefix: "md-" };

/**
 * How much code one document gets highlighted, in characters, in order; later blocks are
 * shown plain. Highlighting costs time on write and bytes stored (the spans roughly
 * quadruple a block's size, and rendered documents count toward a workspace's usage), so
 * a page that is mostly a megabyte of code is stored and read plain after the first 128 KB.
 */
export const HIGHLIGHT_BUDGET_CHARS = 128 * 1024;

function textOf(node: RootContent | Heading): string {
  if ("value" in node && typeof node.value === "string") return node.value;
  if ("children" in node) return (node.children as RootContent[]).map(textOf).join("");
  return "";
}

/** Titles compare by their words: spacing and case aside. */
export function sameTitle(a: string, b: string): boolean {
  const norm = (s: string) => s.normalize("NFC").replace(/\s+/g, " ").trim().toLocaleLowerCase("en");
  return norm(a) !== "" && norm(a) === norm(b);
}

/**
 * Drops a first-level heading that opens the text and says the page's title (given as the
 * file's `data.title`), since the page's header already prints it.
 */
const remarkDropTitle: Plugin<[], MdastRoot> = () => {
  return (tree, file) => {
    const title = (file.data as { title?: unknown }).title;
    const first = tree.children[0];
    if (typeof title === "string" && first?.type === "heading" && first.depth === 1 && sameTitle(textOf(first), title)) tree.children.shift();
  };
};

/** Marks the code blocks past the document's highlighting budget with the class highlight.js skips. */
function rehypeHighlightBudget() {
  return (tree: HastRoot) => {
    let left = HIGHLIGHT_BUDGET_CHARS;
    const visit = (node: HastRoot | Element) => {
      for (const child of node.children) {
        if (child.type !== "element") continue;
        const code = child.tagName === "pre" ? child.children.find((c): c is Element => c.type === "element" && c.tagName === "code") : undefined;
        if (!code) {
          visit(child);
          continue;
        }
        const classes = Array.isArray(code.properties.className) ? code.properties.className : [];
        // Only blocks that name their language are highlighted (no guessing).
        if (!classes.some((c) => String(c).startsWith("language-"))) continue;
        const length = codeLength(code);
        if (length <= left) left -= length;
        else code.properties.className = [...classes, "no-highlight"];
      }
    };
    visit(tree);
  };
}

function codeLength(node: Element): number {
  let n = 0;
  for (const c of node.children) n += c.type === "text" ? c.value.length : c.type === "element" ? codeLength(c) : 0;
  return n;
}

// Built once: highlight.js registers its languages when the processor is made.
const markdown = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkDropTitle)
  .use(remarkRehype)
  .use(rehypeSanitize, markdownSchema)
  .use(rehypeHighlightBudget)
  .use(rehypeHighlight)
  .use(rehypeStringify);

/**
 * Sanitized HTML for Markdown. With `title`, a leading `# Title` that says the same is left
 * out (the page's header shows it).
 */
export function markdownToHtml(md: string, options: { title?: string | undefined } = {}): string {
  return String(markdown.processSync({ value: md, data: { title: options.title } }));
}
