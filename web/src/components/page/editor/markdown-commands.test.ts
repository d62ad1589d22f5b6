import { EditorSelection, EditorState, type TransactionSpec } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { insertLink, isUrl, pasteLink, toggleLinePrefix, toggleMark } from "./markdown-commands";

function state(doc: string, from: number, to = from): EditorState {
  return EditorState.create({ doc, selection: EditorSelection.single(from, to), extensions: [EditorState.lineSeparator.of("\n")] });
}
const apply = (s: EditorState, spec: TransactionSpec) => s.update(spec).state;

describe("the editor's Markdown commands", () => {
  it("keeps a document's bytes as they are: CRLF line ends and trailing spaces survive an edit elsewhere", () => {
    const doc = "# Title\r\n\r\n*  item  \r\nlast";
    const s = state(doc, doc.length);
    const after = apply(s, { changes: { from: doc.length, insert: " line" } });
    expect(after.doc.toString()).toBe(`${doc} line`);
  });

  it("wraps the selection in ** and takes it off again", () => {
    const s = state("bring water", 6, 11);
    const bold = apply(s, toggleMark(s, "bold"));
    expect(bold.doc.toString()).toBe("bring **water**");
    expect(bold.sliceDoc(bold.selection.main.from, bold.selection.main.to)).toBe("water");
    const plain = apply(bold, toggleMark(bold, "bold"));
    expect(plain.doc.toString()).toBe("bring water");
  });

  it("puts a list marker before each selected line, replacing another marker, and takes it off", () => {
    const s = state("one\n> two\nthree", 0, 9);
    const listed = apply(s, toggleLinePrefix(s, "bullet"));
    expect(listed.doc.toString()).toBe("- one\n- two\nthree");
    const back = apply(listed, toggleLinePrefix(listed, "bullet"));
    expect(back.doc.toString()).toBe("one\ntwo\nthree");
  });

  it("links the selection, leaving the address selected to type", () => {
    const s = state("see the map", 8, 11);
    const linked = apply(s, insertLink(s));
    expect(linked.doc.toString()).toBe("see the [map](https://)");
    expect(linked.sliceDoc(linked.selection.main.from, linked.selection.main.to)).toBe("https://");
  });

  it("pasting a URL over words links them; other pastes are left alone", () => {
    const s = state("the trail map", 4, 13);
    const spec = pasteLink(s, "https://example.org/trail");
    expect(spec).not.toBeNull();
    expect(apply(s, spec ?? {}).doc.toString()).toBe("the [trail map](https://example.org/trail)");
    expect(pasteLink(s, "just words")).toBeNull();
    expect(pasteLink(state("the trail map", 4), "https://example.org")).toBeNull();
    expect(isUrl("https://example.org/a?b=c")).toBe(true);
    expect(isUrl("example.org")).toBe(false);
  });
});
