// Ranked search over the index (search-index.ts): the postings of the query's terms in the
// workspaces the caller may read — and only those, so access is decided before anything is
// ranked and a term's rarity is counted among what the caller can see — scored BM25-like
// (the weight kept per page and term, times the term's idf), the best few checked against
// the pages and tables as they are now. Every read is by `_id`.
//
// A term's postings are split in weight bands (search-index.ts), and its head says how many
// each holds. The query reads the heads, then the bands of highest impact first (weight times
// idf), only as far as they can change the best results: it stops when the best candidates'
// known scores reach what any other page could still score (a threshold algorithm), or when
// it has read POSTINGS_BUDGET postings, and ranks by what it read. Then it reads the best pages
// themselves. A rare term's few bands are read whole.
import type { CollectionDoc, PageDoc, WorkspaceDoc } from "../db/index";
import type { StoreDeps } from "./deps";
import { bandTop, keyTarget } from "./search-index";
import { bandDocIds, fanOutOf, headDocId } from "./search-postings";
import { normaliseWord, PREFIX_MARK, queryTerms, WEIGHT_SCALE } from "./search-text";

export type SearchHit =
  { kind: "page"; score: number; page: PageDoc; ws: WorkspaceDoc } | { kind: "table"; score: number; table: CollectionDoc; ws: WorkspaceDoc };

export interface RankedSearch {
  /** The query's whole-word terms, normalised (what snippets highlight). */
  terms: string[];
  /** The half-typed last word matched as the start of a title word (⌘K), if any. */
  prefix: string | null;
  hits: SearchHit[];
}

/** At most this many postings documents are read at once. */
const PARALLEL_READS = 20;

/** A term with at most this many postings (in a workspace) has all its bands read at once. */
const READ_WHOLE = 2000;
/**
 * At most about this many postings are read for one query: where the best results are not
 * settled by then (a query of several common words: the scores are flat), they are ranked by
 * the best postings read (impact order, "anytime" ranking; docs/decisions.md).
 */
const POSTINGS_BUDGET = 4_000;

async function inPool<T, R>(items: T[], run: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await run(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, items.length) }, worker));
  return out;
}

/** The start of the query's last word, when the query may still be being typed (no space after it). */
function lastWordPrefix(query: string): string | null {
  if (/\s$/.test(query)) return null;
  const m = /[\p{L}\p{N}]+$/u.exec(query);
  if (!m) return null;
  const w = m[0].normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  return w.length >= 2 && w.length <= 12 ? w : null;
}

/**
 * The pages (and tables, with `tables`) of `spaces` that best match `query`, best first, at
 * most `limit` of each kind. `prefix`: the last word also matches the start of a title word.
 */
export async function rankedSearch(
  deps: StoreDeps,
  spaces: WorkspaceDoc[],
  query: string,
  opts: { limit: number; prefix?: boolean; tables?: boolean },
): Promise<RankedSearch> {
  const terms = queryTerms(query);
  const prefix = opts.prefix ? lastWordPrefix(query) : null;
  const wanted = [...terms.map((t) => ({ term: t, slot: t })), ...(prefix ? [{ term: `${PREFIX_MARK}${prefix}`, slot: normaliseWord(prefix) }] : [])];
  if (spaces.length === 0 || wanted.length === 0) return { terms, prefix, hits: [] };

  const reads = spaces.flatMap((ws) => wanted.map((w) => ({ ws, ...w })));
  const heads = await inPool(reads, (r) => deps.database.c.searchTerms.findOne({ _id: headDocId(r.ws._id, r.term) }));

  // idf over what the caller may read: N pages (and tables) in those workspaces, df the postings found there.
  const total = Math.max(
    1,
    spaces.reduce((n, ws) => n + (ws.usage?.pages ?? 0), 0),
  );
  const df = new Map<string, number>();
  reads.forEach((r, i) => df.set(r.term, (df.get(r.term) ?? 0) + Math.max(0, heads[i]?.n ?? 0)));
  const idf = (term: string) => {
    const n = df.get(term) ?? 0;
    return Math.log(1 + (Math.max(total, n) - n + 0.5) / (n + 0.5));
  };

  // One list per (workspace, term): its bands best first, how far it has been read, and the
  // most a posting not yet read can add (`bound`).
  const lists: Posting[] = reads.map((r, i) => {
    const c = heads[i]?.c ?? {};
    const bands = Object.entries(c)
      .map(([b, n]) => ({ band: Number(b.slice(1)), count: Math.max(0, n) }))
      .filter((b) => Number.isFinite(b.band))
      .map((b) => ({ ...b, fan: fanOutOf(heads[i], b.band) }))
      .sort((a, b) => b.band - a.band);
    const l: Posting = { ws: r.ws, term: r.term, slot: r.slot, factor: idf(r.term) / WEIGHT_SCALE, bands, next: 0, bound: 0 };
    l.bound = boundOf(l);
    return l;
  });
  const slots = [...new Set(wanted.map((w) => w.slot))];
  const cover = (n: number) => 0.5 + (0.5 * n) / slots.length;
  const scores = new Map<string, Candidate>();
  /** Postings read so far (as the heads count them). */
  let readCount = 0;

  /** Reads the next bands of `l` until about `count` more postings (at least one band). */
  const plan = (l: Posting, count: number) => {
    const out: { l: Posting; band: number; count: number; fan: number }[] = [];
    let got = 0;
    while (l.next < l.bands.length && (out.length === 0 || got < count)) {
      const b = l.bands[l.next++] as Band;
      out.push({ l, band: b.band, count: b.count, fan: b.fan });
      got += b.count;
    }
    l.bound = boundOf(l);
    readCount += got;
    return out;
  };
  // A split band is read whole, all its parts (search-postings.ts): the same postings as before its split.
  const read = async (batch: { l: Posting; band: number; count: number; fan: number }[]) => {
    const ids = batch.flatMap((b) => bandDocIds(b.l.ws._id, b.l.term, b.band, b.fan).map((id) => ({ l: b.l, id })));
    const docs = await inPool(ids, ({ id }) => deps.database.c.searchTerms.findOne({ _id: id }));
    ids.forEach(({ l }, i) => {
      const p = docs[i]?.p;
      if (!p) return;
      for (const [key, w] of Object.entries(p)) {
        const id = `${l.ws._id}:${key}`;
        let s = scores.get(id);
        if (!s) scores.set(id, (s = { id, ws: l.ws, key, known: new Map(), seen: new Set() }));
        s.seen.add(l);
        s.known.set(l.slot, Math.max(s.known.get(l.slot) ?? 0, w * l.factor));
      }
    });
  };
  /** A candidate's score as far as known (what it is once every list has been read for it). */
  const low = (s: Candidate) => {
    let sum = 0;
    for (const v of s.known.values()) sum += v;
    return sum * cover(s.known.size);
  };
  /** The most a candidate could score, with what the lists not read for it could still add. */
  const high = (s: Candidate | null, ws: WorkspaceDoc | null) => {
    let sum = 0;
    let n = 0;
    for (const slot of slots) {
      let v = s?.known.get(slot) ?? 0;
      for (const l of lists) if (l.slot === slot && (!ws || l.ws === ws) && !s?.seen.has(l)) v = Math.max(v, l.bound);
      if (v > 0) n++;
      sum += v;
    }
    return sum * cover(n);
  };

  const want = { page: opts.limit, table: opts.tables ? opts.limit : 0 };
  let need = want.page + want.table + 5;
  const hits: SearchHit[] = [];
  const have = { page: 0, table: 0 };
  let checked = 0;
  for (let first = true; ; first = false) {
    // Bands best first until the best `need` cannot change.
    for (let round = first; ; round = false) {
      const batch = round ? lists.flatMap((l) => plan(l, l.bands.reduce((n, b) => n + b.count, 0) <= READ_WHOLE ? Number.POSITIVE_INFINITY : need)) : [];
      if (!round) {
        const order = [...scores.values()].map((s) => ({ s, low: low(s) })).sort((a, b) => b.low - a.low);
        const kth = order.length >= need ? (order[need - 1] as { low: number }).low : 0;
        let rest = spaces.reduce((m, ws) => Math.max(m, high(null, ws)), 0);
        for (const o of order.slice(need)) if (rest <= kth) rest = Math.max(rest, high(o.s, o.s.ws));
        if (order.length >= need && kth >= rest) break;
        // Not settled: the open bands of highest impact next, as many postings again as read so
        // far, within the budget (after which the ranking is what the best postings gave).
        if (readCount >= POSTINGS_BUDGET) break;
        let chunk = Math.min(Math.max(need, readCount), POSTINGS_BUDGET - readCount);
        for (;;) {
          const best = lists.reduce<Posting | null>((m, l) => (l.next < l.bands.length && l.bound > 0 && !l.cut && (!m || l.bound > m.bound) ? l : m), null);
          if (!best || chunk <= 0) break;
          // A band bigger than what is left of the budget ends that list's reading (a big
          // document costs far more than its share: FerretDB decodes it whole).
          if ((best.bands[best.next]?.count ?? 0) > POSTINGS_BUDGET - readCount) {
            best.cut = true;
            continue;
          }
          const taken = plan(best, 1);
          batch.push(...taken);
          chunk -= taken.reduce((n, t) => n + t.count, 0);
        }
        if (batch.length === 0) break;
      }
      await read(batch);
    }
    const ranked = [...scores.values()]
      .map((s) => ({ id: s.id, ws: s.ws, key: s.key, score: low(s) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));

    // The best, checked against what is stored now (a page deleted or being deleted is skipped).
    while (checked < ranked.length && (have.page < want.page || have.table < want.table)) {
      const slice = ranked.slice(checked, checked + Math.max(1, want.page - have.page + want.table - have.table));
      checked += slice.length;
      const found = await inPool(slice, async (c) => {
        const { kind, id } = keyTarget(c.key);
        if (kind === "page") {
          if (have.page >= want.page) return null;
          const page = await deps.database.c.pages.findOne({ _id: id });
          return page && !page.deletingAt && page.workspaceId === c.ws._id ? ({ kind, score: c.score, page, ws: c.ws } as const) : null;
        }
        if (have.table >= want.table) return null;
        const table = await deps.database.c.collections.findOne({ _id: id });
        return table && table.workspaceId === c.ws._id ? ({ kind, score: c.score, table, ws: c.ws } as const) : null;
      });
      for (const h of found) {
        if (!h || have[h.kind] >= want[h.kind]) continue;
        have[h.kind]++;
        hits.push(h);
      }
    }
    // Short of pages (postings of pages gone) with bands still unread: look further. (Tables,
    // few and weighed by their names, are not looked for further than the pages' best.)
    if (have.page >= want.page || lists.every((l) => l.next >= l.bands.length)) break;
    need = Math.max(need * 4, checked + need);
  }
  return { terms, prefix, hits };
}

interface Posting {
  ws: WorkspaceDoc;
  term: string;
  slot: string;
  /** idf / WEIGHT_SCALE: a weight times this is its share of a score. */
  factor: number;
  bands: Band[];
  /** The next band to read. */
  next: number;
  /** The most a posting in the bands not yet read can add to a score. */
  bound: number;
  /** No more of its bands are read (the next one is bigger than the budget left). */
  cut?: boolean;
}

/** A band of a term's postings: how many its head counts, in how many documents (search-postings.ts). */
interface Band {
  band: number;
  count: number;
  fan: number;
}

interface Candidate {
  id: string;
  ws: WorkspaceDoc;
  key: string;
  /** Per slot, the best share of the postings read. */
  known: Map<string, number>;
  /** The lists it was found in. */
  seen: Set<Posting>;
}

function boundOf(l: Posting): number {
  const b = l.bands[l.next];
  return b ? bandTop(b.band) * l.factor : 0;
}
