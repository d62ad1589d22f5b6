// Issue 30, item 1: the writes. Through the real MCP SDK client (v2, Streamable HTTP) against
// the real sidecar (the production bundle, the embedded database): create_page, update_page
// with a 1 KB and a 100 KB body, edit_page, insert_rows (batches of 1 and 100) and update_row
// (in a table of WRITES_ROWS rows with WRITES_OTHER_ROWS rows in other tables), at each
// concurrency (one SDK client per connection, each writing its own page or table, so that
// writers do not queue on one document's claim). Beside them, in the same run: the SDK's
// no-op tool (the floor of the protocol) and the raw driver floor, one insertOne and one
// updateOne on the same database per write (the least a versioned write needs).
//
// Round trips: every use case is run again in this process through a database connection
// with the driver's command monitoring (`monitorCommands`, `commandStarted`), with a read
// cache as the sidecar has one, and the commands counted: those sent before the use case
// returned (the response path) and those sent after it (work moved off the response path),
// both per write. CPU per write: the sidecar's and the database's, from /proc, over each
// case. Growth: update_page with WRITES_GROWTH_PAGES pages stored against with 100.
//
// Sizes by env, so the lead can run it again on a quiet machine:
//   WRITES_SECONDS (10), WRITES_CONNECTIONS (1,10), WRITES_ROWS (10000),
//   WRITES_OTHER_ROWS (100000), WRITES_GROWTH_PAGES (100000; 0 skips the growth case),
//   WRITES_CASES (case names separated by ";", e.g. "update_page 1 KB;update_row": only those,
//   beside the two floors). `--profile` profiles the inline sidecar over the run.
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { copyFileSync, readdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Config } from "@atelier/shared/config";
import type { Database, UserDoc } from "@atelier/shared/db";
import { NO_CACHE, ReadCache } from "@atelier/shared/domain/cache";
import type { StoreDeps } from "@atelier/shared/domain/deps";
import { createPage } from "@atelier/shared/domain/pages/create-page";
import { editPage } from "@atelier/shared/domain/pages/edit-page";
import { updatePage } from "@atelier/shared/domain/pages/update-page";
import { createCollection } from "@atelier/shared/domain/tables/create-collection";
import { insertRows } from "@atelier/shared/domain/tables/insert-rows";
import { updateRow } from "@atelier/shared/domain/tables/update-row";
import { connectDatabase } from "@atelier/shared/db";
import { freePort, REPO_ROOT } from "@atelier/shared/devtools/embedded-db";
import { awaitWritesSettled } from "@atelier/shared/domain/versioned-write";
import { configFor, ensureServerBuild, serverEnv, startDatabase, startServer, type ServerBuild } from "./lib/atelier";
import { makeWorkDir } from "./lib/cleanup";
import { backgroundCpu, cpuPercent, snapshot, type CpuTarget } from "./lib/cpu";
import { fixed, table } from "./lib/format";
import { seedAgent, sidecarSdk } from "./lib/mcp";
import { startService, waitUntilReady } from "./lib/service";
import { formatProfileSummary, summarizeProfile } from "./lib/cpuprofile";
import { seedFiller } from "./artifact-read";

const NOOP_SERVER = path.join(path.dirname(new URL(import.meta.url).pathname), "servers/mcp-noop.mjs");

export type WriteTarget =
  | "noop"
  | "driver"
  | "create_page"
  | "update_page 1 KB"
  | "update_page 100 KB"
  | "edit_page"
  | "insert_rows ×1"
  | "insert_rows ×100"
  | "update_row"
  | "update_page 1 KB, growth"
  | "update_page 1 KB, after answer"
  | "update_page 100 KB, after answer"
  | "edit_page, after answer"
  | "update_row, after answer"
  | "insert_rows ×100, after answer";

export interface WritesOptions {
  durationSeconds: number;
  connections: number[];
  rows: number;
  otherRows: number;
  growthPages: number;
  /** Only the growth case (WRITES_ONLY=growth): no other case, no round-trip counts. */
  growthOnly?: boolean;
  serverBuild: ServerBuild;
  logLevel: string;
  /** Profile the (inline) sidecar with `node --cpu-prof` over the whole run, and print where its time went. */
  profile: boolean;
  /** Where the profile is kept (bench/results). */
  resultsDir: string;
  /** Only these cases (the noop and driver floors always run); null runs all. */
  only: string[] | null;
  log: (line: string) => void;
}

export interface WriteCase {
  target: WriteTarget;
  connections: number;
  writes: number;
  errors: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU per write, µs: the sidecar (or this process for the driver floor) and the database. */
  cpuUs: { process: number | null; database: number | null };
  /** Other work on the machine during the case, % of one core. */
  otherCpu: number | null;
}

export interface RoundTrips {
  target: string;
  /** Commands sent before the use case returned. */
  response: number;
  /** Commands sent after it returned, until the version was finished. */
  after: number;
  commands: string[];
}

export interface WritesResult {
  name: "writes";
  setup: { rows: number; otherRows: number; growthPages: number; durationSeconds: number; backgroundCpuPercent: number | null; sdk: string };
  cases: WriteCase[];
  roundTrips: RoundTrips[];
  ratios: { connections: number; target: string; ofDriver: number | null; ofNoop: number | null }[];
  growth: { small: number | null; large: number | null; ratio: number | null };
}

/** The part of the SDK client this bench uses. */
interface SdkClient {
  connect(t: unknown): Promise<void>;
  callTool(req: { name: string; arguments: Record<string, unknown> }): Promise<{ isError?: boolean; structuredContent?: unknown; content?: unknown }>;
  close(): Promise<void>;
}

async function loadClient(): Promise<{ connect(url: string, token: string | null): Promise<SdkClient> }> {
  const dir = realpathSync(path.join(REPO_ROOT, "mcp-sidecar/node_modules/@modelcontextprotocol/client"));
  const mod = (await import(pathToFileURL(path.join(dir, "dist/index.mjs")).href)) as {
    Client: new (info: { name: string; version: string }) => SdkClient;
    StreamableHTTPClientTransport: new (url: URL, opts: { requestInit: RequestInit }) => unknown;
  };
  return {
    async connect(url, token) {
      const transport = new mod.StreamableHTTPClientTransport(new URL(url), { requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {} });
      const client = new mod.Client({ name: "bench-writes", version: "1.0.0" });
      // Every call's fetch adds an abort listener to the transport's one AbortSignal, which
      // Node drops only when the request is collected: past 10 it printed a
      // MaxListenersExceededWarning per transport (~900 lines a run). No limit for the signals
      // made while connecting (the transport's), the process's default for everything else.
      const limit = EventEmitter.defaultMaxListeners;
      EventEmitter.defaultMaxListeners = 0;
      try {
        await client.connect(transport);
      } finally {
        EventEmitter.defaultMaxListeners = limit;
      }
      return client;
    },
  };
}

/** The element at `i`, which the loops guarantee is there. */
function at<T>(xs: T[], i: number): T {
  const x = xs[i];
  if (x === undefined) throw new Error(`no element ${i}`);
  return x;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Runs `call(worker, i)` in `connections` loops for `seconds`; times each. */
async function runLoops(
  connections: number,
  seconds: number,
  call: (worker: number, i: number) => Promise<boolean>,
): Promise<{ times: number[]; errors: number; elapsed: number; firstError: string | null }> {
  const times: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, w) => {
      for (let i = 0; performance.now() < end; i++) {
        const s = performance.now();
        try {
          if (await call(w, i)) times.push(performance.now() - s);
          else errors++;
        } catch (err) {
          errors++;
          firstError ??= err instanceof Error ? err.message : String(err);
        }
      }
    }),
  );
  return { times, errors, elapsed: (performance.now() - t0) / 1000, firstError };
}

/**
 * A Markdown body of `n` bytes in paragraphs of two lines, as pages are written. (One
 * paragraph of 100 KB renders 2–3× slower: the Markdown parser's text resolution grows
 * faster than the paragraph.)
 */
const kb = (n: number, seed: string) => {
  const para = `${seed} — the quick brown fox jumps over the lazy dog, again and again.\nA second line of the same paragraph, a little longer than the first one.\n\n`;
  return para.repeat(Math.ceil(n / para.length)).slice(0, n);
};

export async function writesBench(opts: WritesOptions): Promise<WritesResult> {
  const { log } = opts;
  const background = await backgroundCpu();
  const dir = makeWorkDir(log);
  if (opts.serverBuild === "dist") ensureServerBuild(log, "mcp-sidecar");
  const db = await startDatabase(dir, log);
  const port = await freePort();
  const env = serverEnv({ db, port, dataDir: path.join(dir, "sidecar-data"), logLevel: opts.logLevel });
  const config = configFor(env);
  const agent = await seedAgent(db.database, config);
  const owner = { kind: "user" as const, user: agent.user };
  const plain: StoreDeps = { database: db.database, config, cache: NO_CACHE };
  const maxConns = Math.max(...opts.connections);

  // Pages and tables of each worker, and the update_row table with its neighbours.
  log("seeding pages and tables…");
  for (let w = 0; w < maxConns; w++) {
    await createPage(plain, owner, { slug: `upd-${w}`, title: `Update ${w}`, body_markdown: kb(1024, "start") });
    await createPage(plain, owner, { slug: `big-${w}`, title: `Big ${w}`, body_markdown: kb(100 * 1024, "start") });
    await createPage(plain, owner, { slug: `edit-${w}`, title: `Edit ${w}`, body_markdown: `${kb(1024, "text")}\nmarker-0\n` });
  }
  const columns = [
    { name: "title", type: "text" as const, required: true },
    { name: "score", type: "number" as const },
    { name: "notes", type: "text" as const },
  ];
  const rowOf = (i: number) => ({ title: `Row ${i}`, score: i % 97, notes: kb(120, `n${i}`) });
  await createCollection(plain, owner, { slug: "tasks", name: "Tasks", kind: "table", columns });
  const t0 = performance.now();
  const fill = async (slug: string, n: number) => {
    for (let i = 0; i < n; i += 500)
      await insertRows(plain, owner, { collection: slug, rows: Array.from({ length: Math.min(500, n - i) }, (_, k) => rowOf(i + k)) });
  };
  await fill("tasks", opts.rows);
  for (let k = 0, left = opts.otherRows; left > 0; k++, left -= config.TABLE_MAX_ROWS) {
    await createCollection(plain, owner, { slug: `other-${k}`, name: `Other ${k}`, kind: "table", columns });
    await fill(`other-${k}`, Math.min(left, config.TABLE_MAX_ROWS));
    log(`seeded other-${k}`);
  }
  log(`seeded ${opts.rows} + ${opts.otherRows} rows in ${Math.round((performance.now() - t0) / 1000)} s`);
  const tasks = await db.database.c.collections.findOne({ slug: "tasks" });
  const rowIds = (await db.database.c.rows.find({ collectionId: tasks?._id ?? "" }, { projection: { _id: 1 } }).toArray()).map((r) => r._id);

  // The sidecar, the no-op floor, the clients.
  const profDir = path.join(dir, "profile");
  const sidecar = await startServer({
    env,
    logFile: path.join(dir, "sidecar.log"),
    name: "sidecar",
    build: opts.serverBuild,
    pkg: "mcp-sidecar",
    ...(opts.profile ? { nodeFlags: ["--cpu-prof", `--cpu-prof-dir=${profDir}`] } : {}),
  });
  // The same sidecar finishing each version after its answer (WRITE_FINISH=after_answer), side by side.
  const port2 = await freePort();
  const env2 = {
    ...serverEnv({ db, port: port2, dataDir: path.join(dir, "sidecar2-data"), logLevel: opts.logLevel }),
    SECRET_KEY: env.SECRET_KEY ?? "",
    WRITE_FINISH: "after_answer",
  };
  const sidecar2 = await startServer({
    env: env2,
    logFile: path.join(dir, "sidecar2.log"),
    name: "sidecar (after answer)",
    build: opts.serverBuild,
    pkg: "mcp-sidecar",
  });
  const sdk = sidecarSdk();
  const noopPort = await freePort();
  const floor = startService({
    name: "mcp no-op floor",
    command: process.execPath,
    args: [NOOP_SERVER, sdk.serverDir, sdk.nodeDir, String(noopPort)],
    cwd: dir,
    env: { PATH: process.env.PATH, NODE_ENV: "production" },
    logFile: path.join(dir, "noop.log"),
  });
  await waitUntilReady(floor, `http://127.0.0.1:${noopPort}/healthz`, 15_000);
  const sdkClient = await loadClient();
  const clients = await Promise.all(Array.from({ length: maxConns }, () => sdkClient.connect(`http://127.0.0.1:${port}/mcp`, agent.token)));
  const clients2 = await Promise.all(Array.from({ length: maxConns }, () => sdkClient.connect(`http://127.0.0.1:${port2}/mcp`, agent.token)));
  const noopClients = await Promise.all(Array.from({ length: maxConns }, () => sdkClient.connect(`http://127.0.0.1:${noopPort}/mcp`, null)));

  const ok = (r: { isError?: boolean; content?: unknown }) => {
    if (r.isError) throw new Error(JSON.stringify(r.content).slice(0, 300));
    return true;
  };
  const editVersion = new Map<number, { v: number; k: number }>();
  let created = 0;
  let tableN = 0;
  // insert_rows: each worker's tables (`ins-W`, then `ins-W-1`, …) and the rows it has sent so far.
  const INSERT_TABLES = 8;
  const insertSlug = (w: number, g: number) => (g === 0 ? `ins-${w}` : `ins-${w}-${g}`);
  const sentRows: number[] = Array.from({ length: maxConns }, () => 0);
  const insertTable = (w: number, n: number) => {
    const sent = sentRows[w] ?? 0;
    const perTable = Math.floor(config.TABLE_MAX_ROWS / n) * n;
    sentRows[w] = sent + n;
    return insertSlug(w, Math.min(Math.floor(sent / perTable), INSERT_TABLES - 1));
  };
  const targets: Record<Exclude<WriteTarget, "driver" | "update_page 1 KB, growth" | `${string}, after answer`>, (w: number, i: number) => Promise<boolean>> = {
    noop: async (w) => ok(await at(noopClients, w).callTool({ name: "noop", arguments: {} })),
    create_page: async (w) =>
      ok(
        await at(clients, w).callTool({ name: "create_page", arguments: { slug: `new-${created++}-${w}`, title: "New page", body_markdown: kb(1024, "new") } }),
      ),
    "update_page 1 KB": async (w, i) =>
      ok(await at(clients, w).callTool({ name: "update_page", arguments: { slug: `upd-${w}`, body_markdown: kb(1024, `v${i}`) } })),
    "update_page 100 KB": async (w, i) =>
      ok(await at(clients, w).callTool({ name: "update_page", arguments: { slug: `big-${w}`, body_markdown: kb(100 * 1024, `v${i}`) } })),
    edit_page: async (w) => {
      const s = editVersion.get(w) ?? { v: 1, k: 0 };
      const r = await at(clients, w).callTool({
        name: "edit_page",
        arguments: { slug: `edit-${w}`, expected_version: s.v, edits: [{ op: "replace", find: `marker-${s.k}`, replace: `marker-${s.k + 1}` }] },
      });
      ok(r);
      editVersion.set(w, { v: (r.structuredContent as { version: number }).version, k: s.k + 1 });
      return true;
    },
    "insert_rows ×1": async (w, i) =>
      ok(await at(clients, w).callTool({ name: "insert_rows", arguments: { collection: insertTable(w, 1), rows: [rowOf(i)] } })),
    "insert_rows ×100": async (w, i) =>
      ok(
        await at(clients, w).callTool({
          name: "insert_rows",
          arguments: { collection: insertTable(w, 100), rows: Array.from({ length: 100 }, (_, k) => rowOf(i * 100 + k)) },
        }),
      ),
    update_row: async (w, i) => {
      const id = rowIds[(w * 7919 + i * maxConns) % rowIds.length] ?? "";
      return ok(await at(clients, w).callTool({ name: "update_row", arguments: { collection: "tasks", row_id: id, values: { score: i % 1000 } } }));
    },
  };
  // The after-answer sidecar writes the same documents (one writer at a time per page: the cases run one after the other).
  const viaSecond = (call: (w: number, i: number) => Promise<boolean>) => async (w: number, i: number) => {
    const swap = at(clients, w);
    clients[w] = at(clients2, w);
    try {
      return await call(w, i);
    } finally {
      clients[w] = swap;
    }
  };
  const freshTables = async () => {
    // insert_rows: fresh tables per worker and case, made before the case is timed; a worker
    // moves to its next one before a batch would overflow TABLE_MAX_ROWS (a refused batch
    // answers at once, and would pass for a fast write).
    tableN++;
    sentRows.fill(0);
    for (let w = 0; w < maxConns; w++) {
      for (let g = 0; g < INSERT_TABLES; g++) {
        const slug = insertSlug(w, g);
        await db.database.c.collections.deleteMany({ slug }).catch(() => undefined);
        await createCollection(plain, owner, { slug, name: `Ins ${w}.${g} ${tableN}`, kind: "table", columns });
      }
    }
  };

  const cpuTargets: Record<string, CpuTarget> = {
    sidecar: { pgrp: sidecar.pid },
    sidecar2: { pgrp: sidecar2.pid },
    floor: { pgrp: floor.pid },
    self: { pid: process.pid },
  };
  if (db.cpu) cpuTargets.database = db.cpu;
  const cases: WriteCase[] = [];
  const skipped = (target: WriteTarget) => opts.only !== null && target !== "noop" && target !== "driver" && !opts.only.includes(target);
  const measure = async (target: WriteTarget, connections: number, call: (w: number, i: number) => Promise<boolean>): Promise<WriteCase | null> => {
    if (skipped(target)) return null;
    await runLoops(connections, Math.min(2, opts.durationSeconds), call); // warm-up
    await awaitWritesSettled();
    const a = snapshot(cpuTargets);
    const r = await runLoops(connections, opts.durationSeconds, call);
    const pct = cpuPercent(a, snapshot(cpuTargets));
    const sorted = r.times.sort((x, y) => x - y);
    const perSecond = Math.round((r.times.length / r.elapsed) * 10) / 10;
    const proc = target === "driver" ? "self" : target === "noop" ? "floor" : target.endsWith("after answer") ? "sidecar2" : "sidecar";
    const perWrite = (k: string) => (pct?.[k] === undefined || perSecond === 0 ? null : Math.round((pct[k] / 100 / perSecond) * 1e6));
    const c: WriteCase = {
      target,
      connections,
      writes: r.times.length,
      errors: r.errors,
      perSecond,
      p50Ms: Math.round(percentile(sorted, 50) * 100) / 100,
      p99Ms: Math.round(percentile(sorted, 99) * 100) / 100,
      cpuUs: { process: perWrite(proc), database: perWrite("database") },
      otherCpu: pct?.other !== undefined ? Math.max(0, Math.round(pct.other)) : null,
    };
    log(
      `${target} ×${connections}: ${perSecond}/s, p50 ${fixed(c.p50Ms)} ms, p99 ${fixed(c.p99Ms)} ms, errors ${r.errors}${r.firstError ? ` (${r.firstError})` : ""}`,
    );
    cases.push(c);
    return c;
  };

  // The raw driver floor: one insert and one update per write, on the same database.
  const floorColl = db.database.db.collection<{ _id: string; n: number; body: string }>("benchFloor");
  const driver = async (_w: number, i: number) => {
    const _id = randomUUID();
    await floorColl.insertOne({ _id, n: i, body: kb(1024, "floor") });
    await floorColl.updateOne({ _id }, { $set: { n: i + 1 } });
    return true;
  };

  for (const connections of opts.growthOnly ? [] : opts.connections) {
    await measure("noop", connections, targets.noop);
    await measure("driver", connections, driver);
    for (const t of ["update_page 1 KB", "update_page 100 KB", "create_page", "edit_page", "update_row"] as const) {
      await measure(t, connections, targets[t]);
      if (t !== "create_page") await measure(`${t}, after answer`, connections, viaSecond(targets[t]));
    }
    await freshTables();
    await measure("insert_rows ×1", connections, targets["insert_rows ×1"]);
    await freshTables();
    await measure("insert_rows ×100", connections, targets["insert_rows ×100"]);
    await freshTables();
    await measure("insert_rows ×100, after answer", connections, viaSecond(targets["insert_rows ×100"]));
  }

  const roundTrips = opts.growthOnly
    ? []
    : [
        ...(await countRoundTrips(db.uri, db.dbName, config, owner, rowIds[0] ?? "", log, "")),
        ...(await countRoundTrips(db.uri, db.dbName, { ...config, WRITE_FINISH: "after_answer" }, owner, rowIds[0] ?? "", log, ", after answer")),
      ];

  // Growth: update_page 1 KB at one connection with the pages stored now (about 100) and then with many more.
  const growth: WritesResult["growth"] = { small: null, large: null, ratio: null };
  if (opts.growthPages > 0 && !skipped("update_page 1 KB, growth")) {
    const have = await db.database.c.pages.countDocuments({});
    growth.small = (await measure("update_page 1 KB, growth", 1, targets["update_page 1 KB"]))?.perSecond ?? null;
    log(`storing ${opts.growthPages} pages for the growth case (${have} now)…`);
    await seedGrowth(db.database, opts.growthPages, log);
    growth.large = (await measure("update_page 1 KB, growth", 1, targets["update_page 1 KB"]))?.perSecond ?? null;
    growth.ratio = growth.small ? Math.round((1000 * (growth.large ?? 0)) / growth.small) / 1000 : null;
  }

  for (const c of [...clients, ...clients2, ...noopClients]) await c.close().catch(() => undefined);
  if (opts.profile) {
    await sidecar.stop(); // the profile is written on a clean exit
    const file = readdirSync(profDir)
      .filter((f) => f.endsWith(".cpuprofile"))
      .map((f) => path.join(profDir, f))
      .sort((a, b) => statSync(b).size - statSync(a).size)[0];
    if (file) {
      const saved = path.join(opts.resultsDir, "writes-sidecar.cpuprofile");
      copyFileSync(file, saved);
      log(`the sidecar (inline) over the whole run:\n${formatProfileSummary(summarizeProfile(saved, 30))}`);
    }
  }
  const ratios: WritesResult["ratios"] = [];
  for (const connections of opts.connections) {
    const driverCase = cases.find((c) => c.target === "driver" && c.connections === connections);
    const noopCase = cases.find((c) => c.target === "noop" && c.connections === connections);
    for (const c of cases.filter((x) => x.connections === connections && x.target !== "driver" && x.target !== "noop" && !x.target.includes("growth"))) {
      ratios.push({
        connections,
        target: c.target,
        ofDriver: driverCase?.perSecond ? Math.round((1000 * c.perSecond) / driverCase.perSecond) / 1000 : null,
        ofNoop: noopCase?.perSecond ? Math.round((1000 * c.perSecond) / noopCase.perSecond) / 1000 : null,
      });
    }
  }
  return {
    name: "writes",
    setup: {
      rows: opts.rows,
      otherRows: opts.otherRows,
      growthPages: opts.growthPages,
      durationSeconds: opts.durationSeconds,
      backgroundCpuPercent: background === null ? null : Math.round(background),
      sdk: sdk.version,
    },
    cases,
    roundTrips,
    ratios,
    growth,
  };
}

/** Copies of a page up to `total` pages, as the read benchmark stores them. */
async function seedGrowth(database: Database, total: number, log: (line: string) => void): Promise<void> {
  const page = await database.c.pages.findOne({ slug: "upd-0" });
  const art = await database.c.artifacts.findOne({ _id: "upd-0" });
  if (!page || !art) throw new Error("the growth page is missing");
  await seedFiller(database, total, log, { page, art });
}

/** Each use case once more, in this process, with the driver's command monitor counting. */
async function countRoundTrips(
  uri: string,
  dbName: string,
  config: Config,
  owner: { kind: "user"; user: UserDoc },
  rowId: string,
  log: (line: string) => void,
  suffix: string,
): Promise<RoundTrips[]> {
  const database = await connectDatabase(uri, dbName, { monitorCommands: true, appName: "bench-roundtrips" });
  const deps: StoreDeps = { database, config, cache: new ReadCache(60_000, config.CACHE_MAX_BYTES) };
  const seen: string[] = [];
  const names = new Map<number, number>();
  database.client.on("commandStarted", (e) => {
    if (e.databaseName !== dbName) return;
    names.set(e.requestId, seen.length);
    seen.push(`${e.commandName} ${String((e.command as Record<string, unknown>)[e.commandName])}`);
  });
  // Each command with the time it took, as the driver saw it: where a write's time goes.
  database.client.on("commandSucceeded", (e) => {
    const i = names.get(e.requestId);
    if (i !== undefined && seen[i] !== undefined) seen[i] = `${seen[i]} ${e.duration} ms`;
  });
  const out: RoundTrips[] = [];
  let n = 0;
  const count = async (target: string, fn: () => Promise<unknown>) => {
    await fn(); // warm the read cache, as a running sidecar has it
    await awaitWritesSettled();
    seen.length = 0;
    await fn();
    const response = seen.length;
    await awaitWritesSettled();
    out.push({ target: `${target}${suffix}`, response, after: seen.length - response, commands: [...seen] });
    log(`${target}${suffix}: ${response} round trips before the answer, ${seen.length - response} after: ${seen.join("; ")}`);
  };
  const edit = { k: 1000, v: 0 };
  await count("create_page", () => createPage(deps, owner, { slug: `rt-${suffix ? "b" : "a"}-${n++}`, title: "RT", body_markdown: kb(1024, "rt") }));
  await count("update_page 1 KB", () => updatePage(deps, owner, { slug: "upd-0", body_markdown: kb(1024, `rt${n++}`) }));
  await count("update_page 100 KB", () => updatePage(deps, owner, { slug: "big-0", body_markdown: kb(100 * 1024, `rt${n++}`) }));
  const editSlug = `rt-edit${suffix ? "-2" : ""}`;
  await createPage(deps, owner, { slug: editSlug, title: "RT edit", body_markdown: "marker-1000\n" });
  edit.v = 1;
  await count("edit_page", async () => {
    const r = await editPage(deps, owner, {
      slug: editSlug,
      expected_version: edit.v,
      edits: [{ op: "replace", find: `marker-${edit.k}`, replace: `marker-${edit.k + 1}` }],
    });
    edit.k++;
    edit.v = r.version;
  });
  await count("insert_rows ×1", () => insertRows(deps, owner, { collection: "ins-0", rows: [{ title: `rt ${n++}` }] }));
  await count("insert_rows ×100", () =>
    insertRows(deps, owner, { collection: "ins-0", rows: Array.from({ length: 100 }, (_, k) => ({ title: `rt ${n}-${k}` })) }),
  );
  await count("update_row", () => updateRow(deps, owner, { collection: "tasks", rowId, values: { score: n++ } }));
  await database.client.close();
  return out;
}

export function formatWrites(r: WritesResult): string {
  const lines = [
    `writes through the MCP SDK client against the sidecar (SDK ${r.setup.sdk}), ${r.setup.durationSeconds} s per case; ` +
      `update_row in a table of ${r.setup.rows} rows with ${r.setup.otherRows} in other tables; other work before the run ${r.setup.backgroundCpuPercent ?? "-"} % of a core`,
    "",
    table(
      ["case", "conns", "writes/s", "p50 ms", "p99 ms", "errors", "CPU µs/write (process)", "db CPU µs/write", "other work %"],
      r.cases.map((c) => [
        c.target,
        c.connections,
        c.perSecond,
        fixed(c.p50Ms),
        fixed(c.p99Ms),
        c.errors,
        c.cpuUs.process ?? "-",
        c.cpuUs.database ?? "-",
        c.otherCpu ?? "-",
      ]),
    ),
    "",
    table(
      ["case", "conns", "× driver floor", "× SDK no-op"],
      r.ratios.map((x) => [x.target, x.connections, x.ofDriver === null ? "-" : fixed(x.ofDriver, 3), x.ofNoop === null ? "-" : fixed(x.ofNoop, 3)]),
    ),
    "",
    table(
      ["use case", "round trips before the answer", "after"],
      r.roundTrips.map((t) => [t.target, t.response, t.after]),
    ),
    "",
    `growth: update_page 1 KB with ${r.setup.growthPages} pages stored ${r.growth.large ?? "-"}/s against ${r.growth.small ?? "-"}/s with about 100: ${r.growth.ratio === null ? "-" : `${Math.round(r.growth.ratio * 1000) / 10} %`} (≥ 80 %)`,
  ];
  return lines.join("\n");
}
