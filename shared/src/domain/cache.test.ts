import { afterEach, describe, expect, it, vi } from "vitest";
import { ExactReads, ReadCache } from "./cache";

afterEach(() => vi.useRealTimers());

describe("the read cache", () => {
  it("serves an entry for at most its time to live", () => {
    vi.useFakeTimers();
    const c = new ReadCache(1000, 1 << 20);
    c.set("k", "v");
    vi.advanceTimersByTime(999);
    expect(c.get("k")).toBe("v");
    vi.advanceTimersByTime(2);
    expect(c.get("k")).toBeUndefined();
  });

  it("keeps null as a value (known not to exist)", () => {
    const c = new ReadCache(1000, 1 << 20);
    c.set("missing", null);
    expect(c.get("missing")).toBeNull();
  });

  it("stays under its byte cap, dropping the least recently used first", () => {
    // Each entry costs its bytes plus its key and a fixed overhead (about 1,200 here).
    const c = new ReadCache(60_000, 13_000);
    for (let i = 0; i < 10; i++) c.set(`k${i}`, i, { bytes: 1000 });
    c.get("k0"); // used again: now the most recent
    c.set("k10", 10, { bytes: 1000 });
    expect(c.size.bytes).toBeLessThanOrEqual(13_000);
    expect(c.get("k0")).toBe(0);
    expect(c.get("k1")).toBeUndefined();
  });

  it("never lets one entry crowd out the rest", () => {
    const c = new ReadCache(60_000, 10_000);
    c.set("huge", "x", { bytes: 5000 });
    expect(c.get("huge")).toBeUndefined();
  });

  it("drops every entry of a tag at once", () => {
    const c = new ReadCache(60_000, 1 << 20);
    c.set("a", 1, { tags: ["ws1"] });
    c.set("b", 2, { tags: ["ws1"] });
    c.set("c", 3, { tags: ["ws2"] });
    c.deleteTag("ws1");
    expect([c.get("a"), c.get("b"), c.get("c")]).toEqual([undefined, undefined, 3]);
  });

  it("shares one load among concurrent misses of a key", async () => {
    const c = new ReadCache(60_000, 1 << 20);
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 10));
      return "doc";
    };
    const got = await Promise.all(Array.from({ length: 50 }, () => c.through("k", load)));
    expect(got.every((v) => v === "doc")).toBe(true);
    expect(loads).toBe(1);
  });

  it("never keeps what a load read before a change that dropped its key or a tag, and later readers load afresh", async () => {
    for (const drop of [(c: ReadCache) => c.delete("k"), (c: ReadCache) => c.deleteTag("ws:1"), (c: ReadCache) => c.clear()]) {
      const c = new ReadCache(60_000, 1 << 20);
      let stored = "old";
      const gates: (() => void)[] = [];
      const load = () => {
        const seen = stored; // what the database held when the read ran
        return new Promise<string>((resolve) => gates.push(() => resolve(seen)));
      };
      const early = c.through("k", load, { tags: ["ws:1"] });
      // The writer changes the document and drops its entries while the read is in flight.
      stored = "new";
      drop(c);
      const late = c.through("k", load, { tags: ["ws:1"] });
      expect(gates).toHaveLength(2); // the later reader did not wait for the earlier read
      for (const open of gates) open();
      expect(await early).toBe("old");
      expect(await late).toBe("new");
      // What is cached now is the value read after the change.
      expect(c.get("k")).toBe("new");
    }
  });

  it("with a time to live of 0, reads every time and keeps nothing", async () => {
    const c = new ReadCache(0, 1 << 20);
    let loads = 0;
    await c.through("k", async () => ++loads);
    await c.through("k", async () => ++loads);
    expect(loads).toBe(2);
    expect(c.size.entries).toBe(0);
  });

  it("exact reads bypass the cache but drop its entries after a change", async () => {
    const shared = new ReadCache(60_000, 1 << 20);
    shared.set("ws:1", "old", { tags: ["t"] });
    shared.set("art:x", "old", { tags: ["t"] });
    const exact = new ExactReads(shared);
    expect(await exact.through("ws:1", async () => "fresh")).toBe("fresh");
    exact.delete("ws:1");
    exact.deleteTag("t");
    expect(shared.get("ws:1")).toBeUndefined();
    expect(shared.get("art:x")).toBeUndefined();
  });

  it("keeps copies the caller checks itself past the time to live, within the byte cap, and shares them with exact readers", () => {
    vi.useFakeTimers();
    const c = new ReadCache(1000, 1 << 20);
    c.setChecked("rows:t", { version: 3 }, 1000);
    vi.advanceTimersByTime(60_000);
    expect(c.getChecked("rows:t")).toEqual({ version: 3 });
    const exact = new ExactReads(c);
    expect(exact.keepsChecked).toBe(true);
    expect(exact.getChecked("rows:t")).toEqual({ version: 3 });
    exact.setChecked("rows:u", { version: 1 }, 1000);
    expect(c.getChecked("rows:u")).toEqual({ version: 1 });
    // Least recently used go first once the cap is reached, checked or not.
    c.setChecked("big", "x", (1 << 18) - 300);
    c.setChecked("big2", "y", (1 << 18) - 300);
    c.setChecked("big3", "z", (1 << 18) - 300);
    c.setChecked("big4", "w", (1 << 18) - 300);
    expect(c.getChecked("rows:t")).toBeUndefined();
    // Off with the rest of the cache.
    const off = new ReadCache(0, 1 << 20);
    off.setChecked("rows:t", { version: 3 }, 10);
    expect(off.keepsChecked).toBe(false);
    expect(off.getChecked("rows:t")).toBeUndefined();
  });
});
