// What the editor's toolbar and shortcuts do to the Markdown: each is a CodeMirror
// transaction on the text itself (wrap the selection in ** or _, put "## " or "- " before the
// lines, make a link), so the page keeps exactly the characters a person or an agent typed
// and nothing is rewritten behind their back. Pure over EditorState, so tested without a browser.
import { EditorSelection, type EditorState, type TransactionSpec } from "@codemirror/state";

export type InlineMark = "bold" | "italic" | "code" | "strike";
export type LinePrefix = "heading" | "bullet" | "numbered" | "quote" | "task";

const MARKERS: Record<InlineMark, string> = { bold: "**", italic: "_", code: "`", strike: "~~" };
const PREFIXES: Record<LinePrefix, string> = { heading: "## ", bullet: "- ", numbered: "1. ", quote: "> ", task: "- [ ] " };
// Any of these at the start of a line is replaced (not stacked) when another prefix is chosen.
const ANY_PREFIX = /^(#{1,6} |[-*+] \[[ xX]\] |[-*+] |\d+[.)] |> )/;

/** Wraps each selection in the mark, or unwraps it when it is already wrapped (inside or just outside). */
export function toggleMark(state: EditorState, mark: InlineMark): TransactionSpec {
  const m = MARKERS[mark];
  return state.changeByRange((range) => {
    const text = state.sliceDoc(range.from, range.to);
    const before = state.sliceDoc(range.from - m.length, range.from);
    const after = state.sliceDoc(range.to, range.to + m.length);
    if (before === m && after === m) {
      return {
        changes: [
          { from: range.from - m.length, to: range.from, insert: "" },
          { from: range.to, to: range.to + m.length, insert: "" },
        ],
        range: EditorSelection.range(range.from - m.length, range.to - m.length),
      };
    }
    if (text.length >= 2 * m.length && text.startsWith(m) && text.endsWith(m)) {
      const inner = text.slice(m.length, text.length - m.length);
      return { changes: { from: range.from, to: range.to, insert: inner }, range: EditorSelection.range(range.from, range.from + inner.length) };
    }
    return {
      changes: { from: range.from, to: range.to, insert: `${m}${text}${m}` },
      range: EditorSelection.range(range.from + m.length, range.to + m.length),
    };
  });
}

/** Puts the prefix before every selected line; when all of them have it already, takes it off. */
export function toggleLinePrefix(state: EditorState, kind: LinePrefix): TransactionSpec {
  const prefix = PREFIXES[kind];
  const lines = new Map<number, { from: number; text: string }>();
  for (const range of state.selection.ranges) {
    for (let pos = range.from; pos <= range.to;) {
      const line = state.doc.lineAt(pos);
      lines.set(line.number, { from: line.from, text: line.text });
      pos = line.to + 1;
    }
  }
  const all = [...lines.values()];
  const allHave = all.every((l) => l.text.startsWith(prefix));
  const changes = all.map((l) => {
    if (allHave) return { from: l.from, to: l.from + prefix.length, insert: "" };
    const existing = ANY_PREFIX.exec(l.text)?.[0] ?? "";
    return { from: l.from, to: l.from + existing.length, insert: prefix };
  });
  return { changes, scrollIntoView: true };
}

const URL_RE = /^https?:\/\/[^\s<>()]+$/;

export function isUrl(text: string): boolean {
  return URL_RE.test(text.trim());
}

/**
 * A link around the selection. With a URL given, `[selection](url)`; without one the URL
 * place is left selected to type into. An empty selection gets "link text" to overwrite.
 */
export function insertLink(state: EditorState, url?: string): TransactionSpec {
  return state.changeByRange((range) => {
    const selected = state.sliceDoc(range.from, range.to);
    if (!url && isUrl(selected)) {
      // A bare URL selected: it becomes the link's address, the text is left to type.
      const insert = `[](${selected.trim()})`;
      return { changes: { from: range.from, to: range.to, insert }, range: EditorSelection.cursor(range.from + 1) };
    }
    const text = selected || "link text";
    const target = url ?? "https://";
    const insert = `[${text}](${target})`;
    if (url) return { changes: { from: range.from, to: range.to, insert }, range: EditorSelection.cursor(range.from + insert.length) };
    const urlFrom = range.from + text.length + 3;
    return { changes: { from: range.from, to: range.to, insert }, range: EditorSelection.range(urlFrom, urlFrom + target.length) };
  });
}

/**
 * Pasting a URL over selected words links them (`[words](url)`), as in most editors; any
 * other paste (or a URL with nothing selected) is left to go in as it is. Null: not handled.
 */
export function pasteLink(state: EditorState, pasted: string): TransactionSpec | null {
  if (!isUrl(pasted)) return null;
  const ranges = state.selection.ranges;
  if (ranges.every((r) => r.empty)) return null;
  if (ranges.some((r) => isUrl(state.sliceDoc(r.from, r.to)) || state.sliceDoc(r.from, r.to).includes("\n"))) return null;
  return insertLink(state, pasted.trim());
}
