import { describe, expect, it } from "vitest";
import type { Draft } from "./draft";
import { mergeDrafts } from "./merge";

const text = (...lines: string[]) => lines.join("\n");
const draft = (over: Partial<Draft> = {}): Draft => ({
  title: "Plan",
  summary: "",
  body: text("# Plan", "", "one", "two", "three", "four", "five"),
  tables: "[]",
  ...over,
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
