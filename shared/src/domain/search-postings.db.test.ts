// Bands of postings kept small (search-postings.ts), on the embedded database: a band that
// outgrows SPLIT_AT is split into parts by the write that takes it over; a query then ranks
// exactly as it did from the one document, ties included; deleting or editing a page takes
// its posting out of (or moves it within) a split band; a split left half done by a stopped
// writer is finished by the next write, and writers racing into a band at its split lose
// nothing.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageDoc, WorkspaceDoc } from "../db/index";
import { testDatabase, testDeps, type TestDatabase, type TestDeps } from "../testing/index";
import type { Principal } from "./access";
import { createPage } from "./pages/create-page";
import { bandOf, forwardDocId, indexTarget, searchKey, unindexTarget } from "./search-index";
import { bandDocId, bandDocIds, fanOutOf, headDocId, partDocId, partOf, SEARCH_LAYOUT, SPLIT_AT } from "./search-postings";
import { rankedSearch } from "./search-query";
import { findOrCreateConfirmedUser } from "./users";

let database: TestDatabase;
let deps: TestDeps<TestDatabase>;
let principal: Principal;
let template: PageDoc;

beforeAll(async () => {
  database = await testDatabase("searchsplit");
  deps = testDeps(database);
  const user = await findOrCreateConfirmedUser(deps, "splitter@example.com");
  principal = { kind: "user", user };
  await createPage(deps, principal, { slug: "template", title: "Template", body_markdown: "x" });
  template = (await database.c.pages.findOne({ slug: "template" })) as PageDoc;
}, 120_000);
afterAll(async () => {
  await database.drop();
});

const BAND = 64; // weights 64 to 79

/** A workspace of its own with `n` pages (stored as a page is; not indexed), their ids. */
async function workspaceWith(n: number): Promise<{ ws: WorkspaceDoc; ids: string[] }> {
  const wsId = `ws_${randomUUID().slice(0, 8)}`;
  const ids = Array.from({ length: n }, () => randomUUID());
  const pages = ids.map((id, i) => ({ ...template, _id: id, workspaceId: wsId, slug: `p-${i}`, title: `Page ${i}` }));
  for (let i = 0; i < pages.length; i += 500) await database.c.pages.insertMany(pages.slice(i, i + 500));
  const ws = { _id: wsId, slug: wsId, name: wsId, usage: { pages: n, bytes: 0 } } as unknown as WorkspaceDoc;
  return { ws, ids };
}

/** Indexes `weights` for each page (the index's own write), eight at a time. */
async function index(wsId: string, items: { id: string; weights: Record<string, number>; version?: number }[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let it = items[next++]; it; it = items[next++]) {
        await indexTarget(deps, { workspaceId: wsId, kind: "page", id: it.id, version: it.version ?? 1 }, it.weights);
      }
    }),
  );
}

/**
 * The index as `index` leaves it for `items` while no band is over SPLIT_AT (one document a
 * band), written in bulk: what 1,500 pages' writes one by one would leave, in a second.
 */
async function seed(wsId: string, items: { id: string; weights: Record<string, number> }[]): Promise<void> {
  const heads = new Map<string, { n: number; c: Record<string, number> }>();
  const bands = new Map<string, { term: string; p: Record<string, number> }>();
  for (const it of items) {
    const key = searchKey("page", it.id);
    for (const [term, w] of Object.entries(it.weights)) {
      const h = heads.get(term) ?? { n: 0, c: {} };
      heads.set(term, h);
      h.n++;
      h.c[`b${bandOf(w)}`] = (h.c[`b${bandOf(w)}`] ?? 0) + 1;
      const id = bandDocId(wsId, term, bandOf(w));
      const b = bands.get(id) ?? { term, p: {} };
      bands.set(id, b);
      b.p[key] = w;
    }
  }
  await database.c.searchTerms.insertMany([
    ...[...heads].map(([term, h]) => ({ _id: headDocId(wsId, term), workspaceId: wsId, term, v: SEARCH_LAYOUT, ...h })),
    ...[...bands].map(([_id, b]) => ({ _id, workspaceId: wsId, v: SEARCH_LAYOUT, ...b })),
  ]);
  const fwd = items.map((it) => ({
    _id: forwardDocId(wsId, searchKey("page", it.id)),
    workspaceId: wsId,
    kind: "page" as const,
    targetId: it.id,
    version: 1,
    terms: it.weights,
    v: SEARCH_LAYOUT,
  }));
  for (let i = 0; i < fwd.length; i += 500) await database.c.searchDocs.insertMany(fwd.slice(i, i + 500));
}

/** Every posting of `term`'s `band`, read from whichever documents its head names. */
async function bandPostings(wsId: string, term: string, band: number): Promise<Record<string, number>> {
  const head = await database.c.searchTerms.findOne({ _id: headDocId(wsId, term) });
  const docs = await Promise.all(bandDocIds(wsId, term, band, fanOutOf(head, band)).map((id) => database.c.searchTerms.findOne({ _id: id })));
  return Object.assign({}, ...docs.map((d) => d?.p ?? {})) as Record<string, number>;
}

const ranking = async (ws: WorkspaceDoc, q: string, limit: number) =>
  (await rankedSearch(deps, [ws], q, { limit })).hits.map((h) => (h.kind === "page" ? `${h.page._id} ${h.score.toFixed(9)}` : "table"));

describe("a band over SPLIT_AT postings", () => {
  it("is split into parts by the write that takes it over, and queries rank as they did from one document, ties in the same order", async () => {
    const { ws, ids } = await workspaceWith(SPLIT_AT + 1);
    // 1,500 pages with "lantern" at weights 64–78 (one band: many ties), every fifth also "quill".
    const weights = (i: number) => ({ lantern: BAND + (i % 15), ...(i % 5 === 0 ? { quill: 40 + (i % 30) } : {}) });
    await seed(
      ws._id,
      ids.slice(0, SPLIT_AT).map((id, i) => ({ id, weights: weights(i) })),
    );
    const head0 = await database.c.searchTerms.findOne({ _id: headDocId(ws._id, "lantern") });
    expect(head0?.c?.[`b${BAND}`]).toBe(SPLIT_AT);
    expect(fanOutOf(head0, BAND)).toBe(1);
    const before = await bandPostings(ws._id, "lantern", BAND);
    expect(Object.keys(before)).toHaveLength(SPLIT_AT);
    const queries = ["lantern", "lantern quill"];
    const rankedBefore = await Promise.all(queries.map((q) => ranking(ws, q, 40)));

    // One more page, at the band's lowest weight: its write splits the band.
    const last = ids[SPLIT_AT] as string;
    await index(ws._id, [{ id: last, weights: { lantern: BAND } }]);
    const head = await database.c.searchTerms.findOne({ _id: headDocId(ws._id, "lantern") });
    const fan = fanOutOf(head, BAND);
    expect(fan).toBeGreaterThan(1);
    // The band's own document is left moved and empty; every part is small; together they hold every posting.
    expect(await database.c.searchTerms.findOne({ _id: bandDocId(ws._id, "lantern", BAND) })).toMatchObject({ moved: true, to: fan, p: {} });
    const parts = await Promise.all(bandDocIds(ws._id, "lantern", BAND, fan).map((id) => database.c.searchTerms.findOne({ _id: id })));
    for (const part of parts) expect(Object.keys(part?.p ?? {}).length).toBeLessThan(SPLIT_AT);
    expect(await bandPostings(ws._id, "lantern", BAND)).toEqual({ ...before, [searchKey("page", last)]: BAND });

    // The same postings as before the split (the page that split it deleted again; a band is never merged back).
    await unindexTarget(deps, { workspaceId: ws._id, kind: "page", id: last });
    expect(fanOutOf(await database.c.searchTerms.findOne({ _id: headDocId(ws._id, "lantern") }), BAND)).toBe(fan);
    expect(await bandPostings(ws._id, "lantern", BAND)).toEqual(before);
    expect(await Promise.all(queries.map((q) => ranking(ws, q, 40)))).toEqual(rankedBefore);
  }, 120_000);

  it("takes out a deleted page's posting and moves an edited one's, within its part and to another band", async () => {
    const { ws, ids } = await workspaceWith(SPLIT_AT + 10);
    const weights = ids.map((id, i) => ({ id, weights: { lantern: BAND + (i % 15) } }));
    await seed(ws._id, weights.slice(0, SPLIT_AT));
    await index(ws._id, weights.slice(SPLIT_AT));
    const fan = fanOutOf(await database.c.searchTerms.findOne({ _id: headDocId(ws._id, "lantern") }), BAND);
    expect(fan).toBeGreaterThan(1);
    const [gone, within, away] = ids.slice(0, 3) as [string, string, string];
    const partHolding = async (id: string) =>
      (await database.c.searchTerms.findOne({ _id: partDocId(ws._id, "lantern", BAND, fan, partOf(searchKey("page", id), fan)) }))?.p ?? {};

    await unindexTarget(deps, { workspaceId: ws._id, kind: "page", id: gone });
    await index(ws._id, [
      { id: within, weights: { lantern: 79 }, version: 2 },
      { id: away, weights: { lantern: 150 }, version: 2 },
    ]);

    expect(await partHolding(gone)).not.toHaveProperty(searchKey("page", gone));
    expect((await partHolding(within))[searchKey("page", within)]).toBe(79);
    expect(await partHolding(away)).not.toHaveProperty(searchKey("page", away));
    expect((await database.c.searchTerms.findOne({ _id: bandDocId(ws._id, "lantern", bandOf(150)) }))?.p).toEqual({ [searchKey("page", away)]: 150 });
    const head = await database.c.searchTerms.findOne({ _id: headDocId(ws._id, "lantern") });
    expect(head).toMatchObject({ n: SPLIT_AT + 9, c: { [`b${BAND}`]: SPLIT_AT + 8, [`b${bandOf(150)}`]: 1 } });
    expect(Object.keys(await bandPostings(ws._id, "lantern", BAND))).toHaveLength(SPLIT_AT + 8);

    // The query sees it: the moved page first, the deleted one nowhere.
    const hits = (await rankedSearch(deps, [ws], "lantern", { limit: 3 })).hits.map((h) => (h.kind === "page" ? h.page._id : ""));
    expect(hits[0]).toBe(away);
    const all = (await rankedSearch(deps, [ws], "lantern", { limit: 2000 })).hits.map((h) => (h.kind === "page" ? h.page._id : ""));
    expect(all).toHaveLength(SPLIT_AT + 9);
    expect(all).not.toContain(gone);
  }, 120_000);
});

describe("a split with two writers", () => {
  it("left half done by a stopped writer is finished by the next write into the band, nothing lost", async () => {
    const { ws, ids } = await workspaceWith(SPLIT_AT + 1);
    await seed(
      ws._id,
      ids.slice(0, SPLIT_AT).map((id, i) => ({ id, weights: { lantern: BAND + (i % 15) } })),
    );
    // A splitter that stopped right after marking the band's document moved (its first step).
    await database.c.searchTerms.updateOne({ _id: bandDocId(ws._id, "lantern", BAND) }, { $set: { moved: true, to: 4 } });
    // A writer whose head still says one document: its write meets the moved one.
    const last = ids[SPLIT_AT] as string;
    await index(ws._id, [{ id: last, weights: { lantern: 70 } }]);
    const head = await database.c.searchTerms.findOne({ _id: headDocId(ws._id, "lantern") });
    expect(fanOutOf(head, BAND)).toBe(4);
    const all = await bandPostings(ws._id, "lantern", BAND);
    expect(Object.keys(all)).toHaveLength(SPLIT_AT + 1);
    expect(all[searchKey("page", last)]).toBe(70);
  }, 120_000);

  it("racing into a band as it splits, every writer's posting is kept", async () => {
    const { ws, ids } = await workspaceWith(SPLIT_AT + 40);
    await seed(
      ws._id,
      ids.slice(0, SPLIT_AT - 10).map((id, i) => ({ id, weights: { lantern: BAND + (i % 15) } })),
    );
    // 50 writers at once (eight at a time each, two batches side by side) cross SPLIT_AT together.
    const rest = ids.slice(SPLIT_AT - 10).map((id, i) => ({ id, weights: { lantern: BAND + (i % 15), ember: 100 } }));
    await Promise.all([index(ws._id, rest.slice(0, 25)), index(ws._id, rest.slice(25))]);
    const head = await database.c.searchTerms.findOne({ _id: headDocId(ws._id, "lantern") });
    expect(fanOutOf(head, BAND)).toBeGreaterThan(1);
    const all = await bandPostings(ws._id, "lantern", BAND);
    expect(Object.keys(all).sort()).toEqual(ids.map((id) => searchKey("page", id)).sort());
    for (const [i, id] of ids.entries()) expect(all[searchKey("page", id)]).toBe(BAND + ((i < SPLIT_AT - 10 ? i : i - (SPLIT_AT - 10)) % 15));
  }, 120_000);
});
