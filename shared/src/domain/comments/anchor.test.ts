import { describe, expect, it } from "vitest";
import { findQuote, makeAnchor, reanchor } from "./anchor";
import { anchorCases, type AnchorCase } from "./anchor-corpus";

/** Overlap of two spans over their union (1: the same span). */
function iou(a: { start: number; end: number }, b: { start: number; end: number }): number {
  const inter = Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
  return inter / (Math.max(a.end, b.end) - Math.min(a.start, b.start));
}

type Verdict = "reattached" | "missed" | "flagged" | "wrong";

function judge(c: AnchorCase): Verdict {
  const got = reanchor(c.oldText, c.anchor, c.newText);
  if (c.expected === null) return got.state === "earlier_version" ? "flagged" : "wrong";
  if (got.state === "earlier_version") return "missed";
  return iou(got, c.expected) >= 0.7 ? "reattached" : "wrong";
}

describe("re-anchoring a comment after an edit", () => {
  const cases = anchorCases();

  it("is measured on at least 200 realistic edits: ≥ 95 % re-attached, every deleted passage flagged, no wrong attachment", () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    const byKind = new Map<string, Record<Verdict, number>>();
    const wrong: string[] = [];
    for (const c of cases) {
      const v = judge(c);
      const row = byKind.get(c.kind) ?? { reattached: 0, missed: 0, flagged: 0, wrong: 0 };
      row[v]++;
      byKind.set(c.kind, row);
      if (v === "wrong") wrong.push(`${c.kind}: "${c.anchor.quote}"`);
    }
    const total = [...byKind.values()].reduce(
      (t, r) => ({ reattached: t.reattached + r.reattached, missed: t.missed + r.missed, flagged: t.flagged + r.flagged, wrong: t.wrong + r.wrong }),
      { reattached: 0, missed: 0, flagged: 0, wrong: 0 },
    );
    const shouldAttach = cases.filter((c) => c.expected !== null).length;
    const shouldFlag = cases.length - shouldAttach;
    // The figures docs/comments.md#re-anchoring reports.
    console.log(
      `re-anchoring: ${cases.length} edits; re-attached ${total.reattached}/${shouldAttach}; flagged ${total.flagged}/${shouldFlag}; wrong ${total.wrong}\n` +
        [...byKind.entries()].map(([k, r]) => `  ${k}: ${JSON.stringify(r)}`).join("\n"),
    );
    expect(wrong).toEqual([]);
    expect(total.flagged).toBe(shouldFlag);
    expect(total.reattached / shouldAttach).toBeGreaterThanOrEqual(0.95);
  });

  it("keeps an unchanged passage where it was, and follows it when text is added above", () => {
    const text = "Alpha beta gamma.\n\nThe quick brown fox jumps.\n\nOmega.";
    const s = text.indexOf("quick brown");
    const anchor = makeAnchor(text, s, s + "quick brown".length, 1);
    expect(reanchor(text, anchor, text)).toEqual({ state: "attached", start: s, end: s + 11, exact: true });
    const next = `New intro paragraph.\n\n${text}`;
    const got = reanchor(text, anchor, next);
    expect(got).toMatchObject({ state: "attached", exact: true });
    if (got.state === "attached") expect(next.slice(got.start, got.end)).toBe("quick brown");
  });

  it("never moves a comment onto a twin passage when its own copy is deleted", () => {
    const twin = "Figures are estimates.";
    const text = `${twin}\n\nMiddle part.\n\n${twin}`;
    const s = text.lastIndexOf(twin);
    const anchor = makeAnchor(text, s, s + twin.length, 2);
    expect(reanchor(text, anchor, `${twin}\n\nMiddle part.`)).toEqual({ state: "earlier_version" });
  });

  it("without the old text (no longer kept), finds the quote by its context or flags it", () => {
    const text = "One. Two three four five. Six.";
    const s = text.indexOf("Two");
    const anchor = makeAnchor(text, s, s + "Two three four five.".length, 1);
    const got = reanchor(null, anchor, `Zero. ${text}`);
    expect(got).toMatchObject({ state: "attached", exact: true });
    expect(reanchor(null, anchor, "Nothing alike here at all.")).toEqual({ state: "earlier_version" });
  });

  it("finds a quote to anchor on: its one occurrence, or the one its context names; ambiguous is no answer", () => {
    const text = "a cat. a cat! a dog.";
    expect(findQuote(text, "a dog")).toEqual({ start: 14, end: 19 });
    expect(findQuote(text, "a cat")).toBeNull();
    expect(findQuote(text, "a cat", "", "!")).toEqual({ start: 7, end: 12 });
    expect(findQuote(text, "a bird")).toBeNull();
  });
});
