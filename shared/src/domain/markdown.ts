// Markdown → sanitized, highlighted HTML: the one pipeline the server renders artifacts with
// (render.ts) and the app's preview and history run in the browser (web/src/lib/markdown.ts),
// so the app shows what the published page will show. Browser-safe: no Node imports.
//
//   remark (+ GFM) → rehype → rehype-sanitize (GitHub's schema) → code blocks highlighted
//   → made readable (scrolling frames, labelled task boxes) → [a leading "# Title" close to
//   the page title taken out, to be the page's heading] → HTML
//
// Highlighting and the reading touches run after the sanitizer: they only wrap text in spans
// with `hljs-*` classes and add fixed attributes and wrappers of our own (never anything from
// the input), so nothing they add can carry script; the colours and the layout are in the
// document's stylesheet (render.ts), light and dark.
import type { Element, ElementContent, Root as HastRoot, RootContent } from "hast";
import rehypeHighlight from "rehype-highlight";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";

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

/** The words of a title: letters and digits, in lower case; spacing, punctuation and marks aside. */
function titleWords(s: string): string[] {
  return (
    s
      .normalize("NFKC")
      .toLocaleLowerCase("en")
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/**
 * Edits (insert, delete, replace, swap two neighbours) turning one string into the other, or
 * more than `max` as soon as that is certain.
 */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (before[j - 2] ?? 0) + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    before = prev;
    prev = row;
  }
  return prev[b.length] ?? max + 1;
}

/**
 * Whether a heading says the page's title, or close to it: the same words (spacing,
 * punctuation and case aside); the title with a few words more or fewer at either end
 * ("Release plan" / "Release plan for Q3"), the shorter being at least half the longer; or
 * a typo or two (one edit per eight characters). A heading that says something else
 * ("Introduction") is not the title.
 */
export function closeToTitle(heading: string, title: string): boolean {
  const h = titleWords(heading);
  const t = titleWords(title);
  if (h.length === 0 || t.length === 0) return false;
  const [short, long] = h.length <= t.length ? [h, t] : [t, h];
  const opens = short.every((w, i) => long[i] === w);
  const ends = short.every((w, i) => long[long.length - short.length + i] === w);
  if ((opens || ends) && short.length * 2 >= long.length) return true;
  const a = h.join(" ");
  const b = t.join(" ");
  const typos = Math.floor(Math.max(a.length, b.length) / 8);
  return typos > 0 && editDistance(a, b, typos) <= typos;
}

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

const BLOCKS = new Set(["p", "ul", "ol", "div", "pre", "blockquote", "table", "figure", "dl", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "details"]);

const element = (tagName: string, properties: Element["properties"], children: ElementContent[]): Element => ({
  type: "element",
  tagName,
  properties,
  children,
});

/**
 * A task item's box gets its text as its label (a bare disabled checkbox has no name): the
 * box and the inline content after it, up to the first block (a nested list, a paragraph),
 * go into a `<label>`. In a loose list the box sits in the item's first paragraph.
 */
function labelTask(item: Element): void {
  const first = item.children.find((c) => c.type === "element");
  const holder = first?.type === "element" && first.tagName === "p" ? first : item;
  const at = holder.children.findIndex((c) => c.type === "element" && c.tagName === "input");
  if (at < 0) return;
  let end = at + 1;
  while (end < holder.children.length) {
    const c = holder.children[end];
    if (c?.type === "element" && BLOCKS.has(c.tagName)) break;
    end++;
  }
  // The line break before a nested list stays outside the label.
  while (end > at + 1 && holder.children[end - 1]?.type === "text" && (holder.children[end - 1] as { value: string }).value.trim() === "") end--;
  const label = element("label", {}, holder.children.slice(at, end));
  holder.children.splice(at, end - at, label);
}

/** A file's address (docs/security.md#files) states an image's size: `/files/{ws}/{sha256}-{w}x{h}.{ext}`. */
const FILE_IMAGE = /\/files\/ws_[A-Za-z0-9_-]+\/[0-9a-f]{64}-([1-9][0-9]{0,5})x([1-9][0-9]{0,5})\.[a-z0-9]+$/;

/** Images load when they come near the view; ours keep their box (no jump) from the size in their address. */
function sizeImage(img: Element): void {
  const src = typeof img.properties.src === "string" ? img.properties.src : "";
  const m = FILE_IMAGE.exec(src.split(/[?#]/, 1)[0] ?? "");
  img.properties = { ...img.properties, loading: "lazy", decoding: "async", ...(m ? { width: Number(m[1]), height: Number(m[2]) } : {}) };
}

/**
 * Reading touches, after the sanitizer (so the attributes are ours, never the input's): a
 * code block is a keyboard stop that scrolls sideways inside itself; a table scrolls in a
 * frame of its own (focusable, named); task items are labelled boxes; images load lazily, sized.
 */
function rehypeReading() {
  return (tree: HastRoot) => {
    const visit = (node: HastRoot | Element) => {
      node.children = node.children.map((child) => {
        if (child.type !== "element") return child;
        visit(child);
        if (child.tagName === "pre") {
          child.properties = { ...child.properties, tabIndex: 0, role: "group", ariaLabel: "Code" };
          return child;
        }
        if (child.tagName === "img") {
          sizeImage(child);
          return child;
        }
        if (child.tagName === "table") return element("div", { className: ["atelier-scroll"], tabIndex: 0, role: "group", ariaLabel: "Table" }, [child]);
        if (child.tagName === "li" && Array.isArray(child.properties.className) && child.properties.className.includes("task-list-item")) labelTask(child);
        return child;
      }) as typeof node.children;
    };
    visit(tree);
  };
}

// Built once: highlight.js registers its languages when the processor is made.
const markdown = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(rehypeSanitize, markdownSchema)
  .use(rehypeHighlightBudget)
  .use(rehypeHighlight)
  .use(rehypeReading)
  .use(rehypeStringify);

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

function textOf(node: RootContent | ElementContent): string {
  if (node.type === "text") return node.value;
  if (node.type === "element") return node.children.map(textOf).join("");
  return "";
}

/** Sanitized, highlighted HTML for Markdown. */
export function markdownToHtml(md: string): string {
  return renderTitled(md).html;
}

/**
 * The page's heading and its body, by the one rule every view of a page follows (the
 * published document, the app's preview and its history): when the text opens with a
 * first-level heading that says the title or close to it (`closeToTitle`), that heading is
 * taken out of the body and printed as the page's heading, as the author wrote it (inline
 * markup kept), so the title shows once. Otherwise the heading is the title itself.
 * `heading` is HTML (escaped or sanitized), for the inside of an `<h1>`.
 */
export function renderTitled(md: string, title?: string): { heading: string; html: string } {
  const tree = markdown.runSync(markdown.parse(md));
  let heading = title === undefined ? "" : escapeHtml(title);
  const at = tree.children.findIndex((c) => c.type !== "text" || c.value.trim() !== "");
  const first = tree.children[at];
  if (title !== undefined && first?.type === "element" && first.tagName === "h1" && closeToTitle(textOf(first), title)) {
    heading = markdown.stringify({ type: "root", children: first.children });
    tree.children.splice(0, at + 1);
    while (tree.children[0]?.type === "text" && tree.children[0].value.trim() === "") tree.children.shift();
  }
  return { heading, html: markdown.stringify(tree) };
}
