// The postings documents of the search index (search-index.ts, layout 2) and the one way they
// are written. A term's head `${ws}:${term}:h` counts its postings per weight band; a band's
// postings live in one document `${ws}:${term}:${band}` until it holds more than SPLIT_AT,
// then in `fan` parts `${ws}:${term}:${band}:${fan}:${i}`, a posting in part `partOf(key, fan)`.
// FerretDB reads and rewrites a document whole, and its cost grows faster than the document
// (docs/performance.md, "Postings documents of a bounded size"): a posting set in a band of
// 60,000 took seconds, in a part of 1,000 tens of milliseconds.
//
// The head records each fan-out a band has reached (`s.b<band>.f<fan>`, only ever added: the
// largest is current), so a query knows which documents to read. A band is split by its
// writer once its head counts more than SPLIT_AT postings per document, and split again (into
// more parts, each new part drawing from one old one) as it grows; never merged back.
//
// Two processes writing at once, without transactions: a document is either live or moved
// (`moved: true`, `to`: the fan-out its postings went to), and every write of a posting is
// conditional on its document being live, so nothing is written into a document once its
// postings are being copied. A split (`finishSplit`, idempotent, run by whoever meets a
// moved document: the splitter, a writer whose head was read before the split, or one after
// a splitter that stopped) marks every old document moved, inserts each new part once (an
// insert that meets the part already there leaves it: the part was copied, and may have been
// written since), adds the new fan-out to the head, then empties the old documents. A writer
// that meets a moved document finishes the split and writes in its new part. A query reads
// the documents of the fan-out its head names: during a split, the old ones, whose postings
// are those of when the split began (writes made meanwhile show once the head names the new
// fan-out).
import type { SearchTermDoc } from "../db/index";
import { retryOnDuplicate } from "../errors";
import type { StoreDeps } from "./deps";
import { insertOnce } from "../db";

/** The index's layout: forward documents and postings of another (or no) layout are not this one's. */
export const SEARCH_LAYOUT = 2;

/**
 * A band is split once its documents hold more than this many postings each (as its head
 * counts them), into enough parts that each holds about PART_TARGET: parts stay between about
 * 750 and 1,500 postings. Measured (docs/performance.md): a findOne of 1,000 postings 14 ms,
 * of 2,000 38 ms, 4,000 125 ms; a posting set into them 26, 69, 195 ms. Parts of 300–600
 * (SPLIT_AT 600) made a new page's indexing 17 % faster and the commonest words' p99 38 %
 * slower (more documents a query): 1,500 kept.
 */
export const SPLIT_AT = 1500;
const PART_TARGET = 750;
/** At most this many parts in a band (a band of 3 million postings). */
const MAX_FAN = 4096;

export const headDocId = (workspaceId: string, term: string) => `${workspaceId}:${term}:h`;
export const bandDocId = (workspaceId: string, term: string, band: number) => `${workspaceId}:${term}:${band}`;
/** The document of a band at fan-out `fan` holding part `i` (fan 1: the band's own document). */
export const partDocId = (workspaceId: string, term: string, band: number, fan: number, i: number) =>
  fan === 1 ? bandDocId(workspaceId, term, band) : `${workspaceId}:${term}:${band}:${fan}:${i}`;

/**
 * The part of a band at fan-out `fan` (a power of two) that holds `key`: FNV-1a over the key,
 * so the parts are even whatever the key's shape (a page's key is its UUID's bytes, a table's
 * its id). A key's part at a larger fan-out lies inside its part at a smaller one (the same
 * low bits), so each new part draws from exactly one old one.
 */
export function partOf(key: string, fan: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h >>> 0) & (fan - 1);
}

/** The fan-out of `band` as the head records it (1: one document). */
export function fanOutOf(head: Pick<SearchTermDoc, "s"> | null | undefined, band: number): number {
  let fan = 1;
  for (const f of Object.keys(head?.s?.[`b${band}`] ?? {})) {
    const n = Number(f.slice(1));
    if (Number.isInteger(n) && n > fan) fan = n;
  }
  return fan;
}

/** The documents holding `band`'s postings at fan-out `fan`. */
export function bandDocIds(workspaceId: string, term: string, band: number, fan: number): string[] {
  return Array.from({ length: fan }, (_, i) => partDocId(workspaceId, term, band, fan, i));
}

/** The fan-out a band of `count` postings at fan-out `fan` is split into (itself: no split). */
export function nextFanOut(count: number, fan: number): number {
  if (count <= SPLIT_AT * fan || fan >= MAX_FAN) return fan;
  let to = fan * 2;
  while (count / to > PART_TARGET && to < MAX_FAN) to *= 2;
  return to;
}

/** One term's posting for one key going from band `from` to band `to` (null: none) at `weight`. */
export interface PostingChange {
  term: string;
  from: number | null;
  to: number | null;
  weight: number | undefined;
}

/**
 * Writes `changes` of `key`'s postings, eight terms at a time, each an update by `_id` (not
 * `bulkWrite`: the embedded FerretDB narrows a single-statement update by `_id` with its index
 * but runs a command of many statements over the whole collection for each). Per term: its
 * head (counts moved when the posting changes band; read anyway, for the band's fan-out), the
 * posting set in its band and unset from the band it left, then the band split if it has
 * outgrown its fan-out. A head's counts can be skewed by a step run twice (they only steer
 * idf, which bands to read and when to split).
 */
export async function writePostings(deps: StoreDeps, workspaceId: string, key: string, changes: PostingChange[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(8, changes.length) }, async () => {
      for (let c = changes[next++]; c; c = changes[next++]) await writeChange(deps, workspaceId, key, c);
    }),
  );
}

async function writeChange(deps: StoreDeps, workspaceId: string, key: string, c: PostingChange): Promise<void> {
  const { searchTerms } = deps.database.c;
  const hid = headDocId(workspaceId, c.term);
  let head: SearchTermDoc | null;
  if (c.from === c.to) {
    head = await searchTerms.findOne({ _id: hid });
  } else {
    const inc: Record<string, number> = {};
    if (c.from !== null) inc[`c.b${c.from}`] = -1;
    if (c.to !== null) inc[`c.b${c.to}`] = 1;
    if (c.from === null) inc.n = 1;
    if (c.to === null) inc.n = -1;
    const update = { $inc: inc, $setOnInsert: { workspaceId, term: c.term, v: SEARCH_LAYOUT } } as never;
    head = await retryOnDuplicate(() => searchTerms.findOneAndUpdate({ _id: hid }, update, { upsert: true, returnDocument: "after" }));
  }
  // The band the posting joins, at the fan-out the head names: written first, then the posting leaves its old band.
  const fan = c.to === null ? 1 : fanOutOf(head, c.to);
  if (c.to !== null && c.weight !== undefined) {
    // The band's first posting (as its head counts): its document is most likely not there yet.
    const first = fan === 1 && c.from !== c.to && head?.c?.[`b${c.to}`] === 1 && (await insertBand(deps, workspaceId, c.term, c.to, key, c.weight));
    if (!first) await writeInBand(deps, workspaceId, c.term, c.to, fan, key, c.weight);
  }
  if (c.from !== null && c.from !== c.to) await writeInBand(deps, workspaceId, c.term, c.from, fanOutOf(head, c.from), key, null);
  if (c.to === null) return;
  const to = nextFanOut(Math.max(0, head?.c?.[`b${c.to}`] ?? 0), fan);
  if (to > fan) await splitBand(deps, workspaceId, c.term, c.to, fan, to);
}

/**
 * Sets `key`'s posting in `band` to `weight` (null: unsets it), in the document that holds it at fan-out `fan`
 * (as the head said), only while that document is live. A document found moved: the split
 * is finished, and the write goes to the new part. A band's own document is created by its
 * first posting (an insert: FerretDB scans the whole collection for an upsert whose filter
 * has more than the `_id`, 37 s in a probe); parts are created only by a split.
 */
async function writeInBand(deps: StoreDeps, workspaceId: string, term: string, band: number, fan: number, key: string, weight: number | null): Promise<void> {
  const { searchTerms } = deps.database.c;
  const update = weight === null ? { $unset: { [`p.${key}`]: "" } } : { $set: { [`p.${key}`]: weight } };
  for (let attempt = 0; attempt < 16; attempt++) {
    const id = partDocId(workspaceId, term, band, fan, partOf(key, fan));
    const r = await searchTerms.updateOne({ _id: id, moved: { $ne: true } }, update as never);
    if (r.matchedCount === 1) return;
    const doc = await searchTerms.findOne({ _id: id }, { projection: { moved: 1, to: 1 } });
    if (doc?.moved && doc.to) {
      await finishSplit(deps, workspaceId, term, band, fan, doc.to);
      fan = doc.to;
    } else if (!doc) {
      if (weight === null) return; // nothing to unset
      if (fan > 1) continue; // a part not there: the head named a fan-out whose split has not copied it yet
      if (await insertBand(deps, workspaceId, term, band, key, weight)) return;
    }
  }
  throw new Error(`search index: could not write ${term} band ${band}`);
}

/** Creates `band`'s own document with `key`'s posting; false if it is there already (then it is written as any). */
function insertBand(deps: StoreDeps, workspaceId: string, term: string, band: number, key: string, weight: number): Promise<boolean> {
  return insertOnce(deps.database.c.searchTerms, { _id: bandDocId(workspaceId, term, band), workspaceId, term, v: SEARCH_LAYOUT, p: { [key]: weight } });
}

/**
 * Splits `band` from fan-out `fan` into `to`. The first old document decides the new fan-out
 * (marked moved first, conditionally): two writers splitting at once agree on one.
 */
async function splitBand(deps: StoreDeps, workspaceId: string, term: string, band: number, fan: number, to: number): Promise<void> {
  const { searchTerms } = deps.database.c;
  const first = partDocId(workspaceId, term, band, fan, 0);
  await searchTerms.updateOne({ _id: first, moved: { $ne: true } }, { $set: { moved: true, to } });
  const doc = await searchTerms.findOne({ _id: first }, { projection: { moved: 1, to: 1 } });
  if (doc?.moved && doc.to) await finishSplit(deps, workspaceId, term, band, fan, doc.to);
}

/** Finishes the split of `band` from fan-out `fan` into `to` (idempotent; see the top of the file). */
export async function finishSplit(deps: StoreDeps, workspaceId: string, term: string, band: number, fan: number, to: number): Promise<void> {
  const { searchTerms } = deps.database.c;
  const olds = bandDocIds(workspaceId, term, band, fan);
  for (const id of olds) await searchTerms.updateOne({ _id: id, moved: { $ne: true } }, { $set: { moved: true, to } });
  // Four old documents at a time: a split of a big band reads each once and writes its new parts.
  let next = 0;
  const copy = async (i: number) => {
    const id = olds[i] as string;
    const old = await searchTerms.findOne({ _id: id });
    if (old && old.to !== to) throw new Error(`search index: ${id} moved to ${old.to}, not ${to}`);
    // The new parts that draw from old part i: those whose low bits are i.
    const parts = new Map<number, Record<string, number>>();
    for (let j = i; j < to; j += fan) parts.set(j, {});
    for (const [k, w] of Object.entries(old?.p ?? {})) {
      const part = parts.get(partOf(k, to));
      if (part) part[k] = w;
    }
    // A part there already was copied (and perhaps written since): left as it is.
    for (const [j, p] of parts) await insertOnce(searchTerms, { _id: partDocId(workspaceId, term, band, to, j), workspaceId, term, v: SEARCH_LAYOUT, p });
  };
  await Promise.all(
    Array.from({ length: Math.min(4, fan) }, async () => {
      while (next < fan) await copy(next++);
    }),
  );
  await searchTerms.updateOne({ _id: headDocId(workspaceId, term) }, { $set: { [`s.b${band}.f${to}`]: 1 } });
  for (const id of olds) await searchTerms.updateOne({ _id: id }, { $set: { p: {} } });
}
