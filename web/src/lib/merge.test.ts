import { describe, expect, it } from "vitest";
import type { Draft } from "./draft";
import { mergeDrafts, mergeText } from "./merge";

const text = (...lines: string[]) => lines.join("\n");
const draft = (over: Partial<Draft> = {}): Draft => ({
  title: "Plan",
  summary: "",
  body: text("# Plan", "", "one", "two", "three", "four", "five"),
  tables: "[]",
  ...over,
});

describe("mergeText", () => {
  it("combines edits to different lines", () => {
    const base = text("one", "two", "three", "four", "five");
    expect(mergeText(base, text("ONE", "two", "three", "four", "five"), text("one", "two", "three", "four", "FIVE"))).toBe(
      text("ONE", "two", "three", "four", "FIVE"),
    );
  });
  it("combines a line added at the top with one added at the end", () => {
    expect(mergeText(text("a", "b", "c"), text("top", "a", "b", "c"), text("a", "b", "c", "end"))).toBe(text("top", "a", "b", "c", "end"));
  });
  it("refuses edits to the same line", () => {
    expect(mergeText(text("a", "b", "c"), text("a", "mine", "c"), text("a", "theirs", "c"))).toBeNull();
  });
  it("refuses edits to neighbouring lines, as git does", () => {
    expect(mergeText(text("a", "b", "c", "d"), text("a", "B", "c", "d"), text("a", "b", "C", "d"))).toBeNull();
  });
  it("accepts the same edit made on both sides", () => {
    expect(mergeText(text("a", "b"), text("a", "B"), text("a", "B"))).toBe(text("a", "B"));
  });
});

describe("mergeDrafts", () => {
  it("takes their new title with my new text", () => {
    const base = draft();
    const mine = draft({ body: base.body.replace("one", "ONE") });
    const theirs = draft({ title: "The plan" });
    expect(mergeDrafts(base, mine, theirs)).toEqual({ ...mine, title: "The plan" });
  });
  it("refuses two different titles", () => {
    expect(mergeDrafts(draft(), draft({ title: "Mine" }), draft({ title: "Theirs" }))).toBeNull();
  });
  it("refuses overlapping text even when the titles agree", () => {
    const base = draft();
    expect(mergeDrafts(base, draft({ body: base.body.replace("three", "3") }), draft({ body: base.body.replace("three", "III") }))).toBeNull();
  });
});
