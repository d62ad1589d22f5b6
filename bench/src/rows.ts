// Issue 8: the list_rows benchmark. A table of 10,000 rows (text, number, select, date,
// url columns) seeded through the shared domain in batches of 500; `tools/call list_rows`
// through the real sidecar with a filter and without one, at 1 and 50 connections; paging
// through every matching row with cursors; the same queries straight from the driver; and
// the database's own account of how it runs them (explain, the indexes it has).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { NO_CACHE } from "@atelier/shared/domain/cache";
import { createCollection } from "@atelier/shared/domain/tables/create-collection";
import { insertRows } from "@atelier/shared/domain/tables/insert-rows";
import { freePort } from "@atelier/shared/devtools/embedded-db";
import { configFor, ensureServerBuild, serverEnv, startDatabase, startServer, type ServerBuild } from "./lib/atelier";
import { makeWorkDir } from "./lib/cleanup";
import { backgroundCpu, type CpuTarget } from "./lib/cpu";
import { formatProfileSummary } from "./lib/cpuprofile";
import { fixed, table } from "./lib/format";
import { MCP_ERROR_MARKERS, mcpRequest, postMcp, seedAgent, toolCall, toolResult } from "./lib/mcp";
import { summarizeExplain, timeQuery, type Document, type ExplainSummary } from "./lib/explain";
import { cpuPercentOf, cpuPerRequest, measureCase, median, NOISE_THRESHOLD, type MeasuredCase } from "./lib/measure";
import { profileUnderLoad, type ProfiledRun } from "./lib/profile";
import { wrkVersion } from "./lib/wrk";

const TABLE = "tasks";
const BATCH = 500;
const STATUSES = ["todo", "doing", "review", "done"] as const;
const OWNERS = ["ana", "ben", "chen", "dara", "eli", "fay"] as const;

/** The filtered query of the issue: open work worth doing first. */
const FILTER = { status: "todo", score: { gte: 50 } };
const SORT = { column: "score", direction: "desc" } as const;

export type RowsCaseName = "filtered" | "sorted" | "unfiltered";
const CASES: Record<RowsCaseName, { label: string; args: Record<string, unknown> }> = {
  filtered: { label: "filter status=todo, score≥50; sort score desc; limit 50", args: { collection: TABLE, filter: FILTER, sort: SORT, limit: 50 } },
  sorted: { label: "no filter; sort score desc; limit 50", args: { collection: TABLE, sort: SORT, limit: 50 } },
  unfiltered: { label: "no filter, no sort (creation order); limit 50", args: { collection: TABLE, limit: 50 } },
};
const CASE_ORDER: RowsCaseName[] = ["filtered", "sorted", "unfiltered"];

export interface RowsOptions {
  rows: number;
  /** Rows stored in other tables of the same workspace (issue 15: a page of one table must not read them). */
  otherRows: number;
  /** Also time the list_rows queries straight through the driver, with explain (slow when other tables are large). */
  direct: boolean;
  durationSeconds: number;
  /** Slow answers (the embedded database scans every row) stretch a case up to this long, so that requests complete. */
  maxDurationSeconds: number;
  warmupSeconds: number;
  connections: number[];
  threads: number;
  logLevel: string;
  serverBuild: ServerBuild;
  /** Also profile the sidecar answering the filtered list_rows (one connection: with more it mostly waits for the database). */
  profile: boolean;
  resultsDir: string;
  log: (line: string) => void;
}

export interface RowsCase extends MeasuredCase {
  name: RowsCaseName;
  connections: number;
  /** the wrk run's length and per-request timeout (stretched for slow answers), and whether it was warmed up */
  plannedSeconds: number;
  warmedUp: boolean;
}

export interface PagingResult {
  label: string;
  args: Record<string, unknown>;
  pages: number;
  rows: number;
  expectedRows: number;
  duplicates: number;
  /** rows out of order (sort column, then row id) */
  outOfOrder: number;
  totalMs: number;
  pageMs: { p50: number; max: number; first: number; last: number };
}

export interface DirectQuery {
  label: string;
  filter: Document;
  sort: Document | null;
  limit: number | null;
  /** ms per query from this process through the driver, `runs` times one after another */
  ms: { p50: number; p90: number; min: number };
  runs: number;
  returned: number;
  explain: ExplainSummary;
}

export interface RowsResult {
  name: "rows";
  table: { slug: string; rows: number; columns: string[]; matchingFilter: number; seedSeconds: number; otherTables: number; otherRows: number };
  setup: {
    sidecar: string;
    database: string;
    wrk: string;
    threads: number;
    durationSeconds: number;
    warmupSeconds: number;
    logLevel: string;
    backgroundCpuPercent: number | null;
  };
  /** One request alone through the sidecar (the faster of two), before the load. */
  responses: Record<RowsCaseName, { bytes: number; ms: number; rows: number }>;
  cases: RowsCase[];
  paging: PagingResult[];
  /** update_row calls one after another, each alone (ms), each followed by a filtered list_rows (ms): the copy catching up */
  updates: { calls: number; ms: number[]; listAfterMs: number[] };
  indexes: Document[];
  /** FerretDB on SQLite: the SQLite indexes behind the rows collection (from its data file). */
  sqliteIndexes: string[] | null;
  direct: DirectQuery[];
  profile: ProfiledRun | null;
}

/** A small deterministic generator, so every run seeds the same table. */
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

const VERBS = ["Migrate", "Review", "Fix", "Document", "Measure", "Refactor", "Design", "Test", "Ship", "Triage"];
const THINGS = [
  "the billing export",
  "row paging",
  "the token settings screen",
  "sandbox claims",
  "the sweeper",
  "table views",
  "search ranking",
  "the nginx config",
  "page history",
  "the MCP tool schemas",
];
const NOTES = [
  "Blocked on the design review; see the thread from Tuesday.",
  "Needs a migration for existing documents before it can ship.",
  "Customer reported it twice this week, with screenshots attached to the ticket.",
  "Small change, but touches the public API: write it up in the changelog.",
  "Pair with someone from the platform team; the rollout needs a feature flag and a dashboard.",
];

function makeRows(n: number): Record<string, string | number | null>[] {
  const rnd = prng(20261121);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const out: Record<string, string | number | null>[] = [];
  for (let i = 0; i < n; i++) {
    const s = rnd();
    const status = s < 0.3 ? "todo" : s < 0.5 ? "doing" : s < 0.6 ? "review" : "done";
    const day = new Date(Date.UTC(2026, 0, 1) + Math.floor(rnd() * 365) * 86_400_000).toISOString().slice(0, 10);
    out.push({
      title: `${pick(VERBS)} ${pick(THINGS)} (#${i + 1})`,
      status,
      score: Math.floor(rnd() * 101),
      due: day,
      owner: pick(OWNERS),
      estimate: Math.round(rnd() * 400) / 10,
      notes: rnd() < 0.6 ? pick(NOTES) : null,
      link: rnd() < 0.3 ? `https://tracker.example.com/issues/${1000 + i}` : null,
    });
  }
  return out;
}

const r2 = (n: number) => Math.round(n * 100) / 100;

/** The SQLite indexes FerretDB made for the collection (FerretDB v1 keeps one SQLite file per database). */
function sqliteIndexes(dataDir: string, dbName: string): string[] | null {
  const dir = path.join(dataDir, "db");
  if (!existsSync(dir)) return null;
  const file = readdirSync(dir, { recursive: true, withFileTypes: true }).find((e) => e.isFile() && e.name === `${dbName}.sqlite`);
  if (!file) return null;
  try {
    const out = execFileSync(
      "sqlite3",
      ["-readonly", path.join(file.parentPath, file.name), "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL;"],
      {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
        timeout: 10_000,
      },
    );
    return out.split("\n").filter(Boolean);
  } catch {
    return null; // no sqlite3 CLI, or the file is busy
  }
}

export async function rowsBench(opts: RowsOptions): Promise<RowsResult> {
  const { log } = opts;
  const wrk = wrkVersion();
  if (!wrk) throw new Error("wrk is not installed. On Debian or Ubuntu: apt-get install -y wrk (macOS: brew install wrk).");
  const background = await backgroundCpu();
  if (background !== null && background > 20) {
    log(`warning: the machine is already busy (${Math.round(background)} % of one core before the run); the figures will be low and noisy`);
  }
  const dir = makeWorkDir(log);
  log(`work dir ${dir}`);

  if (opts.serverBuild === "dist") ensureServerBuild(log, "mcp-sidecar");
  const db = await startDatabase(dir, log);
  const { database } = db;
  const port = await freePort();
  const env = serverEnv({ db, port, dataDir: path.join(dir, "sidecar-data"), logLevel: opts.logLevel });
  const config = configFor(env);
  if (opts.rows > config.TABLE_MAX_ROWS) throw new Error(`--rows ${opts.rows} is more than a table holds (TABLE_MAX_ROWS ${config.TABLE_MAX_ROWS})`);

  // The table, through the same domain functions the tools call, as its owner.
  const agent = await seedAgent(database, config);
  const owner = { kind: "user" as const, user: agent.user };
  const columns = [
    { name: "title", type: "text" as const, required: true },
    { name: "status", type: "select" as const, required: true, options: [...STATUSES] },
    { name: "score", type: "number" as const, required: true },
    { name: "due", type: "date" as const },
    { name: "owner", type: "select" as const, options: [...OWNERS] },
    { name: "estimate", type: "number" as const },
    { name: "notes", type: "text" as const },
    { name: "link", type: "url" as const },
  ];
  const collection = await createCollection({ database, config, cache: NO_CACHE }, owner, { slug: TABLE, name: "Tasks", kind: "table", columns });
  const data = makeRows(opts.rows);
  const t0 = performance.now();
  for (let i = 0; i < data.length; i += BATCH) {
    await insertRows({ database, config, cache: NO_CACHE }, owner, { collection: TABLE, rows: data.slice(i, i + BATCH) });
    if ((i / BATCH) % 5 === 4) log(`seeded ${Math.min(i + BATCH, data.length)} rows…`);
  }
  // Other tables first filled the same way: a filtered page of ours must read none of their rows.
  const otherTables = Math.ceil(opts.otherRows / config.TABLE_MAX_ROWS);
  for (let k = 0; k < otherTables; k++) {
    const slug = `other-${k + 1}`;
    const n = Math.min(config.TABLE_MAX_ROWS, opts.otherRows - k * config.TABLE_MAX_ROWS);
    await createCollection({ database, config, cache: NO_CACHE }, owner, { slug, name: `Other ${k + 1}`, kind: "table", columns });
    const other = makeRows(n);
    for (let i = 0; i < other.length; i += BATCH)
      await insertRows({ database, config, cache: NO_CACHE }, owner, { collection: slug, rows: other.slice(i, i + BATCH) });
    log(`seeded ${slug}: ${n} rows (${(k + 1) * config.TABLE_MAX_ROWS > opts.otherRows ? opts.otherRows : (k + 1) * config.TABLE_MAX_ROWS} in other tables)…`);
  }
  const seedSeconds = Math.round((performance.now() - t0) / 100) / 10;
  const matchingFilter = data.filter((r) => r.status === FILTER.status && Number(r.score) >= FILTER.score.gte).length;
  log(`seeded ${data.length} rows in ${seedSeconds} s (batches of ${BATCH}); ${matchingFilter} match the filter`);

  // The queries list_rows makes (shared/src/domain/tables.ts listRows), straight through the driver.
  const filtered = { $and: [{ collectionId: collection.id }, { "values.status": "todo" }, { "values.score": { $gte: 50 } }] };
  const sortScore = { "values.score": -1, _id: 1 } as const;
  // A row from the middle of the table: without a pushed-down filter FerretDB reads rows in insertion order
  // until the first match, so the first row would be found at once and the last after reading them all.
  const midId =
    (
      await database.c.rows
        .find({ collectionId: collection.id })
        .sort({ _id: 1 })
        .skip(Math.floor(data.length / 2))
        .limit(1)
        .toArray()
    )[0]?._id ?? "";
  const queries: { label: string; filter: Document; sort: Document | null; limit: number | null }[] = [
    { label: "list_rows filtered: $and [collectionId, values.status, values.score ≥ 50], sort score desc, _id", filter: filtered, sort: sortScore, limit: 51 },
    {
      label: "the same filter written flat",
      filter: { collectionId: collection.id, "values.status": "todo", "values.score": { $gte: 50 } },
      sort: sortScore,
      limit: 51,
    },
    { label: "list_rows no filter, sort score desc, _id", filter: { $and: [{ collectionId: collection.id }] }, sort: sortScore, limit: 51 },
    { label: "list_rows no filter, creation order (_id)", filter: { $and: [{ collectionId: collection.id }] }, sort: { _id: 1 }, limit: 51 },
    { label: "count of the filtered rows", filter: filtered, sort: null, limit: null },
    {
      label: "a row (mid-table) by _id and collectionId, as updateRow and deleteRow find it",
      filter: { _id: midId, collectionId: collection.id },
      sort: null,
      limit: 1,
    },
    { label: "the same row by _id alone", filter: { _id: midId }, sort: null, limit: 1 },
  ];
  const direct: DirectQuery[] = [];
  if (!opts.direct) log("direct driver queries skipped (pass --direct to time them)");
  for (const q of opts.direct ? queries : []) {
    const isCount = q.label.startsWith("count");
    const run = async () => {
      if (isCount) return database.c.rows.countDocuments(q.filter);
      let cur = database.c.rows.find(q.filter);
      if (q.sort) cur = cur.sort(q.sort as Record<string, 1 | -1>);
      if (q.limit) cur = cur.limit(q.limit);
      return (await cur.toArray()).length;
    };
    const { result: returned, ms, runs } = await timeQuery(run);
    let cursor = database.c.rows.find(q.filter);
    if (q.sort) cursor = cursor.sort(q.sort as Record<string, 1 | -1>);
    if (q.limit) cursor = cursor.limit(q.limit);
    const explain = summarizeExplain(await cursor.explain("queryPlanner"));
    direct.push({ ...q, runs, returned, ms, explain });
    log(
      `direct: ${q.label}: p50 ${fixed(ms.p50)} ms, ${returned} ${isCount ? "counted" : "returned"}; plan: ${explain.plan}${explain.indexesUsed.length ? ` (indexes: ${explain.indexesUsed.join(", ")})` : ""}`,
    );
  }
  const indexes = await database.c.rows.indexes();
  const sqlite = db.kind === "ferretdb" ? sqliteIndexes(dir, db.dbName) : null;

  const startSidecar = (name: string, build: ServerBuild, nodeFlags: string[] = []) =>
    startServer({ env, logFile: path.join(dir, `${name.replace(/\W+/g, "-")}.log`), name, build, nodeFlags, pkg: "mcp-sidecar" });
  let sidecar = await startSidecar("sidecar", opts.serverBuild);
  const url = `http://127.0.0.1:${port}/mcp`;

  type ListRows = { rows: { row_id: string; values: Record<string, unknown> }[]; next_cursor: string | null };
  const responses = {} as RowsResult["responses"];
  for (const name of CASE_ORDER) {
    const req = mcpRequest(toolCall("list_rows", CASES[name].args), agent.token);
    const a = await postMcp(url, req);
    const out = toolResult<ListRows>(a, `list_rows (${name})`);
    if (out.rows.length !== 50) throw new Error(`list_rows (${name}) returned ${out.rows.length} rows, expected 50`);
    const again = await postMcp(url, req);
    responses[name] = { bytes: a.bytes, ms: r2(Math.min(a.ms, again.ms)), rows: out.rows.length };
    log(`list_rows ${name}: one request alone ${fixed(responses[name].ms)} ms, ${a.bytes} bytes`);
  }

  const cpuTargets = (): Record<string, CpuTarget> => {
    const t: Record<string, CpuTarget> = { sidecar: { pgrp: sidecar.pid } };
    if (db.cpu) t.database = db.cpu;
    return t;
  };
  const cases: RowsCase[] = [];
  for (const c of opts.connections) {
    for (const name of CASE_ORDER) {
      // With c requests always in flight each waits for about c answers: when answers are slow
      // (seconds on the embedded database), the run is stretched so that every connection gets
      // a couple of answers, the timeout with it, and the warm-up is left out (its requests
      // would still be running when the measurement starts).
      const aloneSeconds = responses[name].ms / 1000;
      const planned = Math.min(opts.maxDurationSeconds, Math.max(opts.durationSeconds, Math.ceil(c === 1 ? 10 * aloneSeconds : 1.5 * c * aloneSeconds)));
      const warm = c * aloneSeconds < opts.warmupSeconds / 2;
      if (planned > opts.durationSeconds || (!warm && opts.warmupSeconds > 0)) {
        log(
          `list_rows ${name}, ${c} connection${c === 1 ? "" : "s"}: one answer alone takes ${fixed(aloneSeconds, 1)} s, so this case runs ${planned} s${warm ? "" : " without a warm-up"}`,
        );
      }
      const r = await measureCase({
        label: `list_rows ${name}, ${c} connection${c === 1 ? "" : "s"}`,
        wrk: {
          url,
          request: mcpRequest(toolCall("list_rows", CASES[name].args), agent.token),
          errorMarkers: MCP_ERROR_MARKERS,
          connections: c,
          threads: opts.threads,
          workDir: dir,
          cpuTargets: cpuTargets(),
          timeoutSeconds: Math.max(5, planned),
        },
        durationSeconds: planned,
        warmupSeconds: warm ? opts.warmupSeconds : 0,
        drain: { targets: cpuTargets(), maxWaitMs: 300_000 },
        log,
      });
      cases.push({ name, connections: c, plannedSeconds: planned, warmedUp: warm, ...r });
    }
  }

  // Paging through everything with cursors, one request after another, as an agent would.
  const paging: PagingResult[] = [];
  const pageThrough = async (label: string, args: Record<string, unknown>, expectedRows: number, sortColumn: string | null, desc: boolean) => {
    const seen = new Set<string>();
    const times: number[] = [];
    let duplicates = 0;
    let outOfOrder = 0;
    let prev: { v: number; id: string } | null = null;
    let cursor: string | null = null;
    const start = performance.now();
    do {
      const a = await postMcp(url, mcpRequest(toolCall("list_rows", cursor ? { ...args, cursor } : args), agent.token));
      times.push(a.ms);
      const out = toolResult<ListRows>(a, `list_rows paging (${label})`);
      for (const row of out.rows) {
        if (seen.has(row.row_id)) duplicates++;
        seen.add(row.row_id);
        const v = sortColumn ? Number(row.values[sortColumn]) : 0;
        if (prev) {
          const before =
            sortColumn === null
              ? prev.id < row.row_id
              : desc
                ? prev.v > v || (prev.v === v && prev.id < row.row_id)
                : prev.v < v || (prev.v === v && prev.id < row.row_id);
          if (!before) outOfOrder++;
        }
        prev = { v, id: row.row_id };
      }
      cursor = out.next_cursor;
    } while (cursor);
    const totalMs = performance.now() - start;
    const result: PagingResult = {
      label,
      args,
      pages: times.length,
      rows: seen.size + duplicates,
      expectedRows,
      duplicates,
      outOfOrder,
      totalMs: Math.round(totalMs),
      pageMs: { p50: r2(median(times)), max: r2(Math.max(...times)), first: r2(times[0] ?? 0), last: r2(times[times.length - 1] ?? 0) },
    };
    log(
      `paging ${label}: ${result.rows} rows in ${result.pages} pages, ${result.totalMs} ms (page p50 ${fixed(result.pageMs.p50)} ms, max ${fixed(result.pageMs.max)} ms); duplicates ${duplicates}, out of order ${outOfOrder}`,
    );
    paging.push(result);
  };
  await pageThrough("filtered, limit 50", CASES.filtered.args, matchingFilter, "score", true);
  await pageThrough("whole table, creation order, limit 500", { collection: TABLE, limit: 500 }, data.length, null, false);

  // A write for comparison (rows from the middle of the table): update_row finds the row by {_id, collectionId} and updates it by {_id, version}.
  const someRows = (
    await database.c.rows
      .find({ collectionId: collection.id })
      .sort({ _id: 1 })
      .skip(Math.floor(data.length / 2))
      .limit(5)
      .toArray()
  ).map((r) => ({
    id: r._id,
    version: r.version,
  }));
  // Each followed by a filtered list_rows: the sidecar's copy of the rows is then one change behind.
  const updateMs: number[] = [];
  const listAfterMs: number[] = [];
  for (const row of someRows) {
    const a = await postMcp(
      url,
      mcpRequest(
        toolCall("update_row", { collection: TABLE, row_id: row.id, values: { notes: "Touched by the benchmark." }, expected_version: row.version }),
        agent.token,
      ),
    );
    toolResult(a, "update_row");
    updateMs.push(a.ms);
    const l = await postMcp(url, mcpRequest(toolCall("list_rows", CASES.filtered.args), agent.token));
    toolResult(l, "list_rows");
    listAfterMs.push(l.ms);
  }
  const updates = { calls: updateMs.length, ms: updateMs.map(r2), listAfterMs: listAfterMs.map(r2) };
  log(
    `update_row through the sidecar: ${updateMs.map((m) => fixed(m)).join(", ")} ms; list_rows right after each: ${listAfterMs.map((m) => fixed(m)).join(", ")} ms`,
  );

  let profile: ProfiledRun | null = null;
  if (opts.profile) {
    // One connection, long enough for about ten answers: at 50 the sidecar mostly waits for the database.
    const seconds = Math.min(opts.maxDurationSeconds, Math.max(opts.durationSeconds, Math.ceil(10 * (responses.filtered.ms / 1000))));
    await sidecar.stop();
    profile = await profileUnderLoad({
      start: async (flags) => (sidecar = await startSidecar("sidecar (profiled)", "tsx", flags)),
      profDir: path.join(dir, "profiles-sidecar"),
      wrk: {
        url,
        request: mcpRequest(toolCall("list_rows", CASES.filtered.args), agent.token),
        connections: 1,
        threads: 1,
        workDir: dir,
        timeoutSeconds: Math.max(5, seconds),
      },
      durationSeconds: seconds,
      warmupSeconds: responses.filtered.ms / 1000 < opts.warmupSeconds / 2 ? opts.warmupSeconds : 0,
      saveAs: path.join(opts.resultsDir, "rows-list_rows.cpuprofile"),
    });
    log(`profiled sidecar (list_rows filtered, 1 connection, ${seconds} s, tsx + --cpu-prof): ${profile.rps} req/s, p99 ${fixed(profile.p99Ms)} ms`);
  }

  return {
    name: "rows",
    table: {
      slug: TABLE,
      rows: data.length,
      columns: columns.map((c) => `${c.name}: ${c.type}`),
      matchingFilter,
      seedSeconds,
      otherTables,
      otherRows: opts.otherRows,
    },
    setup: {
      sidecar: opts.serverBuild === "dist" ? "node mcp-sidecar/dist/main.js" : "tsx mcp-sidecar/src/main.ts",
      database: db.kind,
      wrk,
      threads: opts.threads,
      durationSeconds: opts.durationSeconds,
      warmupSeconds: opts.warmupSeconds,
      logLevel: opts.logLevel,
      backgroundCpuPercent: background,
    },
    responses,
    cases,
    paging,
    updates,
    indexes,
    sqliteIndexes: sqlite,
    direct,
    profile,
  };
}

export function formatRows(r: RowsResult): string {
  const rows = r.cases.map((c) => [
    CASES[c.name].label + (c.noisy ? " *" : ""),
    c.connections,
    `${c.plannedSeconds}${c.warmedUp ? "" : " (no warm-up)"}`,
    c.requests,
    c.rps,
    fixed(c.p50Ms),
    fixed(c.p99Ms),
    c.socketErrors + c.httpErrors + c.bodyErrors,
    c.bytesPerResponse,
    cpuPercentOf(c, "sidecar"),
    cpuPercentOf(c, "database"),
    cpuPercentOf(c, "other"),
    cpuPerRequest(c, "sidecar"),
    cpuPerRequest(c, "database"),
    c.rssMb.sidecar ?? "-",
  ]);
  const out = [
    `list_rows: a table of ${r.table.rows} rows (${r.table.columns.join(", ")}), with ${r.table.otherRows} rows in ${r.table.otherTables} other tables, seeded in ${r.table.seedSeconds} s; ${r.table.matchingFilter} rows match the filter; ` +
      `sidecar: ${r.setup.sidecar} (LOG_LEVEL=${r.setup.logLevel}), database: ${r.setup.database}; wrk -t${r.setup.threads}, ${r.setup.durationSeconds} s per case after ${r.setup.warmupSeconds} s warm-up`,
    `one request alone: ${CASE_ORDER.map((n) => `${n} ${fixed(r.responses[n].ms)} ms (${r.responses[n].bytes} bytes)`).join(", ")}`,
    table(
      [
        "list_rows",
        "conns",
        "seconds",
        "requests",
        "req/s",
        "p50 ms",
        "p99 ms",
        "errors",
        "bytes/resp",
        "CPU% sidecar",
        "CPU% db",
        "CPU% other",
        "µs/req sidecar",
        "µs/req db",
        "max RSS MB",
      ],
      rows,
    ),
    `CPU% is of one core (the machine has ${availableParallelism()}); µs/req = CPU time per request.` +
      (r.cases.some((c) => c.noisy) ? ` * noisy: other work used more than ${NOISE_THRESHOLD} % of a core during the case.` : ""),
    "",
    table(
      ["paging with cursors (one client)", "pages", "rows", "expected", "dupes", "out of order", "total ms", "page p50 ms", "page max ms"],
      r.paging.map((p) => [p.label, p.pages, p.rows, p.expectedRows, p.duplicates, p.outOfOrder, p.totalMs, fixed(p.pageMs.p50), fixed(p.pageMs.max)]),
    ),
    `update_row through the sidecar, one call at a time: ${r.updates.ms.map((m) => fixed(m)).join(", ")} ms; a filtered list_rows right after each: ${r.updates.listAfterMs.map((m) => fixed(m)).join(", ")} ms`,
    "",
    table(
      ["the same queries through the driver", "p50 ms", "p90 ms", "returned", "plan", "indexes used"],
      r.direct.map((d) => [d.label, fixed(d.ms.p50), fixed(d.ms.p90), d.returned, d.explain.plan, d.explain.indexesUsed.join(", ") || "none"]),
    ),
    "",
    `indexes on rows: ${r.indexes.map((i) => `${String(i.name)} ${JSON.stringify(i.key)}`).join("; ")}`,
  ];
  if (r.sqliteIndexes) out.push(`SQLite indexes behind them (FerretDB's data file):`, ...r.sqliteIndexes.map((s) => `  ${s}`));
  const first = r.direct[0];
  if (first) out.push(`explain of "${first.label}":`, JSON.stringify(first.explain.raw, null, 1).slice(0, 3_000));
  if (r.profile) {
    out.push(
      "",
      `profiled sidecar (list_rows filtered, 1 connection, from its sources under tsx): ${r.profile.rps} req/s, p99 ${fixed(r.profile.p99Ms)} ms; saved as ${r.profile.savedAs}`,
      formatProfileSummary(r.profile),
    );
  }
  return out.join("\n");
}
