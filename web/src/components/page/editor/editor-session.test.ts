import { describe, expect, it } from "vitest";
import { draftOf } from "../../../lib/draft";
import { editorReducer, type EditorSession, type PageView, startSession, statusOf } from "./editor-session";

function page(version: number, body: string, title = "Trail log"): PageView {
  return { slug: "trail-log", version, title, summary: "", parts: [{ kind: "markdown", body, position: 0 }] } as PageView;
}

const typed = (s: EditorSession, body: string) => editorReducer(s, { type: "edit", change: { body } });

describe("the page editor's session", () => {
  it("starts on the page's own text and says which version it edits", () => {
    const s = startSession(page(3, "Day one"));
    expect(s.draft.body).toBe("Day one");
    expect(statusOf(s, false, false)).toBe("Editing version 3");
  });

  it("after a save, builds on the saved version, unless the person typed on meanwhile", () => {
    const s = typed(startSession(page(1, "a")), "a b");
    const sent = s.draft;
    const saved = editorReducer(s, { type: "saved", saved: page(2, "a b"), sent });
    expect(saved.base.version).toBe(2);
    expect(saved.draft.body).toBe("a b");
    expect(statusOf(saved, false, false)).toBe("Saved as version 2");

    const typedOn = typed(s, "a b c");
    const savedWhileTyping = editorReducer(typedOn, { type: "saved", saved: page(2, "a b"), sent });
    expect(savedWhileTyping.draft.body).toBe("a b c");
  });

  it("taking theirs keeps the person's text aside, and it can be put back", () => {
    let s = typed(startSession(page(1, "a")), "mine");
    s = editorReducer(s, { type: "conflict", theirs: page(2, "theirs") });
    expect(statusOf(s, false, true)).toBe("Not saved: this page changed meanwhile");
    s = editorReducer(s, { type: "take-theirs" });
    expect(s.draft.body).toBe("theirs");
    expect(s.base.version).toBe(2);
    expect(s.discarded?.body).toBe("mine");
    s = editorReducer(s, { type: "put-back" });
    expect(s.draft.body).toBe("mine");
    expect(s.discarded).toBeNull();
  });

  it("combining by hand goes on over their version, keeping their change to what the person left alone", () => {
    let s = typed(startSession(page(1, "a")), "mine");
    s = editorReducer(s, { type: "conflict", theirs: page(2, "a", "New title") });
    s = editorReducer(s, { type: "combine" });
    expect(s.base.version).toBe(2);
    expect(s.reference?.version).toBe(2);
    expect(s.draft).toEqual({ ...draftOf(page(2, "mine", "New title")) });
    expect(s.conflict).toBeNull();
  });

  it("a merge takes the merged draft and, once saved, builds on the saved version with a note of whose change it met", () => {
    let s = typed(startSession(page(1, "a\nb\nc")), "A\nb\nc");
    const sent = s.draft;
    const theirs = { ...page(2, "a\nb\nC"), updated_by: { kind: "user", user_id: "usr_x", token_id: null, label: "x@example.com" } } as PageView;
    const merged = { ...sent, body: "A\nb\nC" };
    s = editorReducer(s, { type: "merge", theirs, merged, from: sent });
    expect(s.draft.body).toBe("A\nb\nC");
    expect(s.merged).toEqual({ with: theirs.updated_by, version: 2 });
    s = editorReducer(s, { type: "saved", saved: page(3, "A\nb\nC"), sent: merged });
    expect(s.draft.body).toBe("A\nb\nC");
    expect(statusOf(s, false, false)).toBe("Saved as version 3");
    expect(s.merged?.version).toBe(2);
    s = typed(s, "A\nb\nC\nd");
    expect(s.merged).toBeNull();
  });
});
