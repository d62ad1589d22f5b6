// Issue 14 (item 3) and 15: which store the embedded FerretDB should run on, measured side by
// side in one run. Four configurations: FerretDB 1.24 on SQLite and on PostgreSQL (Debian's,
// a throw-away cluster in a temp dir, socket only), each without and with the lookup
// indexes our wrapper can add (shared/embedded-db/ferretdb/lookup_indexes.go). For each:
//   - correctness with the wrapper's write-serialising front off (and on, as the control):
//     parallel $inc on one document, parallel compare-and-swap, parallel inserts of one
//     unique key, and {"arr.k": {$ne: x}} against an array of subdocuments holding x;
//   - point lookups by _id and by a unique field, with N documents of ~2 KB and of ~12 KB
//     (a rendered page), p50/p99 and the database's CPU per lookup;
//   - a single-document update by _id (same N), inserts, and reading a whole collection of
//     10,000 small documents (table rows);
//   - FerretDB's explain of the lookups: what the backend ran, and whether an index served it.
// Everything goes through the real driver to the same wrapper binary `pnpm dev` starts.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { connectDatabase, type Database } from "@atelier/shared/db";
import { findPostgresBin, startEmbeddedDb, type EmbeddedDb, type EmbeddedDbBackend } from "@atelier/shared/devtools/embedded-db";
import { makeWorkDir, onCleanup } from "./lib/cleanup";
import { cpuPercent, snapshot, type CpuTarget } from "./lib/cpu";
import { summarizeExplain, type Document } from "./lib/explain";
import { fixed, table } from "./lib/format";
import { median } from "./lib/measure";
import { shareAutogroupPriority } from "./lib/service";

type Db = Database["db"];

export interface StorageOptions {
  /** Collection sizes for lookups and updates, smallest first (default 100, 10,000, 100,000). */
  docCounts: number[];
  backends: EmbeddedDbBackend[];
  /** Time spent on each lookup case (at least MIN_SAMPLES operations, at most MAX_SAMPLES). */
  caseMs: number;
  /** Rounds of each concurrency check. */
  rounds: number;
  log: (line: string) => void;
}

interface Config {
  backend: EmbeddedDbBackend;
  lookupIndexes: boolean;
}
const label = (c: Config) => `${c.backend === "sqlite" ? "SQLite" : "PostgreSQL"}${c.lookupIndexes ? " + lookup indexes" : ""}`;

export interface CorrectnessResult {
  config: string;
  serializeWrites: boolean;
  /** final value after 50 parallel $inc, per round (MongoDB: 50) */
  incTotals: number[];
  /** updates that matched {_id, version: 0} among 20 parallel ones, per round (MongoDB: 1) */
  casWinners: number[];
  /** inserts of one unique key accepted among 20 parallel ones, per round (MongoDB: 1) */
  uniqueInserted: number[];
  /** documents stored with that key afterwards, per round (MongoDB: 1) */
  uniqueStored: number[];
  /** _ids matched by {"arr.k": {$ne: "x"}} (MongoDB: only "without-x") */
  neMatches: string[];
}

export interface OpStats {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU of FerretDB plus PostgreSQL's processes, per operation */
  dbCpuMs: number | null;
}

export interface LookupResult extends OpStats {
  config: string;
  docBytes: number;
  docs: number;
  by: "_id" | "slug";
}

export interface UpdateResult extends OpStats {
  config: string;
  docs: number;
}

export interface InsertResult {
  config: string;
  /** one insertOne after another, 2 KB documents */
  insertOnePerSecond: number;
  insertOneP50Ms: number;
  /** insertMany of 100 documents of 2 KB at a time */
  insertManyDocsPerSecond: number;
}

export interface ScanResult {
  config: string;
  docs: number;
  runs: number;
  medianMs: number;
  docsPerSecond: number;
  dbCpuMs: number | null;
}

export interface ExplainResult {
  config: string;
  docs: number;
  query: string;
  plan: string;
  indexesUsed: string[];
}

export interface SeedResult {
  backend: string;
  docBytes: number;
  docs: number;
  seconds: number;
  docsPerSecond: number;
  /** starting the wrapper with lookup indexes on, which builds them for what is stored */
  indexBuildSeconds?: number;
}

export interface StorageResult {
  versions: Record<string, string>;
  correctness: CorrectnessResult[];
  lookups: LookupResult[];
  updates: UpdateResult[];
  inserts: InsertResult[];
  scans: ScanResult[];
  explains: ExplainResult[];
  seeding: SeedResult[];
  skipped: string[];
}

const MIN_SAMPLES = 3;
const MAX_SAMPLES = 400;
const KINDS = [
  { bytes: 2_000, coll: "docs2k", batch: 1_000 },
  { bytes: 12_000, coll: "docs12k", batch: 250 },
] as const;
const SCAN_DOCS = 10_000;

// ---- data: deterministic, text-like (so PostgreSQL's compression sees what real pages give it)

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  "the of and to in is that for it as with was on be by this are or from at which an have not but they all were we when your can there use each one how said about many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come made may part page table render version owner agent workspace publish".split(
    " ",
  );

function text(rand: () => number, bytes: number): string {
  const out: string[] = [];
  let n = 0;
  while (n < bytes) {
    const w = WORDS[Math.floor(rand() * WORDS.length)] ?? "x";
    out.push(w);
    n += w.length + 1;
  }
  return out.join(" ").slice(0, bytes);
}

const idOf = (coll: string, i: number) => `${coll}-${(Math.imul(i + 1, 2654435761) >>> 0).toString(16).padStart(8, "0")}-${i}`;
const slugOf = (coll: string, i: number) => `s-${idOf(coll, i)}`;

/** A page-like document of about `bytes`: the Markdown and its HTML share the bulk. */
function pageDoc(coll: string, i: number, bytes: number): Document {
  const rand = prng(i * 7919 + bytes);
  const body = Math.max(0, bytes - 300);
  return {
    _id: idOf(coll, i),
    slug: slugOf(coll, i),
    workspaceId: `w-${i % 50}`,
    title: text(rand, 40),
    version: 1,
    markdown: text(rand, Math.floor(body * 0.4)),
    html: `<p>${text(rand, Math.floor(body * 0.6) - 7)}</p>`,
    n: 0,
    createdAt: new Date(1_700_000_000_000 + i * 1000),
  };
}

/** A table row of about 200 bytes, as list_rows stores them. */
function rowDoc(i: number): Document {
  const rand = prng(i);
  return {
    _id: `row-${i}`,
    collectionId: "tbl-1",
    values: { title: text(rand, 40), status: ["todo", "doing", "done"][i % 3], score: Math.floor(rand() * 100), owner: "ana", notes: text(rand, 40) },
    version: 1,
    createdAt: new Date(1_700_000_000_000 + i),
  };
}

// ---- measuring

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

const r2 = (n: number) => Math.round(n * 100) / 100;

function cpuTargets(db: EmbeddedDb): Record<string, CpuTarget> {
  const t: Record<string, CpuTarget> = {};
  if (db.pid !== undefined) t.ferretdb = { pid: db.pid };
  if (db.postgresPid !== undefined) t.postgres = { tree: db.postgresPid };
  return t;
}

/** Runs `op` one after another for about `ms` (MIN_SAMPLES..MAX_SAMPLES times) after one warm-up, and takes the database's CPU meanwhile. */
async function sample(db: EmbeddedDb, ms: number, op: (i: number) => Promise<void>): Promise<OpStats> {
  const warm = performance.now();
  await op(-1);
  // An operation that scans for seconds is measured twice, not three times: the run stays short.
  const min = performance.now() - warm > 2_000 ? 2 : MIN_SAMPLES;
  const targets = cpuTargets(db);
  const a = snapshot(targets);
  const times: number[] = [];
  const began = performance.now();
  while (times.length < MAX_SAMPLES && (times.length < min || performance.now() - began < ms)) {
    const s = performance.now();
    await op(times.length);
    times.push(performance.now() - s);
  }
  const seconds = (performance.now() - began) / 1000;
  const pct = cpuPercent(a, snapshot(targets));
  const dbPct = pct ? Object.keys(targets).reduce((n, k) => n + (pct[k] ?? 0), 0) : null;
  times.sort((x, y) => x - y);
  return {
    samples: times.length,
    p50Ms: r2(median(times)),
    p99Ms: r2(percentile(times, 99)),
    dbCpuMs: dbPct === null ? null : r2(((dbPct / 100) * seconds * 1000) / times.length),
  };
}

async function start(
  dataDir: string,
  config: Config,
  serializeWrites: boolean,
  log: (l: string) => void,
): Promise<{ db: EmbeddedDb; client: Database["client"]; seconds: number }> {
  const began = performance.now();
  const db = await startEmbeddedDb({ dataDir, backend: config.backend, lookupIndexes: config.lookupIndexes, serializeWrites, log: () => {} });
  const seconds = (performance.now() - began) / 1000;
  onCleanup(`database (${label(config)})`, () => db.stop());
  if (db.postgresPid !== undefined) shareAutogroupPriority(db.postgresPid);
  // The app's own database and indexes, as `pnpm dev` has them; the bench works in "storage".
  const database = await connectDatabase(db.uri, "atelier", { appName: "atelier-bench-storage", serverSelectionTimeoutMS: 30_000 });
  onCleanup("database connection", () => database.client.close());
  log(`${label(config)}${serializeWrites ? "" : ", writes not serialised"}: up in ${seconds.toFixed(1)} s`);
  return { db, client: database.client, seconds };
}

async function stop(handle: { db: EmbeddedDb; client: Database["client"] }): Promise<void> {
  await handle.client.close();
  await handle.db.stop();
}

// ---- correctness

async function correctness(db: Db, rounds: number): Promise<Omit<CorrectnessResult, "config" | "serializeWrites">> {
  const out = {
    incTotals: [] as number[],
    casWinners: [] as number[],
    uniqueInserted: [] as number[],
    uniqueStored: [] as number[],
    neMatches: [] as string[],
  };
  for (let r = 0; r < rounds; r++) {
    const c = db.collection<{ _id: string; n: number }>(`counters_${r}`);
    await c.insertOne({ _id: "c", n: 0 });
    await Promise.all(Array.from({ length: 50 }, () => c.updateOne({ _id: "c" }, { $inc: { n: 1 } })));
    out.incTotals.push(Number((await c.findOne({ _id: "c" }))?.n));

    const v = db.collection<Document & { _id: string }>(`cas_${r}`);
    await v.insertOne({ _id: "doc", version: 0 });
    const cas = await Promise.all(Array.from({ length: 20 }, (_, i) => v.updateOne({ _id: "doc", version: 0 }, { $set: { version: 1, by: i } })));
    out.casWinners.push(cas.filter((x) => x.modifiedCount === 1).length);

    const u = db.collection(`unique_${r}`);
    await u.createIndex({ key: 1 }, { unique: true, name: "key_unique" });
    const ins = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => u.insertOne({ key: "k", i })));
    out.uniqueInserted.push(ins.filter((x) => x.status === "fulfilled").length);
    out.uniqueStored.push(await u.countDocuments({ key: "k" }));
  }
  const ne = db.collection<Document & { _id: string }>("ne");
  await ne.insertMany([
    { _id: "with-x", arr: [{ k: "x" }, { k: "y" }] },
    { _id: "without-x", arr: [{ k: "y" }] },
  ]);
  out.neMatches = (await ne.find({ "arr.k": { $ne: "x" } }).toArray()).map((d) => d._id).sort();
  return out;
}

// ---- the run

async function seed(db: Db, coll: string, bytes: number, from: number, to: number, batch: number): Promise<void> {
  const c = db.collection(coll);
  if (from === 0) await c.createIndex({ slug: 1 }, { unique: true, name: "slug_unique" });
  for (let i = from; i < to; i += batch) {
    const docs = [];
    for (let j = i; j < Math.min(to, i + batch); j++) docs.push(pageDoc(coll, j, bytes));
    await c.insertMany(docs);
  }
}

function postgresVersion(): string | null {
  const bin = findPostgresBin();
  if (!bin) return null;
  try {
    return execFileSync(path.join(bin, "postgres"), ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}

export async function storageBench(opts: StorageOptions): Promise<StorageResult> {
  const { log } = opts;
  const result: StorageResult = { versions: {}, correctness: [], lookups: [], updates: [], inserts: [], scans: [], explains: [], seeding: [], skipped: [] };
  const work = makeWorkDir(log);
  const pg = postgresVersion();
  if (pg) result.versions.postgresql = pg;
  const backends = opts.backends.filter((b) => {
    if (b === "postgresql" && !pg) {
      result.skipped.push("postgresql: not installed (apt-get install -y postgresql)");
      log("PostgreSQL is not installed: measuring SQLite only (apt-get install -y postgresql)");
      return false;
    }
    return true;
  });

  for (const backend of backends) {
    const plain: Config = { backend, lookupIndexes: false };
    const indexed: Config = { backend, lookupIndexes: true };

    // Correctness: a fresh store, every combination of indexes and the write front.
    for (const config of [plain, indexed]) {
      for (const serializeWrites of [false, true]) {
        const h = await start(path.join(work, `${backend}-correctness`), config, serializeWrites, log);
        const dbName = `correct_${config.lookupIndexes ? "idx" : "plain"}_${serializeWrites ? "front" : "nofront"}`;
        const r = await correctness(h.client.db(dbName), opts.rounds);
        result.correctness.push({ config: label(config), serializeWrites, ...r });
        log(
          `  $inc ${r.incTotals.join("/")} of 50; CAS winners ${r.casWinners.join("/")}; unique inserts ${r.uniqueInserted.join("/")}; $ne matched [${r.neMatches.join(", ")}]`,
        );
        if (config === plain && serializeWrites) {
          const v = (await h.client
            .db("admin")
            .command({ buildInfo: 1 })
            .catch(() => ({}))) as Document;
          // The embeddable package reports "unknown" (no git checkout); go.mod pins 1.24.2.
          result.versions.ferretdb = typeof v.ferretdbVersion === "string" && v.ferretdbVersion !== "unknown" ? v.ferretdbVersion : "1.24.2";
          if (typeof v.version === "string") result.versions.mongodbCompat = v.version;
        }
        await stop(h);
      }
    }

    // Speed: one store that grows; each size measured without, then with, the lookup indexes.
    const dir = path.join(work, backend);
    let have = 0;
    for (const docs of opts.docCounts) {
      let h = await start(dir, plain, true, log);
      let db = h.client.db("storage");
      for (const kind of KINDS) {
        const began = performance.now();
        await seed(db, kind.coll, kind.bytes, have, docs, kind.batch);
        const seconds = (performance.now() - began) / 1000;
        result.seeding.push({ backend, docBytes: kind.bytes, docs: docs - have, seconds: r2(seconds), docsPerSecond: Math.round((docs - have) / seconds) });
        log(`  seeded ${docs - have} documents of ${kind.bytes} bytes in ${seconds.toFixed(1)} s`);
      }
      if (have === 0) {
        const rows = db.collection("rows");
        for (let i = 0; i < SCAN_DOCS; i += 1_000) await rows.insertMany(Array.from({ length: 1_000 }, (_, j) => rowDoc(i + j)));
      }
      for (const config of [plain, indexed]) {
        if (config === indexed) {
          await stop(h);
          h = await start(dir, indexed, true, log);
          db = h.client.db("storage");
          const s = result.seeding.at(-1);
          if (s) s.indexBuildSeconds = r2(h.seconds);
        }
        await measure(db, h.db, config, docs, have === 0, opts, result);
      }
      await stop(h);
      have = docs;
    }
  }
  return result;
}

async function measure(db: Db, edb: EmbeddedDb, config: Config, docs: number, first: boolean, opts: StorageOptions, result: StorageResult): Promise<void> {
  const name = label(config);
  const rand = prng(docs);
  const pick = () => Math.floor(rand() * docs);
  for (const kind of KINDS) {
    const c = db.collection<Document & { _id: string }>(kind.coll);
    for (const by of ["_id", "slug"] as const) {
      const stats = await sample(edb, opts.caseMs, async () => {
        const i = pick();
        const doc = await c.findOne(by === "_id" ? { _id: idOf(kind.coll, i) } : { slug: slugOf(kind.coll, i) });
        if (doc?._id !== idOf(kind.coll, i)) throw new Error(`${name}: lookup of document ${i} by ${by} found ${String(doc?._id)}`);
      });
      result.lookups.push({ config: name, docBytes: kind.bytes, docs, by, ...stats });
      opts.log(
        `  findOne by ${by}, ${docs} × ${kind.bytes} B: p50 ${stats.p50Ms} ms, p99 ${stats.p99Ms} ms, db CPU ${stats.dbCpuMs} ms/op (${stats.samples} ops)`,
      );
    }
  }
  {
    const c = db.collection<{ _id: string; n: number }>("docs2k");
    const stats = await sample(edb, opts.caseMs, async () => {
      const r = await c.updateOne({ _id: idOf("docs2k", pick()) }, { $inc: { n: 1 } });
      if (r.modifiedCount !== 1) throw new Error(`${name}: update by _id modified ${r.modifiedCount}`);
    });
    result.updates.push({ config: name, docs, ...stats });
    opts.log(`  updateOne by _id, ${docs} × 2000 B: p50 ${stats.p50Ms} ms, p99 ${stats.p99Ms} ms`);
  }
  {
    for (const [query, filter] of [
      ["find {_id}", { _id: idOf("docs2k", 1) }],
      ["find {slug}", { slug: slugOf("docs2k", 1) }],
    ] as const) {
      const e = summarizeExplain((await db.command({ explain: { find: "docs2k", filter }, verbosity: "queryPlanner" })) as Document);
      const pgPlan = pgPlanSummary(e.raw);
      result.explains.push({ config: name, docs, query, plan: pgPlan ?? e.plan, indexesUsed: pgPlan ? pgIndexes(e.raw) : e.indexesUsed });
    }
  }
  if (first) {
    // Inserts into a collection of their own with a unique field, as the app's collections have.
    const c = db.collection(`inserts_${config.lookupIndexes ? "idx" : "plain"}`);
    await c.createIndex({ slug: 1 }, { unique: true, name: "slug_unique" });
    let n = 0;
    const one = await sample(edb, opts.caseMs, async () => {
      await c.insertOne(pageDoc("ins", n++, 2_000));
    });
    const manyStart = performance.now();
    let many = 0;
    while (many < 500 || performance.now() - manyStart < opts.caseMs) {
      await c.insertMany(Array.from({ length: 100 }, () => pageDoc("ins", n++, 2_000)));
      many += 100;
    }
    const manySeconds = (performance.now() - manyStart) / 1000;
    result.inserts.push({
      config: name,
      insertOnePerSecond: Math.round(1000 / one.p50Ms),
      insertOneP50Ms: one.p50Ms,
      insertManyDocsPerSecond: Math.round(many / manySeconds),
    });
    await c.drop();

    const rows = db.collection("rows");
    const stats = await sample(edb, opts.caseMs, async () => {
      const all = await rows.find({}).toArray();
      if (all.length !== SCAN_DOCS) throw new Error(`${name}: read ${all.length} rows`);
    });
    result.scans.push({
      config: name,
      docs: SCAN_DOCS,
      runs: stats.samples,
      medianMs: stats.p50Ms,
      docsPerSecond: Math.round(SCAN_DOCS / (stats.p50Ms / 1000)),
      dbCpuMs: stats.dbCpuMs,
    });
    opts.log(`  read all ${SCAN_DOCS} rows: ${stats.p50Ms} ms`);
  }
}

/** PostgreSQL's EXPLAIN (FORMAT JSON) as FerretDB returns it: node types, outermost first. */
function pgPlanSummary(raw: Document): string | null {
  const plan = (raw.queryPlanner as Document | undefined)?.Plan;
  if (!plan || Array.isArray(plan) || typeof plan !== "object") return null;
  const parts: string[] = [];
  const walk = (p: Document) => {
    parts.push(`${String(p["Node Type"])}${p["Index Name"] ? ` ${String(p["Index Name"])}` : ""}`);
    for (const child of (p.Plans as Document[] | undefined) ?? []) walk(child);
  };
  walk(plan as Document);
  const cond = (plan as Document)["Recheck Cond"] ?? (plan as Document).Filter;
  return `filterPushdown: ${String(raw.filterPushdown)}; PostgreSQL: ${parts.join(" > ")}${cond ? ` (${String(cond)})` : ""}`;
}

function pgIndexes(raw: Document): string[] {
  return [...JSON.stringify(raw).matchAll(/"Index Name":"([^"]+)"/g)].map((m) => m[1] ?? "");
}

// ---- output

const CONFIG_ORDER = ["SQLite", "SQLite + lookup indexes", "PostgreSQL", "PostgreSQL + lookup indexes"];
const ok = (xs: number[], want: number) => `${xs.join("/")}${xs.every((x) => x === want) ? "" : " ✗"}`;

export function formatStorage(r: StorageResult): string {
  const configs = CONFIG_ORDER.filter((c) => r.lookups.some((l) => l.config === c));
  const out: string[] = [`Storage: FerretDB ${r.versions.ferretdb ?? "1.24"} on SQLite and on ${r.versions.postgresql ?? "PostgreSQL"}`];
  if (r.skipped.length > 0) out.push(`skipped: ${r.skipped.join("; ")}`);

  out.push("", "Correctness (rounds separated by /; ✗ = differs from MongoDB)");
  out.push(
    table(
      ["configuration", "write front", "50 × $inc → 50", "20 × CAS → 1 winner", "20 × unique insert → 1", '{"arr.k": {$ne: "x"}} → [without-x]'],
      r.correctness.map((c) => [
        c.config,
        c.serializeWrites ? "on" : "off",
        ok(c.incTotals, 50),
        ok(c.casWinners, 1),
        `${ok(c.uniqueInserted, 1)} (stored ${c.uniqueStored.join("/")})`,
        `[${c.neMatches.join(", ")}]${c.neMatches.join() === "without-x" ? "" : " ✗"}`,
      ]),
    ),
  );

  out.push("", "Point lookups (findOne), p50 / p99 ms, database CPU ms per lookup");
  const sizes = [...new Set(r.lookups.map((l) => `${l.docs}|${l.docBytes}|${l.by}`))];
  out.push(
    table(
      ["docs", "size", "by", ...configs],
      sizes.map((k) => {
        const [docs, bytes, by] = k.split("|");
        return [
          Number(docs).toLocaleString("en"),
          `${Number(bytes) / 1000} KB`,
          by ?? "",
          ...configs.map((c) => {
            const l = r.lookups.find((x) => x.config === c && `${x.docs}|${x.docBytes}|${x.by}` === k);
            return l ? `${fixed(l.p50Ms)} / ${fixed(l.p99Ms)} (${fixed(l.dbCpuMs ?? undefined)})` : "-";
          }),
        ];
      }),
    ),
  );

  out.push("", "updateOne({_id}, {$inc}) on the 2 KB collection, p50 / p99 ms (database CPU ms)");
  out.push(
    table(
      ["docs", ...configs],
      [...new Set(r.updates.map((u) => u.docs))].map((d) => [
        d.toLocaleString("en"),
        ...configs.map((c) => {
          const u = r.updates.find((x) => x.config === c && x.docs === d);
          return u ? `${fixed(u.p50Ms)} / ${fixed(u.p99Ms)} (${fixed(u.dbCpuMs ?? undefined)})` : "-";
        }),
      ]),
    ),
  );

  out.push("", "Inserts (2 KB documents, unique slug index) and reading 10,000 rows of 200 B");
  out.push(
    table(
      ["configuration", "insertOne/s", "insertMany docs/s", "read all rows ms", "rows/s", "db CPU ms"],
      configs.map((c) => {
        const i = r.inserts.find((x) => x.config === c);
        const s = r.scans.find((x) => x.config === c);
        return [
          c,
          i?.insertOnePerSecond ?? "-",
          i?.insertManyDocsPerSecond ?? "-",
          fixed(s?.medianMs),
          s?.docsPerSecond ?? "-",
          fixed(s?.dbCpuMs ?? undefined),
        ];
      }),
    ),
  );

  out.push("", "Seeding (insertMany, no lookup indexes) and building the lookup indexes at start");
  out.push(
    table(
      ["backend", "doc size", "docs added", "s", "docs/s", "start with indexes s"],
      r.seeding.map((s) => [s.backend, s.docBytes, s.docs, fixed(s.seconds, 1), s.docsPerSecond, fixed(s.indexBuildSeconds, 1)]),
    ),
  );

  out.push("", "What the backend runs (FerretDB's explain)");
  for (const e of r.explains) out.push(`  ${e.config}, ${e.docs.toLocaleString("en")} docs, ${e.query}: ${e.plan}`);
  return out.join("\n");
}
