import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bandOf, bandTop, keyTarget, pageWeights, postingChanges, searchKey } from "./search-index";
import { nextFanOut, partOf, SPLIT_AT } from "./search-postings";

describe("the search index's keys", () => {
  it("names a page or table outright: a key gives back what it was made from", () => {
    const page = randomUUID();
    expect(searchKey("page", page)).toHaveLength(23);
    expect(keyTarget(searchKey("page", page))).toEqual({ kind: "page", id: page });
    expect(keyTarget(searchKey("page", "pg-not-a-uuid"))).toEqual({ kind: "page", id: "pg-not-a-uuid" });
    expect(keyTarget(searchKey("table", "col_abc-_9"))).toEqual({ kind: "table", id: "col_abc-_9" });
    // A field name: no dot, no leading dollar.
    expect(searchKey("page", page)).not.toMatch(/\.|^\$/);
  });
});

describe("weight bands", () => {
  it("puts every weight in exactly one band whose range holds it, finer towards the top", () => {
    for (let w = 1; w <= 260; w++) {
      const b = bandOf(w);
      expect(b).toBeLessThanOrEqual(w);
      expect(bandTop(b)).toBeGreaterThanOrEqual(w);
      expect(bandOf(bandTop(b))).toBe(b);
    }
    expect(bandTop(bandOf(210)) - bandOf(210)).toBeLessThan(bandTop(bandOf(70)) - bandOf(70));
  });

  it("writes only what changed: a weight moved within its band stays in it, a new or gone term has no band on one side", () => {
    const changes = postingChanges({ same: 70, within: 200, moved: 70, gone: 90 }, { same: 70, within: 201, moved: 150, fresh: 60 });
    expect(changes.sort((a, b) => (a.term < b.term ? -1 : 1))).toEqual([
      { term: "fresh", from: null, to: bandOf(60), weight: 60 },
      { term: "gone", from: bandOf(90), to: null, weight: undefined },
      { term: "moved", from: bandOf(70), to: bandOf(150), weight: 150 },
      { term: "within", from: 200, to: 200, weight: 201 },
    ]);
  });
});

describe("parts of a split band", () => {
  it("spreads keys evenly, and a key's part at a larger fan-out lies inside its part at a smaller one", () => {
    const keys = Array.from({ length: 8000 }, () => searchKey("page", randomUUID()));
    const counts = new Array<number>(64).fill(0);
    for (const k of keys) {
      const i = partOf(k, 64);
      counts[i] = (counts[i] ?? 0) + 1;
      expect(partOf(k, 4)).toBe(i % 4);
    }
    // 125 a part on average: none far from it.
    expect(Math.min(...counts)).toBeGreaterThan(80);
    expect(Math.max(...counts)).toBeLessThan(170);
  });

  it("splits a band only past SPLIT_AT postings a document, into parts of about half that", () => {
    expect(nextFanOut(SPLIT_AT, 1)).toBe(1);
    expect(nextFanOut(SPLIT_AT + 1, 1)).toBe(4);
    expect(nextFanOut(4 * SPLIT_AT, 4)).toBe(4);
    const fan = nextFanOut(60_000, 1);
    expect(60_000 / fan).toBeLessThanOrEqual(SPLIT_AT / 2);
    expect(60_000 / fan).toBeGreaterThan(SPLIT_AT / 4);
    expect(nextFanOut(60_000, fan)).toBe(fan);
  });
});

describe("a term's weight", () => {
  it("weighs words that name an object's own properties like any other", () => {
    const page = (title: string, words: string[]) => ({
      title,
      slug: "p-1",
      summary: "",
      parts: [{ id: "prt_1", kind: "markdown" as const, body: words.join(" "), position: 0 }],
    });
    const w = pageWeights(page("Constructor notes", ["constructor", "valueof", "heron"]));
    const plain = pageWeights(page("Heron notes", ["constructor", "valueof", "heron"]));
    // "constructor" in the title weighs as "heron" does in the other's: a number, not Object's own function.
    expect(w.constructor).toBe(plain.heron);
    expect(Object.values(w).every((v) => Number.isInteger(v) && v > 0)).toBe(true);
    // A new page with the word: the term is new, not moved from a band named by Object's own "constructor".
    expect(postingChanges({}, { constructor: 120 })).toEqual([{ term: "constructor", from: null, to: bandOf(120), weight: 120 }]);
    expect(postingChanges({ constructor: 120 }, {})).toEqual([{ term: "constructor", from: bandOf(120), to: null, weight: undefined }]);
  });
});
