// The one line diff (text-diff.ts): counts, side-by-side marks, three-way merges and unified
// patches, all from one algorithm.
import { applyPatch } from "diff";
import { describe, expect, it } from "vitest";
import { applyUnifiedDiff, changedCount, countLines, diffLines, MAX_DIFF_LINES, mergeText, unifiedDiff } from "./text-diff";

const text = (...lines: string[]) => lines.join("\n");

describe("countLines", () => {
  it("counts lines added and removed", () => {
    expect(countLines("a\nb\nc", "a\nB\nc\nd\ne")).toEqual({ added: 3, removed: 1 });
    expect(countLines("", "one\ntwo")).toEqual({ added: 2, removed: 0 });
    expect(countLines("same", "same")).toEqual({ added: 0, removed: 0 });
  });
});

describe("line diff", () => {
  it("marks the lines each side lacks", () => {
    const d = diffLines("a\nb\nc", "a\nB\nc\nd");
    expect(d.mine.map((l) => l.changed)).toEqual([false, true, false]);
    expect(d.theirs.map((l) => l.changed)).toEqual([false, true, false, true]);
    expect(changedCount(d.theirs)).toBe(2);
  });

  it("shows both texts unmarked when they are too long to compare", () => {
    const big = Array.from({ length: MAX_DIFF_LINES }, (_, i) => `line ${i}`).join("\n");
    const d = diffLines(big, `${big}\nmore`);
    expect(d.compared).toBe(false);
    expect(d.theirs).toHaveLength(MAX_DIFF_LINES + 1);
  });
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

describe("one algorithm for counts, views and merges", () => {
  it("counts the lines a side-by-side view marks", () => {
    const before = text("# Plan", "", "one", "two", "three", "four");
    const after = text("# The plan", "", "one", "2", "three", "four", "five");
    const view = diffLines(before, after);
    expect(countLines(before, after)).toEqual({ added: changedCount(view.theirs), removed: changedCount(view.mine) });
  });
});

/** A small deterministic generator, so a failure names its seed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function editedText(rand: () => number, base: string[]): string[] {
  const out = [...base];
  const edits = Math.floor(rand() * 6);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rand() * (out.length + 1));
    const kind = rand();
    if (kind < 0.35) out.splice(at, 0, `new ${Math.floor(rand() * 1000)}`);
    else if (kind < 0.7) out.splice(at, 1);
    else out.splice(at, 1, `changed ${Math.floor(rand() * 1000)}`);
  }
  return out;
}

describe("unified diffs", () => {
  it("turn the old text into the new one exactly, for 500 random pairs (trailing newlines and empty texts included)", () => {
    for (let seed = 1; seed <= 500; seed++) {
      const rand = random(seed);
      const base = Array.from({ length: Math.floor(rand() * 30) }, (_, i) => (rand() < 0.1 ? "" : `line ${i % 7}`));
      const before = base.join("\n") + (rand() < 0.5 ? "\n" : "");
      const after = editedText(rand, base).join("\n") + (rand() < 0.5 ? "\n" : "");
      const patch = unifiedDiff(before, after, { from: "v1", to: "v2" });
      expect(patch, `seed ${seed}`).not.toBeNull();
      expect(applyUnifiedDiff(before, patch ?? ""), `seed ${seed}`).toBe(after);
      // Any unified-diff reader takes it: jsdiff's own, as an agent's library would.
      expect(applyPatch(before, patch ?? "")).toBe(after);
    }
  });

  it("names both versions and shows three lines of context", () => {
    const patch = unifiedDiff(text("a", "b", "c", "d", "e", "f", "g", "h"), text("a", "b", "c", "d", "E", "f", "g", "h"), { from: "v3", to: "v4" });
    expect(patch).toContain("--- v3");
    expect(patch).toContain("+++ v4");
    expect(patch).toContain("@@ -2,7 +2,7 @@");
    expect(patch).toContain("-e\n+E");
  });

  it("refuses a diff that does not fit the text", () => {
    const patch = unifiedDiff(text("a", "b", "c"), text("a", "B", "c"), { from: "1", to: "2" }) ?? "";
    expect(applyUnifiedDiff(text("x", "y", "z"), patch)).toBeNull();
  });
});

describe("merges agree with a merge done by hand on random edits", () => {
  it("combines edits of two sides far apart, for 200 random pairs", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rand = random(seed);
      const top = Array.from({ length: 10 }, (_, i) => `top ${i}`);
      const bottom = Array.from({ length: 10 }, (_, i) => `bottom ${i}`);
      const middle = ["---", "---", "---"];
      // Each side edits its own half; the unchanged middle keeps them apart.
      const mine = [...editedText(rand, top), ...middle, ...bottom];
      const theirs = [...top, ...middle, ...editedText(rand, bottom)];
      const base = [...top, ...middle, ...bottom];
      const expected = [...mine.slice(0, mine.length - bottom.length), ...theirs.slice(top.length + middle.length)];
      expect(mergeText(base.join("\n"), mine.join("\n"), theirs.join("\n")), `seed ${seed}`).toBe(expected.join("\n"));
    }
  });
});
