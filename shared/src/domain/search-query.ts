// Ranked search over the index (search-index.ts): the postings of the query's terms in the
// workspaces the caller may read — and only those, so access is decided before anything is
// ranked and a term's rarity is counted among what the caller can see — scored BM25-like
// (the weight kept per page and term, times the term's idf), the best few checked against
// the pages and tables as they are now. Every read is by `_id`.
import type { CollectionDoc, PageDoc, SearchTermDoc, WorkspaceDoc } from "../db/index";
import type { StoreDeps } from "./deps";
import { forwardDocId, type SearchKind, termDocId } from "./search-index";
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
const PARALLEL_READS = 16;

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
  const docs = await inPool(reads, (r) =>
    deps.database.c.searchTerms.findOne({ _id: termDocId(r.ws._id, r.term) }).then((d): [typeof r, SearchTermDoc | null] => [r, d]),
  );

  // idf over what the caller may read: N pages (and tables) in those workspaces, df the postings found there.
  const total = Math.max(
    1,
    spaces.reduce((n, ws) => n + (ws.usage?.pages ?? 0), 0),
  );
  const df = new Map<string, number>();
  for (const [r, d] of docs) if (d) df.set(r.term, (df.get(r.term) ?? 0) + Object.keys(d.p).length);
  const idf = (term: string) => {
    const n = df.get(term) ?? 0;
    return Math.log(1 + (Math.max(total, n) - n + 0.5) / (n + 0.5));
  };

  // Per key (within its workspace): the best weight of each slot (the last word whole, or as a prefix).
  const scores = new Map<string, { ws: WorkspaceDoc; key: string; slots: Map<string, number> }>();
  for (const [r, d] of docs) {
    if (!d) continue;
    const factor = idf(r.term) / WEIGHT_SCALE;
    for (const [key, w] of Object.entries(d.p)) {
      const id = `${r.ws._id}:${key}`;
      let s = scores.get(id);
      if (!s) scores.set(id, (s = { ws: r.ws, key, slots: new Map() }));
      s.slots.set(r.slot, Math.max(s.slots.get(r.slot) ?? 0, w * factor));
    }
  }
  const slots = new Set(wanted.map((w) => w.slot)).size;
  const ranked = [...scores.entries()]
    .map(([id, s]) => {
      let sum = 0;
      for (const v of s.slots.values()) sum += v;
      // Pages holding more of the query's words come first among near equals.
      return { id, ws: s.ws, key: s.key, score: sum * (0.5 + (0.5 * s.slots.size) / slots) };
    })
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));

  // The best, checked against what is stored now (a page deleted or being deleted is skipped).
  const hits: SearchHit[] = [];
  const want = { page: opts.limit, table: opts.tables ? opts.limit : 0 };
  const have = { page: 0, table: 0 };
  const STEP = opts.limit * 2;
  for (let i = 0; i < ranked.length && (have.page < want.page || have.table < want.table); i += STEP) {
    const slice = ranked.slice(i, i + STEP);
    const found = await inPool(slice, async (c) => {
      const fwd = await deps.database.c.searchDocs.findOne({ _id: forwardDocId(c.ws._id, c.key) }, { projection: { kind: 1, targetId: 1 } });
      if (!fwd) return null;
      const kind: SearchKind = fwd.kind;
      if (kind === "page") {
        if (have.page >= want.page) return null;
        const page = await deps.database.c.pages.findOne({ _id: fwd.targetId });
        return page && !page.deletingAt && page.workspaceId === c.ws._id ? ({ kind, score: c.score, page, ws: c.ws } as const) : null;
      }
      if (have.table >= want.table) return null;
      const table = await deps.database.c.collections.findOne({ _id: fwd.targetId });
      return table && table.workspaceId === c.ws._id ? ({ kind, score: c.score, table, ws: c.ws } as const) : null;
    });
    for (const h of found) {
      if (!h || have[h.kind] >= want[h.kind]) continue;
      have[h.kind]++;
      hits.push(h);
    }
  }
  return { terms, prefix, hits };
}
