// `pnpm bench`: runs every benchmark (or those named, e.g. `pnpm bench mcp rows`, or with
// --only), prints a table per benchmark and writes bench/results/<name>.json. Everything
// runs on loopback and stops by itself; Ctrl-C stops whatever was started.
//
//   pnpm bench                          every benchmark with the defaults
//   pnpm bench mcp                      one benchmark: artifact-read, mcp or rows
//   pnpm bench --profile                also profile the server / sidecar under load (node --cpu-prof)
//   pnpm bench --duration 5 --warmup 1  shorter cases
//   pnpm bench --server tsx             the server from its sources under tsx, not the production bundle
//   pnpm bench mcp --rounds 3           measure the MCP targets side by side three times (ratios per round)
//   pnpm bench rows --rows 2000         a smaller table
//   pnpm bench rows --other-rows 0      without the 100,000 rows in other tables (--direct: driver queries too)
//   pnpm bench storage                  the embedded database's stores side by side (SQLite, PostgreSQL)
//   pnpm bench storage --docs 100,10000 without the 100,000-document case
//   pnpm bench backup --pages 10000     pnpm backup and pnpm restore of 10,000 pages (default 100,000)
//   pnpm bench live --subscribers 100 --idle 1000 --changes 30   the live streams' fan-out and memory, and /a
//     through nginx with 0, 100, 1000 streams open (LIVE_STREAM_LEVELS, LIVE_WRK_SECONDS, LIVE_CHANGE_MS, LIVE_WRK_CONNECTIONS)
//   pnpm bench writes                   the writes through the MCP SDK client, with the SDK and driver floors
//                                       (sizes by env: WRITES_SECONDS, WRITES_CONNECTIONS, WRITES_ROWS,
//                                       WRITES_OTHER_ROWS, WRITES_GROWTH_PAGES; WRITES_ONLY=growth runs only the growth case)
//   pnpm bench search                   search over 100,000 pages (BENCH_SEARCH_PAGES=10000 for fewer; BENCH_SEARCH_QUERIES per set, 200)
//   pnpm bench --connections 1,50 --log-levels info,warn --threads 1 --only artifact-read
//   pnpm bench artifact-read --no-growth --before-nginx OLD.conf --before-server server/dist/OLD.js
//                                       without the 100,000-page growth cases; an earlier nginx.conf and an
//                                       earlier server bundle (copied into server/dist) measured side by side
//   pnpm bench mcp --before-sidecar mcp-sidecar/dist/OLD.js   an earlier sidecar bundle beside the current one
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { arch, availableParallelism, constants, cpus, getPriority, platform, release, setPriority, totalmem } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "@atelier/shared/devtools/embedded-db";
import { artifactRead, formatArtifactRead } from "./artifact-read";
import type { ServerBuild } from "./lib/atelier";
import { runWithCleanup } from "./lib/cleanup";
import { shareAutogroupPriority } from "./lib/service";
import { formatLive, liveBench } from "./live";
import { formatViews, viewsBench } from "./views";
import { formatMcp, mcpBench } from "./mcp";
import { formatRows, rowsBench } from "./rows";
import { formatStorage, storageBench } from "./storage";
import { backupBench, formatBackup } from "./backup";
import { formatWrites, writesBench } from "./writes";
import { formatSearch, searchBench } from "./search";

const RESULTS_DIR = path.join(REPO_ROOT, "bench/results");

const { values, positionals } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "--"),
  allowPositionals: true,
  options: {
    only: { type: "string" },
    rounds: { type: "string", default: "1" },
    rows: { type: "string", default: "10000" },
    "other-rows": { type: "string", default: "100000" },
    direct: { type: "boolean", default: false },
    "max-duration": { type: "string", default: "150" },
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "1,50" },
    threads: { type: "string", default: "1" },
    "log-levels": { type: "string", default: "info,warn" },
    profile: { type: "boolean", default: false },
    "no-node-http": { type: "boolean", default: false },
    "no-growth": { type: "boolean", default: false },
    "before-nginx": { type: "string" },
    "before-server": { type: "string" },
    "before-sidecar": { type: "string" },
    "no-nice": { type: "boolean", default: false },
    server: { type: "string", default: "dist" },
    docs: { type: "string", default: "100,10000,100000" },
    backends: { type: "string", default: "sqlite,postgresql" },
    "case-ms": { type: "string", default: "1500" },
    pages: { type: "string", default: "100000" },
    subscribers: { type: "string", default: "100" },
    idle: { type: "string", default: "1000" },
    changes: { type: "string", default: "30" },
    help: { type: "boolean", short: "h", default: false },
  },
});

function positiveInt(name: string, v: string | undefined): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, not "${v}"`);
  return n;
}

const connections = () => (values.connections ?? "1,50").split(",").map((c) => positiveInt("connections", c));
/** The MCP benchmarks run the sidecar at the first of --log-levels (info by default). */
const mainLogLevel = () => (values["log-levels"] ?? "info").split(",").filter(Boolean)[0] ?? "info";

function serverBuild(v: string | undefined): ServerBuild {
  if (v === "dist" || v === "tsx") return v;
  throw new Error(`--server must be dist or tsx, not "${v}"`);
}

/** list_rows pages 50 rows at a time: a smaller table would not fill the first page. */
const BATCH_MIN = 100;

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

function gitCommit(): string | null {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: REPO_ROOT, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: REPO_ROOT, encoding: "utf8" }).trim() !== "";
    return dirty ? `${sha} (with uncommitted changes)` : sha;
  } catch {
    return null;
  }
}

/**
 * Every process of a run (database, servers, nginx, wrk) inherits this process's priority.
 * Raised where allowed (root), so other work on a shared machine disturbs the figures less.
 * With scheduler autogroups the session's group is raised too (the run's own sessions only).
 */
function raisePriority(): number {
  if (!values["no-nice"]) {
    try {
      setPriority(constants.priority.PRIORITY_HIGH);
      shareAutogroupPriority("self");
    } catch {
      // not allowed (not root): run at the normal priority
    }
  }
  return getPriority();
}

function machine() {
  return {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${platform()} ${release()} ${arch()}`,
    node: process.version,
  };
}

const BENCHMARKS = {
  "artifact-read": async () => {
    const result = await artifactRead({
      durationSeconds: positiveInt("duration", values.duration),
      warmupSeconds: positiveInt("warmup", values.warmup),
      connections: (values.connections ?? "1,50").split(",").map((c) => positiveInt("connections", c)),
      threads: Math.max(1, positiveInt("threads", values.threads)),
      logLevels: (values["log-levels"] ?? "info").split(",").filter(Boolean),
      profile: values.profile ?? false,
      nodeHttp: !(values["no-node-http"] ?? false),
      growth: !(values["no-growth"] ?? false),
      beforeNginxConfs: (values["before-nginx"] ?? "").split(",").filter(Boolean),
      beforeServerBundle: values["before-server"] ?? null,
      serverBuild: serverBuild(values.server),
      resultsDir: RESULTS_DIR,
      log,
    });
    return { result, text: formatArtifactRead(result) };
  },
  mcp: async () => {
    const result = await mcpBench({
      durationSeconds: positiveInt("duration", values.duration),
      warmupSeconds: positiveInt("warmup", values.warmup),
      connections: connections(),
      threads: Math.max(1, positiveInt("threads", values.threads)),
      rounds: Math.max(1, positiveInt("rounds", values.rounds)),
      logLevel: mainLogLevel(),
      serverBuild: serverBuild(values.server),
      beforeSidecarBundle: values["before-sidecar"] ?? null,
      profile: values.profile ?? false,
      resultsDir: RESULTS_DIR,
      log,
    });
    return { result, text: formatMcp(result) };
  },
  rows: async () => {
    const result = await rowsBench({
      rows: Math.max(BATCH_MIN, positiveInt("rows", values.rows)),
      otherRows: positiveInt("other-rows", values["other-rows"]),
      direct: values.direct ?? false,
      durationSeconds: positiveInt("duration", values.duration),
      maxDurationSeconds: Math.max(positiveInt("duration", values.duration), positiveInt("max-duration", values["max-duration"])),
      warmupSeconds: positiveInt("warmup", values.warmup),
      connections: connections(),
      threads: Math.max(1, positiveInt("threads", values.threads)),
      logLevel: mainLogLevel(),
      serverBuild: serverBuild(values.server),
      profile: values.profile ?? false,
      resultsDir: RESULTS_DIR,
      log,
    });
    return { result, text: formatRows(result) };
  },
  storage: async () => {
    const backends = (values.backends ?? "").split(",").filter(Boolean);
    for (const b of backends) if (b !== "sqlite" && b !== "postgresql") throw new Error(`--backends takes sqlite and postgresql, not "${b}"`);
    const result = await storageBench({
      docCounts: [...new Set((values.docs ?? "").split(",").map((d) => Math.max(1, positiveInt("docs", d))))].sort((a, b) => a - b),
      backends: backends as ("sqlite" | "postgresql")[],
      caseMs: positiveInt("case-ms", values["case-ms"]),
      rounds: Math.max(1, positiveInt("rounds", values.rounds === "1" ? "3" : values.rounds)),
      log,
    });
    return { result, text: formatStorage(result) };
  },
  backup: async () => {
    const result = await backupBench({ pages: Math.max(1, positiveInt("pages", values.pages)), log });
    return { result, text: formatBackup(result) };
  },
  search: async () => {
    const result = await searchBench({
      pages: Math.max(100, positiveInt("BENCH_SEARCH_PAGES", process.env.BENCH_SEARCH_PAGES ?? "100000")),
      queries: Math.max(10, positiveInt("BENCH_SEARCH_QUERIES", process.env.BENCH_SEARCH_QUERIES ?? "200")),
      log,
    });
    return { result, text: formatSearch(result) };
  },
  live: async () => {
    const result = await liveBench({
      subscribers: Math.max(1, positiveInt("subscribers", values.subscribers)),
      idle: Math.max(1, positiveInt("idle", values.idle)),
      rounds: Math.max(1, positiveInt("changes", values.changes)),
      serverBuild: serverBuild(values.server),
      log,
    });
    return { result, text: formatLive(result) };
  },
  views: async () => {
    const env = (k: string, d: string) => positiveInt(k, process.env[k] ?? d);
    const result = await viewsBench({
      rounds: Math.max(1, env("VIEWS_ROUNDS", "3")),
      seconds: Math.max(1, env("VIEWS_SECONDS", "10")),
      connections: Math.max(1, env("VIEWS_CONNECTIONS", "16")),
      log,
    });
    return { result, text: formatViews(result) };
  },
  writes: async () => {
    const env = (k: string, d: string) => positiveInt(k, process.env[k] ?? d);
    const result = await writesBench({
      durationSeconds: env("WRITES_SECONDS", "10"),
      connections: (process.env.WRITES_CONNECTIONS ?? "1,10").split(",").map((c) => Math.max(1, positiveInt("WRITES_CONNECTIONS", c))),
      rows: Math.max(1, env("WRITES_ROWS", "10000")),
      otherRows: env("WRITES_OTHER_ROWS", "100000"),
      growthPages: env("WRITES_GROWTH_PAGES", "100000"),
      growthOnly: process.env.WRITES_ONLY === "growth",
      serverBuild: serverBuild(values.server),
      logLevel: mainLogLevel(),
      profile: values.profile ?? false,
      resultsDir: RESULTS_DIR,
      only: process.env.WRITES_CASES ? process.env.WRITES_CASES.split(";").map((c) => c.trim()) : null,
      log,
    });
    return { result, text: formatWrites(result) };
  },
} satisfies Record<string, () => Promise<{ result: unknown; text: string }>>;

type BenchmarkName = keyof typeof BENCHMARKS;

if (values.help) {
  process.stdout.write(`${readUsage()}\nbenchmarks: ${Object.keys(BENCHMARKS).join(", ")}\n`);
} else {
  const nice = raisePriority();
  log(`running at nice ${nice}${nice < 0 ? " (raised, so other work disturbs the figures less; --no-nice to keep it)" : ""}`);
  await runWithCleanup(async () => {
    const named = [...positionals, ...(values.only ? values.only.split(",") : [])].filter(Boolean);
    const names = (named.length > 0 ? [...new Set(named)] : Object.keys(BENCHMARKS)) as BenchmarkName[];
    for (const name of names) {
      if (!(name in BENCHMARKS)) throw new Error(`no benchmark "${name}"; there are: ${Object.keys(BENCHMARKS).join(", ")}`);
    }
    for (const name of names) {
      const startedAt = new Date();
      log(`${name}: starting`);
      const { result, text } = await BENCHMARKS[name]();
      process.stdout.write(`\n${text}\n\n`);
      mkdirSync(RESULTS_DIR, { recursive: true });
      const file = path.join(RESULTS_DIR, `${name}.json`);
      const record = {
        startedAt: startedAt.toISOString(),
        seconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
        commit: gitCommit(),
        machine: machine(),
        nice,
        result,
      };
      writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
      log(`${name}: done in ${record.seconds} s; results in ${path.relative(REPO_ROOT, file)}`);
    }
  });
}

function readUsage(): string {
  return (
    `usage: pnpm bench [NAME…] [--only NAME[,NAME]] [--duration S] [--warmup S] [--connections 1,50] [--threads N] [--log-levels info,warn] ` +
    `[--server dist|tsx] [--no-node-http] [--no-growth] [--before-nginx CONF[,CONF]] [--before-server BUNDLE] (artifact-read) [--before-sidecar BUNDLE] (mcp) [--no-nice] [--profile] [--rounds N (mcp, storage)] [--rows N] [--other-rows N] [--direct] [--max-duration S] (rows) ` +
    `[--docs 100,10000,100000] [--backends sqlite,postgresql] [--case-ms MS] (storage)`
  );
}
