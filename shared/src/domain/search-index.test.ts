import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bandOf, bandTop, keyTarget, postingOps, searchKey } from "./search-index";

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

  it("writes only what changed: a weight moved within its band is one write, a new or gone term also moves its head's counts", () => {
    const key = "pKEY";
    const ops = postingOps("ws_1", key, { same: 70, within: 200, moved: 70, gone: 90 }, { same: 70, within: 201, moved: 150, fresh: 60 });
    const targets = ops.map((o) => ("updateOne" in o ? String((o.updateOne.filter as { _id: string })._id) : "?"));
    expect(targets.sort()).toEqual(
      [
        "ws_1:within:200",
        `ws_1:moved:${bandOf(150)}`,
        `ws_1:moved:${bandOf(70)}`,
        "ws_1:moved:h",
        `ws_1:gone:${bandOf(90)}`,
        "ws_1:gone:h",
        `ws_1:fresh:${bandOf(60)}`,
        "ws_1:fresh:h",
      ].sort(),
    );
  });
});
