// The search index (issue 30 item 2; docs/decisions.md, "Search over what pages say"): an
// inverted index of normalised terms, kept in the database by the write path, so every process
// on every machine sees the same index and nothing else has to run. Read only by `_id`, the
// one lookup the embedded FerretDB serves from an index (docs/performance.md, "What the
// embedded FerretDB does with indexes"):
//
//   searchTerms  `${workspaceId}:${term}`  → {p: {<key>: weight}}: the postings of a term in a
//                workspace, one field per page or table (`key`, a short hash of it)
//   searchDocs   `${workspaceId}:${key}`   → the page or table behind a key, its version, and
//                the terms and weights last indexed for it (what the next version's write diffs)
//
// Indexing a version writes only the terms whose weight changed (one unordered batch of
// `$set`/`$unset` on postings, then the forward document), so an edit of a few words touches a
// few postings. Every step is idempotent: the sweeper runs a page's finishing steps again for
// a writer that stopped, and the backfill indexes what was stored before the index existed.
import { createHash } from "node:crypto";
import type { AnyBulkWriteOperation } from "mongodb";
import type { CollectionDoc, PageDoc, SearchTermDoc } from "../db/index";
import { isDuplicateKey } from "../errors";
import type { StoreDeps } from "./deps";
import { pageBodyText, termWeights } from "./search-text";

export type SearchKind = "page" | "table";

/** A page's or table's key in the postings: short, so a common term's postings stay small. */
export function searchKey(kind: SearchKind, id: string): string {
  return `k${createHash("sha256").update(`${kind}:${id}`).digest("base64url").slice(0, 12)}`;
}

export const termDocId = (workspaceId: string, term: string) => `${workspaceId}:${term}`;
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
  const old = before?.terms ?? {};
  const ops: AnyBulkWriteOperation<SearchTermDoc>[] = [];
  for (const [term, w] of Object.entries(weights)) {
    if (old[term] === w) continue;
    ops.push({
      updateOne: {
        filter: { _id: termDocId(target.workspaceId, term) },
        update: { $set: { [`p.${key}`]: w }, $setOnInsert: { workspaceId: target.workspaceId, term } },
        upsert: true,
      },
    });
  }
  for (const term of Object.keys(old)) {
    if (term in weights) continue;
    ops.push({ updateOne: { filter: { _id: termDocId(target.workspaceId, term) }, update: { $unset: { [`p.${key}`]: "" } } } });
  }
  await writePostings(deps, ops);
  const doc = { workspaceId: target.workspaceId, kind: target.kind, targetId: target.id, version: target.version, terms: weights };
  if (before) {
    await searchDocs.updateOne({ _id: fid, version: { $lte: target.version } }, { $set: doc });
  } else {
    try {
      await searchDocs.insertOne({ _id: fid, ...doc });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      await searchDocs.updateOne({ _id: fid, version: { $lte: target.version } }, { $set: doc });
    }
  }
}

/**
 * Postings, one `updateOne` by `_id` each, eight at a time. Not `bulkWrite`: the embedded
 * FerretDB narrows a single-statement update by `_id` with its index but runs a command of
 * many statements over the whole collection for each (a search bench with 3.7 M postings
 * stalled on it). Two writers creating one term's document at once: the loser's upsert is
 * retried once.
 */
async function writePostings(deps: StoreDeps, ops: AnyBulkWriteOperation<SearchTermDoc>[]): Promise<void> {
  const { searchTerms } = deps.database.c;
  let next = 0;
  const write = async (op: AnyBulkWriteOperation<SearchTermDoc>) => {
    if (!("updateOne" in op)) throw new Error("postings are written with updateOne");
    const { filter, update, upsert } = op.updateOne;
    try {
      await searchTerms.updateOne(filter, update as never, { upsert: upsert ?? false });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      await searchTerms.updateOne(filter, update as never, { upsert: upsert ?? false });
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(8, ops.length) }, async () => {
      for (let op = ops[next++]; op; op = ops[next++]) await write(op);
    }),
  );
}

/** Removes a page or table from the index (its delete). */
export async function unindexTarget(deps: StoreDeps, target: Omit<Target, "version">): Promise<void> {
  const key = searchKey(target.kind, target.id);
  const fid = forwardDocId(target.workspaceId, key);
  const before = await deps.database.c.searchDocs.findOne({ _id: fid });
  if (!before) return;
  await writePostings(
    deps,
    Object.keys(before.terms).map((term) => ({
      updateOne: { filter: { _id: termDocId(target.workspaceId, term) }, update: { $unset: { [`p.${key}`]: "" } } },
    })),
  );
  await deps.database.c.searchDocs.deleteOne({ _id: fid });
}

/** Indexes a page as it is now (a finishing step of each version; the backfill). A page being deleted is left to its delete. */
export async function indexPage(deps: StoreDeps, page: PageDoc): Promise<void> {
  if (page.deletingAt) return;
  // A newer version is being finished by its own writer, which indexes that one.
  const current = await deps.database.c.pages.findOne({ _id: page._id }, { projection: { version: 1, deletingAt: 1 } });
  if (!current || current.deletingAt || current.version > page.version) return;
  await indexTarget(deps, { workspaceId: page.workspaceId, kind: "page", id: page._id, version: page.version }, pageWeights(page));
}

export async function indexTable(deps: StoreDeps, table: CollectionDoc): Promise<void> {
  if (table.kind !== "table") return;
  await indexTarget(deps, { workspaceId: table.workspaceId, kind: "table", id: table._id, version: table.rowsVersion ?? 0 }, tableWeights(table));
}

const BACKFILL_META = "search-backfill";
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
  const state = (await meta.findOne({ _id: BACKFILL_META })) as { done?: boolean } | null;
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
  for await (const p of deps.database.c.pages.find({})) {
    if (signal.stopped) return await release(seen); // the next start goes through again
    const fid = forwardDocId(p.workspaceId, searchKey("page", p._id));
    const indexed = await deps.database.c.searchDocs.findOne({ _id: fid }, { projection: { version: 1 } });
    if (!p.revisionPending && !p.deletingAt && (!indexed || indexed.version < p.version)) await indexPage(deps, p);
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
