// The search index (issue 30 item 2; docs/decisions.md, "Search over what pages say", and
// "Search at 100,000 pages"): an inverted index of normalised terms, kept in the database by
// the write path, so every process on every machine sees the same index and nothing else has
// to run. Read only by `_id`, the one lookup the embedded FerretDB serves from an index
// (docs/performance.md, "What the embedded FerretDB does with indexes"). Layout 2:
//
//   searchTerms  `${workspaceId}:${term}:h`       → {n, c: {b<band>: count}, s}: a term's head, how
//                many pages hold it (its df), how many in each weight band, and which bands are split
//                `${workspaceId}:${term}:${band}`  → {p: {<key>: weight}}: the postings of one band,
//                one field per page or table whose weight falls in it (`bandOf`); a band of more than
//                SPLIT_AT postings is split in parts `…:${band}:${fan}:${i}` (search-postings.ts)
//   searchDocs   `${workspaceId}:${key}`          → the page or table behind a key, its version,
//                and the terms and weights last indexed for it (what the next version's write diffs)
//
// A key names its page or table outright (`searchKey`), so a query needs no lookup between a
// posting and the page. Bands split a term's postings by weight, best first, so a query reads
// the head, then only the bands that can hold its best results (search-query.ts): a common
// word's 100,000 postings are no longer one document read whole, and no postings document
// grows past a size FerretDB reads and rewrites quickly (search-postings.ts). Indexing a version writes
// only the terms whose weight changed (a posting `$set`/`$unset` in its band or part; the head's
// counts `$inc`ed when a posting appears, goes, or changes band), then the forward document:
// an edit of a few words touches a few postings. Every step is idempotent but the head's
// counts, which a step run twice can skew (they only steer idf and which bands to read; a
// band named in the head is read even at a count of 0). The sweeper runs a page's finishing
// steps again for a writer that stopped, and the backfill indexes what was stored before the
// index existed or under layout 1.
import type { CollectionDoc, PageDoc } from "../db/index";
import { isDuplicateKey } from "../errors";
import type { StoreDeps } from "./deps";
import { type PostingChange, SEARCH_LAYOUT, writePostings } from "./search-postings";
import { pageBodyText, termWeights } from "./search-text";
import { insertOnce } from "../db";

export type SearchKind = "page" | "table";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A page's or table's key in the postings, which names it outright (a field name: no `.`, no
 * leading `$`): a page with a UUID id (every page) is `p` and its 16 bytes in base64url, 23
 * characters; another page id is `q` and the id; a table is `t` and its id.
 */
export function searchKey(kind: SearchKind, id: string): string {
  if (kind === "table") return `t${id}`;
  return UUID.test(id) ? `p${Buffer.from(id.replaceAll("-", ""), "hex").toString("base64url")}` : `q${id}`;
}

/** What a key names (`searchKey`'s inverse). */
export function keyTarget(key: string): { kind: SearchKind; id: string } {
  if (key.startsWith("t")) return { kind: "table", id: key.slice(1) };
  if (key.startsWith("q")) return { kind: "page", id: key.slice(1) };
  const hex = Buffer.from(key.slice(1), "base64url").toString("hex");
  return { kind: "page", id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` };
}

/**
 * The band a weight falls in (WEIGHT_SCALE 100, at most about 220): bands of 4 from 192 up (a
 * word many times in a page, or in its title), of 8 from 128, of 16 below, so a rare word's
 * postings sit in a few bands and a common word's best are a small band of their own.
 */
export function bandOf(weight: number): number {
  return weight - (weight % bandWidth(weight));
}
/** The highest weight band `band` can hold. */
export function bandTop(band: number): number {
  return band + bandWidth(band) - 1;
}
function bandWidth(weight: number): number {
  return weight >= 192 ? 4 : weight >= 128 ? 8 : 16;
}

export const forwardDocId = (workspaceId: string, key: string) => `${workspaceId}:${key}`;

/** The terms and weights of a page as the index keeps them. */
export function pageWeights(page: Pick<PageDoc, "title" | "slug" | "summary" | "parts">): Record<string, number> {
  return termWeights({ titles: [page.title, page.slug], body: pageBodyText(page) });
}

export function tableWeights(table: Pick<CollectionDoc, "name" | "slug">): Record<string, number> {
  return termWeights({ titles: [table.name, table.slug], body: "" });
}

interface Target {
  workspaceId: string;
  kind: SearchKind;
  id: string;
  version: number;
}

/**
 * Brings the index to `weights` for one page or table at `version`. An older version than
 * the one indexed is left alone (a finishing step that runs late).
 */
export async function indexTarget(deps: StoreDeps, target: Target, weights: Record<string, number>): Promise<void> {
  const { searchDocs } = deps.database.c;
  const key = searchKey(target.kind, target.id);
  const fid = forwardDocId(target.workspaceId, key);
  const before = await searchDocs.findOne({ _id: fid });
  if (before && before.version > target.version) return;
  // A forward document of layout 1 describes postings the migration deleted: diff against nothing.
  const old = before?.v === SEARCH_LAYOUT ? before.terms : {};
  await writePostings(deps, target.workspaceId, key, postingChanges(old, weights));
  const doc = { workspaceId: target.workspaceId, kind: target.kind, targetId: target.id, version: target.version, terms: weights, v: SEARCH_LAYOUT };
  // The first index of a target inserts; a racing one that inserted first is updated like any.
  if (!before && (await insertOnce(searchDocs, { _id: fid, ...doc }))) return;
  await searchDocs.updateOne({ _id: fid, version: { $lte: target.version } }, { $set: doc });
}

/**
 * What takes a key's postings from `old` to `now`: per term whose weight changed, the band it
 * leaves and the band it joins (the same band: the weight moved within it).
 */
export function postingChanges(old: Record<string, number>, now: Record<string, number>): PostingChange[] {
  const changes: PostingChange[] = [];
  for (const term of new Set([...Object.keys(old), ...Object.keys(now)])) {
    // Own properties only: "constructor" is a word too.
    const was = Object.hasOwn(old, term) ? old[term] : undefined;
    const is = Object.hasOwn(now, term) ? now[term] : undefined;
    if (was === is) continue;
    changes.push({ term, from: was === undefined ? null : bandOf(was), to: is === undefined ? null : bandOf(is), weight: is });
  }
  return changes;
}

/** Removes a page or table from the index (its delete). */
export async function unindexTarget(deps: StoreDeps, target: Omit<Target, "version">): Promise<void> {
  const key = searchKey(target.kind, target.id);
  const fid = forwardDocId(target.workspaceId, key);
  const before = await deps.database.c.searchDocs.findOne({ _id: fid });
  if (!before) return;
  if (before.v === SEARCH_LAYOUT) await writePostings(deps, target.workspaceId, key, postingChanges(before.terms, {}));
  await deps.database.c.searchDocs.deleteOne({ _id: fid });
}

/** Indexes a page as it is now (a finishing step of each version; the backfill). A page being deleted is left to its delete. */
export async function indexPage(deps: StoreDeps, page: PageDoc): Promise<void> {
  if (page.deletingAt) return;
  // A newer version is being finished by its own writer, which indexes that one.
  const current = await deps.database.c.pages.findOne({ _id: page._id }, { projection: { version: 1, deletingAt: 1 } });
  if (!current || current.deletingAt || current.version > page.version) return;
  const target = { workspaceId: page.workspaceId, kind: "page" as const, id: page._id };
  await indexTarget(deps, { ...target, version: page.version }, pageWeights(page));
  // A delete that began meanwhile may have unindexed before these postings were written (it
  // marks the page first, then unindexes): whichever of the two looks last removes them.
  const after = await deps.database.c.pages.findOne({ _id: page._id }, { projection: { deletingAt: 1 } });
  if (!after || after.deletingAt) await unindexTarget(deps, target);
}

export async function indexTable(deps: StoreDeps, table: CollectionDoc): Promise<void> {
  if (table.kind !== "table") return;
  await indexTarget(deps, { workspaceId: table.workspaceId, kind: "table", id: table._id, version: table.rowsVersion ?? 0 }, tableWeights(table));
}

/** The backfill's record in `meta`, one per layout: a new layout's backfill runs once more over everything. */
export const BACKFILL_META = `search-backfill-${SEARCH_LAYOUT}`;
/** How long a backfill's lease lasts without being renewed (renewed every RENEW documents). */
const LEASE_MS = 120_000;
const RENEW = 500;

/**
 * Indexes the pages and tables stored before the index existed: one background pass, run by
 * one process at a time (a lease in `meta`), after which `meta` records it done. A page whose
 * indexed version is current costs one lookup; writes made meanwhile index themselves. A pass
 * that stops (the process ends) is started again from the beginning by the next sweep after
 * its lease runs out: each step is idempotent. Returns how many it looked at (null: done
 * already, or another process holds the lease).
 */
export async function backfillSearchIndex(deps: StoreDeps, signal: { stopped: boolean } = { stopped: false }): Promise<number | null> {
  const meta = deps.database.c.meta;
  const state = (await meta.findOne({ _id: BACKFILL_META })) as { done?: boolean; purged?: boolean } | null;
  if (state?.done) return null;
  const t = Date.now();
  const lease = new Date(t + LEASE_MS);
  try {
    const won = await meta.updateOne(
      { _id: BACKFILL_META, leaseUntil: { $lt: new Date(t) } } as never,
      { $set: { leaseUntil: lease, updatedAt: new Date(t) } as never },
      { upsert: true },
    );
    if (won.modifiedCount !== 1 && won.upsertedCount !== 1) return null;
  } catch (err) {
    if (isDuplicateKey(err)) return null; // another process holds the lease
    throw err;
  }
  let seen = 0;
  const release = async (n: number) => {
    await meta.updateOne({ _id: BACKFILL_META }, { $set: { leaseUntil: new Date(0) } as never });
    return n;
  };
  const renew = async () => {
    if (++seen % RENEW === 0) await meta.updateOne({ _id: BACKFILL_META }, { $set: { leaseUntil: new Date(Date.now() + LEASE_MS) } as never });
  };
  if (!state?.purged) {
    // The postings of an earlier layout go first (once: a scan), so no query mixes layouts;
    // their forward documents stay until each page is indexed again below.
    await deps.database.c.searchTerms.deleteMany({ v: { $ne: SEARCH_LAYOUT } } as never);
    await meta.updateOne({ _id: BACKFILL_META }, { $set: { purged: true } as never });
  }
  for await (const p of deps.database.c.pages.find({})) {
    if (signal.stopped) return await release(seen); // the next start goes through again
    const fid = forwardDocId(p.workspaceId, searchKey("page", p._id));
    const indexed = await deps.database.c.searchDocs.findOne({ _id: fid }, { projection: { version: 1, v: 1 } });
    if (!p.revisionPending && !p.deletingAt && (!indexed || indexed.v !== SEARCH_LAYOUT || indexed.version < p.version)) await indexPage(deps, p);
    await renew();
  }
  for await (const c of deps.database.c.collections.find({ kind: "table" })) {
    if (signal.stopped) return await release(seen);
    await indexTable(deps, c);
    await renew();
  }
  await meta.updateOne({ _id: BACKFILL_META }, { $set: { done: true, leaseUntil: new Date(0), updatedAt: new Date() } as never });
  return seen;
}
