// Issue 30 item 2: search over what pages say, at scale. Seeds N pages (100,000 by default;
// BENCH_SEARCH_PAGES or --pages) of 2–8 KB of text drawn from a word list with Zipf
// frequencies and a fixed seed, into one workspace of the embedded database, with the search
// index built from the very functions the write path uses (`pageWeights`, `searchKey`; the
// postings written in bulk, as the backfill would leave them). Then, at 1 connection, one
// query after another through the domain's `searchPages` (what the MCP tool calls):
//   - one-word queries (words drawn uniformly from the list), one-word queries of the 20 most
//     common words (the longest postings), three-word queries: p50 / p99;
//   - the old way beside it (a case-insensitive regex over every page, as search_pages did
//     before), a few runs only;
//   - the query plan of the reads a search makes (explain), to show they are index lookups;
//   - a judged set of 50 queries (words of a chosen page's title and text) with the expected
//     page in the top 3;
//   - the same queries through a second, separate connection (another "process"): identical results;
//   - the cost the index adds to a write: `indexPage` of a new page, and of an edit of one word.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { connectDatabase, type Database } from "@atelier/shared/db";
import { NO_CACHE } from "@atelier/shared/domain/cache";
import { createPage } from "@atelier/shared/domain/pages/create-page";
import { searchPages } from "@atelier/shared/domain/pages/search-pages";
import { bandOf, forwardDocId, indexPage, keyTarget, pageWeights, searchKey } from "@atelier/shared/domain/search-index";
import { bandDocId, bandDocIds, fanOutOf, headDocId, nextFanOut, partDocId, partOf, SEARCH_LAYOUT, SPLIT_AT } from "@atelier/shared/domain/search-postings";
import { queryTerms, WEIGHT_SCALE } from "@atelier/shared/domain/search-text";
import { awaitWritesSettled } from "@atelier/shared/domain/versioned-write";
import { createWorkspace } from "@atelier/shared/domain/workspaces";
import { newId } from "@atelier/shared/ids";
import type { PageDoc, SearchTermDoc, UserDoc } from "@atelier/shared/db";
import { configFor, startDatabase } from "./lib/atelier";
import { makeWorkDir } from "./lib/cleanup";
import { summarizeExplain } from "./lib/explain";
import { fixed, table } from "./lib/format";

const WORDS = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/search-words.txt"), "utf8")
  .split("\n")
  .filter(Boolean);

export interface SearchBenchOptions {
  pages: number;
  queries: number;
  log: (line: string) => void;
}

interface Latency {
  name: string;
  runs: number;
  p50: number;
  p99: number;
  meanHits: number;
}

export interface SearchBenchResult {
  pages: number;
  words: number;
  seedSeconds: number;
  indexSeconds: number;
  postingsDocs: number;
  postings: number;
  largestPostings: number;
  /** The most postings in one document (a band, or a part of a split band). */
  largestDocument: number;
  latencies: Latency[];
  /** Per query of each set (20 each): round trips, KB returned, the commands' time summed (some run at once), the wall time. */
  profiles: { name: string; commands: number; kb: number; dbMs: number; wallMs: number }[];
  regexBaseline: Latency;
  plans: { read: string; plan: string; indexesUsed: string[] }[];
  /** The first judged set (half its queries do not single their page out at 100,000 pages). */
  judged: { queries: number; top1: number; top3: number };
  /** The judged set whose queries each name one page (two title words, or a title word and the page's two rarest words). */
  judgedDistinct: { queries: number; top1: number; top3: number };
  /** The early-stopping ranking against one that reads every band of every term. */
  exact: { queries: number; sameSet: number; sameOrder: number };
  identicalAcrossProcesses: boolean;
  /** null: the step did not finish within its bound. */
  writeCost: { newPageMs: number; oneWordEditMs: number; postingsWrittenForEdit: number } | null;
}

/** The element at `i`, which must be there. */
function at<T>(xs: readonly T[], i: number): T {
  const v = xs[i];
  if (v === undefined) throw new Error(`nothing at ${i}`);
  return v;
}

/** mulberry32: a small PRNG with a fixed seed, so every run stores the same text. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Word ranks by Zipf's law (s = 1): the cumulative weights, searched by bisection. */
function zipf(n: number): number[] {
  const cum: number[] = [];
  let sum = 0;
  for (let i = 1; i <= n; i++) cum.push((sum += 1 / i));
  return cum.map((c) => c / sum);
}
function draw(cum: number[], r: number): number {
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cum[mid] ?? 1) < r) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Page `i`'s title and text, the same on every run. Titles take words from the rarer half. */
export function pageText(i: number, cum: number[]): { title: string; body: string } {
  const rnd = prng(0x5eed + i);
  const rare = () => WORDS[Math.floor(WORDS.length / 4 + rnd() * (WORDS.length * 0.75))] ?? "word";
  const title = Array.from({ length: 2 + Math.floor(rnd() * 3) }, rare).join(" ");
  const target = 2048 + Math.floor(rnd() * 6144);
  let body = "";
  while (body.length < target) {
    const n = 6 + Math.floor(rnd() * 14);
    const words = Array.from({ length: n }, () => WORDS[draw(cum, rnd())] ?? "word");
    const first = at(words, 0);
    words[0] = first.charAt(0).toUpperCase() + first.slice(1);
    body += `${words.join(" ")}. `;
    if (rnd() < 0.15) body += "\n\n";
  }
  return { title, body: body.trim() };
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
}

export async function searchBench(opts: SearchBenchOptions): Promise<SearchBenchResult> {
  const { log } = opts;
  const dir = makeWorkDir(log);
  const db = await startDatabase(dir, log);
  const database = db.database;
  const config = configFor({ NODE_ENV: "production", SECRET_KEY: "x".repeat(43), MONGODB_URI: db.uri, DATA_DIR: dir, BASE_URL: "http://127.0.0.1:1" });
  const deps = { database, config, cache: NO_CACHE };
  const user: UserDoc = { _id: newId("usr"), email: "search@atelier.localhost", confirmedAt: new Date(), defaultWorkspaceId: null, createdAt: new Date() };
  await database.c.users.insertOne(user);
  const ws = await createWorkspace({ database }, { slug: "search-bench", name: "Search bench", ownerId: user._id });
  const principal = { kind: "user" as const, user };
  // One page through the domain: the template every seeded page copies (its actors, dates, shape).
  await createPage(deps, principal, { slug: "template", title: "Template", body_markdown: "x", workspace: ws.slug });
  // Its indexing runs just after the answer: let it finish before the index is emptied below.
  await awaitWritesSettled();
  const template = (await database.c.pages.findOne({ slug: "template" })) as PageDoc;
  // Only the seeded pages are searched: the template and what the index holds of it go.
  await database.c.pages.deleteOne({ _id: template._id });
  await database.c.searchTerms.deleteMany({});
  await database.c.searchDocs.deleteMany({});

  const cum = zipf(WORDS.length);
  log(`seeding ${opts.pages} pages…`);
  const t0 = performance.now();
  // Postings kept compactly while seeding: per term, per band, the page's index × PACK + its weight.
  const PACK = 1024; // above any weight (at most about 420: search-text.ts)
  const dict = new Map<string, Map<number, number[]>>();
  const ids: string[] = [];
  const keys: string[] = [];
  for (let n = 0; n < opts.pages;) {
    const batch: PageDoc[] = [];
    const fwd: { _id: string; workspaceId: string; kind: "page"; targetId: string; version: number; terms: Record<string, number>; v: number }[] = [];
    for (let b = 0; b < 500 && n < opts.pages; b++, n++) {
      const { title, body } = pageText(n, cum);
      const id = randomUUID();
      const page: PageDoc = {
        ...template,
        _id: id,
        slug: `p-${n}`,
        title,
        summary: "",
        parts: [{ id: `prt_${n}`, kind: "markdown", body, position: 0 }],
        bytes: body.length,
        revisionPending: false,
      };
      batch.push(page);
      ids.push(id);
      const key = searchKey("page", id);
      keys.push(key);
      const weights = pageWeights(page);
      for (const [t, w] of Object.entries(weights)) {
        let e = dict.get(t);
        if (!e) dict.set(t, (e = new Map()));
        const band = bandOf(w);
        let list = e.get(band);
        if (!list) e.set(band, (list = []));
        list.push(n * PACK + w);
      }
      // The forward document as indexPage writes it, less its term list (only edits read that; the
      // bench's edit below indexes a page through the domain, which writes a whole one).
      fwd.push({ _id: forwardDocId(ws._id, key), workspaceId: ws._id, kind: "page", targetId: id, version: 1, terms: {}, v: SEARCH_LAYOUT });
    }
    await database.c.pages.insertMany(batch, { ordered: false });
    await database.c.searchDocs.insertMany(fwd, { ordered: false });
    if (n % 10_000 === 0) log(`  ${n} pages (${Math.round((performance.now() - t0) / 1000)} s)`);
  }
  await database.c.workspaces.updateOne({ _id: ws._id }, { $set: { "usage.pages": opts.pages + 1 } });
  const seedSeconds = (performance.now() - t0) / 1000;
  log(`writing the postings of ${dict.size} terms…`);
  const t1 = performance.now();
  let postings = 0;
  let largest = 0;
  let largestBand = 0;
  let largestDoc = 0;
  let pending: SearchTermDoc[] = [];
  let pendingSize = 0;
  const flush = async () => {
    if (pending.length > 0) await database.c.searchTerms.insertMany(pending, { ordered: false });
    pending = [];
    pendingSize = 0;
  };
  const push = async (doc: SearchTermDoc, size: number) => {
    pending.push(doc);
    pendingSize += size;
    if (pendingSize > 8_000_000 || pending.length >= 1000) await flush();
  };
  for (const [term, bands] of dict) {
    const c: Record<string, number> = {};
    const split: Record<string, Record<string, number>> = {};
    let n = 0;
    for (const [band, list] of bands) {
      // A band as the write path leaves it having grown one posting at a time: split at each
      // fan-out it outgrew (search-postings.ts), each part a document.
      const fans = [1];
      for (let f = 1; list.length > SPLIT_AT * f;) fans.push((f = nextFanOut(SPLIT_AT * f + 1, f)));
      const fan = at(fans, fans.length - 1);
      if (fan > 1) split[`b${band}`] = Object.fromEntries(fans.slice(1).map((f) => [`f${f}`, 1]));
      const parts = Array.from({ length: fan }, () => ({}) as Record<string, number>);
      for (const x of list) {
        const key = at(keys, Math.floor(x / PACK));
        at(parts, partOf(key, fan))[key] = x % PACK;
      }
      c[`b${band}`] = list.length;
      n += list.length;
      largestBand = Math.max(largestBand, list.length);
      for (const [i, p] of parts.entries()) {
        await push({ _id: partDocId(ws._id, term, band, fan, i), workspaceId: ws._id, term, v: SEARCH_LAYOUT, p }, Object.keys(p).length * 30);
        largestDoc = Math.max(largestDoc, Object.keys(p).length);
      }
    }
    postings += n;
    largest = Math.max(largest, n);
    await push(
      { _id: headDocId(ws._id, term), workspaceId: ws._id, term, v: SEARCH_LAYOUT, n, c, ...(Object.keys(split).length > 0 ? { s: split } : {}) },
      200,
    );
    dict.delete(term);
  }
  await flush();
  const indexSeconds = (performance.now() - t1) / 1000;
  log(`index written in ${fixed(indexSeconds, 1)} s: ${postings} postings (largest band ${largestBand}, largest document ${largestDoc})`);

  // Queries, drawn with their own fixed seed.
  const rnd = prng(42);
  const uniform = () => at(WORDS, Math.floor(rnd() * WORDS.length));
  const sets: { name: string; queries: string[] }[] = [
    { name: "one word (uniform over the list)", queries: Array.from({ length: opts.queries }, uniform) },
    { name: "one word (the 20 most common)", queries: Array.from({ length: Math.min(opts.queries, 60) }, (_, i) => at(WORDS, i % 20)) },
    { name: "three words (uniform)", queries: Array.from({ length: opts.queries }, () => `${uniform()} ${uniform()} ${uniform()}`) },
  ];
  const run = async (q: string, d = deps) => (await searchPages(d, principal, { query: q, workspace: ws.slug })).pages;
  const latencies: Latency[] = [];
  for (const set of sets) {
    await run(at(set.queries, 0)); // warm-up
    const times: number[] = [];
    let hits = 0;
    for (const q of set.queries) {
      const s = performance.now();
      hits += (await run(q)).length;
      times.push(performance.now() - s);
    }
    latencies.push({ name: set.name, runs: times.length, p50: percentile(times, 50), p99: percentile(times, 99), meanHits: hits / times.length });
    log(`${set.name}: p50 ${fixed(percentile(times, 50))} ms, p99 ${fixed(percentile(times, 99))} ms`);
  }

  // Where a query's time goes: each set's first 20 queries again through a connection whose
  // commands are watched — round trips, the bytes they return, their time as the driver saw it.
  const watched: Database = await connectDatabase(db.uri, db.dbName, { appName: "atelier-bench-profile", monitorCommands: true });
  const prof = { commands: 0, bytes: 0, ms: 0 };
  watched.client.on("commandStarted", () => prof.commands++);
  watched.client.on("commandSucceeded", (e) => {
    prof.ms += e.duration;
    prof.bytes += JSON.stringify(e.reply).length; // about the BSON size
  });
  const profiles: SearchBenchResult["profiles"] = [];
  for (const set of sets) {
    const qs = set.queries.slice(0, 20);
    await run(at(qs, 0), { ...deps, database: watched });
    Object.assign(prof, { commands: 0, bytes: 0, ms: 0 });
    const s = performance.now();
    for (const q of qs) await run(q, { ...deps, database: watched });
    const wall = performance.now() - s;
    profiles.push({
      name: set.name,
      commands: prof.commands / qs.length,
      kb: prof.bytes / 1024 / qs.length,
      dbMs: prof.ms / qs.length,
      wallMs: wall / qs.length,
    });
  }
  await watched.client.close();

  // The old search_pages: a regex over every page's title, summary and text.
  const regexTimes: number[] = [];
  let regexHits = 0;
  for (const q of at(sets, 0).queries.slice(0, 3)) {
    const s = performance.now();
    const re = { $regex: q, $options: "i" };
    regexHits += (
      await database.c.pages
        .find({ workspaceId: { $in: [ws._id] }, $or: [{ title: re }, { summary: re }, { "parts.body": re }] })
        .sort({ slug: 1 })
        .limit(20)
        .toArray()
    ).length;
    regexTimes.push(performance.now() - s);
  }
  const regexBaseline = {
    name: "old regex scan (one word)",
    runs: regexTimes.length,
    p50: percentile(regexTimes, 50),
    p99: percentile(regexTimes, 99),
    meanHits: regexHits / 3,
  };

  // What the database does with each read of a search.
  const word = at(at(sets, 0).queries, 0);
  const plans = [];
  for (const [read, cursor] of [
    ["searchTerms by _id (a term's head)", database.c.searchTerms.find({ _id: headDocId(ws._id, word) })],
    ["searchTerms by _id (a band of its postings)", database.c.searchTerms.find({ _id: bandDocId(ws._id, word, 64) })],
    ["pages by _id (the result)", database.c.pages.find({ _id: at(ids, 0) })],
  ] as const) {
    // Twice: the first explain on a pooled connection may plan without a fresh index (docs/performance.md).
    await cursor.clone().explain();
    const s = summarizeExplain((await cursor.explain()) as Record<string, unknown>);
    plans.push({ read, plan: s.plan, indexesUsed: s.indexesUsed });
  }

  // The judged sets: for 50 pages spread over the store, a query of words of their title and
  // text as someone who remembers the page would type it; the page should be in the top 3.
  // `mixed` (the first set): half two title words, half one title word and one word of the
  // rarer two thirds of the list. At 100,000 pages that second half does not single its page
  // out: such a word is in thousands of pages, a title word in the titles of ~180, so about
  // ten pages hold both as the expected one does (docs/performance.md). `distinct`: half two
  // title words, half one title word and the two rarest words of the page's text, which
  // together name one page, as a person recalling a page types the words that set it apart.
  const cumAgain = zipf(WORDS.length);
  const rank = new Map(WORDS.map((w, i) => [w, i]));
  const judged = 50;
  const judgedSets: Record<"mixed" | "distinct", { top1: number; top3: number }> = { mixed: { top1: 0, top3: 0 }, distinct: { top1: 0, top3: 0 } };
  const jr = prng(7);
  for (let j = 0; j < judged; j++) {
    const n = Math.floor((j + 0.5) * (opts.pages / judged));
    const { title, body } = pageText(n, cumAgain);
    const tw = title.split(" ");
    const bodyWords = body.toLowerCase().match(/[a-z]+/g) ?? [];
    // The two title words of even queries draw nothing, so the mixed set's odd queries draw as the first set's did.
    const queries = { mixed: tw.slice(0, 2).join(" "), distinct: tw.slice(0, 2).join(" ") };
    if (j % 2 === 1) {
      const titleWord = tw[Math.floor(jr() * tw.length)];
      const rareBody = bodyWords.filter((w) => (rank.get(w) ?? 0) > WORDS.length / 3);
      const rarest = [...new Set(bodyWords)].filter((w) => !tw.includes(w)).sort((a, b) => (rank.get(b) ?? 0) - (rank.get(a) ?? 0));
      queries.mixed = `${titleWord} ${rareBody[Math.floor(jr() * rareBody.length)] ?? tw[0]}`;
      queries.distinct = [titleWord, ...rarest.slice(0, 2)].join(" ");
    }
    for (const set of ["mixed", "distinct"] as const) {
      const found = (await run(queries[set])).map((p) => p.slug);
      if (found[0] === `p-${n}`) judgedSets[set].top1++;
      if (found.slice(0, 3).includes(`p-${n}`)) judgedSets[set].top3++;
    }
  }
  const { top1, top3 } = judgedSets.mixed;
  log(`judged (distinct): ${judgedSets.distinct.top3}/${judged} in the top 3 (${judgedSets.distinct.top1} first)`);
  log(`judged (mixed): ${top3}/${judged} in the top 3 (${top1} first)`);

  // The early stop checked against reading every band: the 20 commonest words and 40 three-word
  // queries ranked both ways (the same pages, in the same order?).
  let sameSet = 0;
  let sameOrder = 0;
  const compared = [...at(sets, 1).queries.slice(0, 20), ...at(sets, 2).queries.slice(0, 40)];
  for (const q of compared) {
    const fast = (await run(q)).map((p) => p.page_id);
    const full = await exhaustive(database, ws._id, opts.pages + 1, q, 20);
    if (JSON.stringify(fast) === JSON.stringify(full)) sameOrder++;
    else
      log(
        `  differs: "${q}": ${fast.filter((id) => !full.includes(id)).length} of ${fast.length} not in the full ranking's ${full.length}; first difference at ${fast.findIndex((id, i) => full[i] !== id)}`,
      );
    if (JSON.stringify([...fast].sort()) === JSON.stringify([...full].sort())) sameSet++;
  }
  const exact = { queries: compared.length, sameSet, sameOrder };
  log(`against every band read: ${sameSet}/${compared.length} the same pages, ${sameOrder} in the same order`);

  log("the same queries through a second connection…");
  // A second process: its own connection, same database.
  const other: Database = await connectDatabase(db.uri, db.dbName, { appName: "atelier-bench-2" });
  let identical = true;
  for (const q of [...at(sets, 0).queries.slice(0, 20), ...at(sets, 2).queries.slice(0, 20)]) {
    const a = (await run(q)).map((p) => p.slug);
    const b = (await run(q, { ...deps, database: other })).map((p) => p.slug);
    if (JSON.stringify(a) !== JSON.stringify(b)) identical = false;
  }
  await other.client.close();

  const postingsDocs = await database.c.searchTerms.countDocuments({});
  log("the index's cost on a write…");
  // Bounded: on a loaded machine this step was once seen to stall the embedded database (not
  // yet understood); the rest of the run is reported either way.
  const writeCost = await Promise.race([
    measureWriteCost(deps, principal, ws, cum, opts.pages),
    new Promise<null>((r) => setTimeout(() => r(null), 120_000).unref()),
  ]);
  if (!writeCost) log("the write-cost step did not finish in 120 s");

  return {
    pages: opts.pages,
    words: WORDS.length,
    seedSeconds,
    indexSeconds,
    postingsDocs,
    postings,
    largestPostings: largest,
    largestDocument: largestDoc,
    latencies,
    profiles,
    regexBaseline,
    plans,
    judged: { queries: judged, top1, top3 },
    judgedDistinct: { queries: judged, ...judgedSets.distinct },
    exact,
    identicalAcrossProcesses: identical,
    writeCost,
  };
}

/** The best `limit` pages for `query` by the ranking of search-query.ts, every band of every term read (no early stop). */
async function exhaustive(database: Database, wsId: string, total: number, query: string, limit: number): Promise<string[]> {
  const terms = queryTerms(query);
  const score = new Map<string, Map<string, number>>();
  for (const term of terms) {
    const head = await database.c.searchTerms.findOne({ _id: headDocId(wsId, term) });
    const n = Math.max(0, head?.n ?? 0);
    const idf = Math.log(1 + (Math.max(total, n) - n + 0.5) / (n + 0.5));
    for (const b of Object.keys(head?.c ?? {})) {
      const band = Number(b.slice(1));
      const docs = await Promise.all(bandDocIds(wsId, term, band, fanOutOf(head, band)).map((id) => database.c.searchTerms.findOne({ _id: id })));
      for (const [key, w] of docs.flatMap((d) => Object.entries(d?.p ?? {}))) {
        let m = score.get(key);
        if (!m) score.set(key, (m = new Map()));
        m.set(term, Math.max(m.get(term) ?? 0, (w * idf) / WEIGHT_SCALE));
      }
    }
  }
  return [...score.entries()]
    .map(([key, m]) => {
      let sum = 0;
      for (const v of m.values()) sum += v;
      return { id: `${wsId}:${key}`, key, score: sum * (0.5 + (0.5 * m.size) / terms.length) };
    })
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, limit)
    .map((c) => keyTarget(c.key).id);
}

/** What the index adds to a write: indexing a new page, then an edit of one word (as the finishing step does). */
async function measureWriteCost(
  deps: { database: Database; config: ReturnType<typeof configFor>; cache: typeof NO_CACHE },
  principal: { kind: "user"; user: UserDoc },
  ws: { _id: string; slug: string },
  cum: number[],
  pages: number,
): Promise<{ newPageMs: number; oneWordEditMs: number; postingsWrittenForEdit: number }> {
  const { database } = deps;
  const fresh = pageText(pages + 1, cum);
  await createPage(deps, principal, { slug: "fresh", title: fresh.title, body_markdown: fresh.body, workspace: ws.slug });
  const page = (await database.c.pages.findOne({ slug: "fresh" })) as PageDoc;
  await database.c.searchDocs.deleteOne({ _id: forwardDocId(ws._id, searchKey("page", page._id)) });
  let s = performance.now();
  await indexPage(deps, page);
  const newPageMs = performance.now() - s;
  const edited = { ...page, version: page.version + 1, parts: [{ ...at(page.parts, 0), body: `${at(page.parts, 0).body} zeppelin` }] };
  await database.c.pages.updateOne({ _id: page._id }, { $set: { version: edited.version, parts: edited.parts } });
  const before = pageWeights(page);
  const after = pageWeights(edited);
  const changed = Object.keys(after).filter((t) => before[t] !== after[t]).length + Object.keys(before).filter((t) => !(t in after)).length;
  s = performance.now();
  await indexPage(deps, edited);
  return { newPageMs, oneWordEditMs: performance.now() - s, postingsWrittenForEdit: changed };
}

export function formatSearch(r: SearchBenchResult): string {
  const lines = [
    `search over ${r.pages} pages of 2–8 KB (${r.words}-word list, Zipf, fixed seed); ${r.postings} postings in ${r.postingsDocs} term documents (longest: ${r.largestPostings} pages; largest document ${r.largestDocument} postings)`,
    `seeding ${fixed(r.seedSeconds, 1)} s, index ${fixed(r.indexSeconds, 1)} s`,
    "",
    table(
      ["searchPages, 1 connection", "runs", "p50 ms", "p99 ms", "results"],
      [...r.latencies, r.regexBaseline].map((l) => [l.name, l.runs, fixed(l.p50), fixed(l.p99), fixed(l.meanHits, 1)]),
    ),
    "",
    table(
      ["per query (20 of each set, watched)", "round trips", "KB read (as JSON)", "commands ms (summed)", "wall ms"],
      r.profiles.map((p) => [p.name, fixed(p.commands, 1), fixed(p.kb, 0), fixed(p.dbMs, 1), fixed(p.wallMs, 1)]),
    ),
    "",
    table(
      ["read", "plan", "indexes"],
      r.plans.map((p) => [p.read, p.plan, p.indexesUsed.join(", ") || "-"]),
    ),
    "",
    `judged set (mixed, the first): ${r.judged.top3}/${r.judged.queries} with the expected page in the top 3 (${r.judged.top1} first)`,
    `judged set (distinct words): ${r.judgedDistinct.top3}/${r.judgedDistinct.queries} with the expected page in the top 3 (${r.judgedDistinct.top1} first)`,
    `early stop against every band read: ${r.exact.sameSet}/${r.exact.queries} the same pages, ${r.exact.sameOrder}/${r.exact.queries} in the same order`,
    `two connections: ${r.identicalAcrossProcesses ? "identical results" : "RESULTS DIFFER"}`,
    r.writeCost
      ? `index cost of a write: new page ${fixed(r.writeCost.newPageMs)} ms; one-word edit ${fixed(r.writeCost.oneWordEditMs)} ms (${r.writeCost.postingsWrittenForEdit} postings written)`
      : "index cost of a write: did not finish within 120 s",
  ];
  return lines.join("\n");
}
