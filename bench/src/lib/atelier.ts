// The Atelier side of a benchmark: the database (embedded unless MONGODB_URI is set), data
// seeded straight through the shared domain, and the real server or MCP sidecar process as
// production runs it (NODE_ENV=production, its own process, its own log).
import { randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { loadConfig, type Config } from "@atelier/shared/config";
import { connectDatabase, type Database } from "@atelier/shared/db";
import { REPO_ROOT, startEmbeddedDb } from "@atelier/shared/devtools/embedded-db";
import { productionNodeFlags } from "@atelier/shared/process";
import { onCleanup } from "./cleanup";
import type { CpuTarget } from "./cpu";
import { shareAutogroupPriority, startService, waitUntilReady, type Service } from "./service";

export interface AtelierDb {
  uri: string;
  dbName: string;
  kind: string;
  /** pid of the embedded database process, when this run started one */
  pid: number | undefined;
  /** what to account as the database's CPU: FerretDB, and PostgreSQL's processes when it stores there */
  cpu: CpuTarget | undefined;
  database: Database;
}

/** Starts (or reaches) the database and connects to a fresh database name, dropped at the end. */
export async function startDatabase(dataDir: string, log: (line: string) => void): Promise<AtelierDb> {
  const db = await startEmbeddedDb({ dataDir: path.join(dataDir, "db"), mongodbUri: process.env.MONGODB_URI, log });
  onCleanup("database", () => db.stop());
  if (db.postgresPid !== undefined) shareAutogroupPriority(db.postgresPid);
  const dbName = `bench_${randomBytes(4).toString("hex")}`;
  const database = await connectDatabase(db.uri, dbName, { appName: "atelier-bench" });
  onCleanup("database connection", async () => {
    // With an external server the data must not outlive the run; an embedded one goes with its temp dir.
    if (db.kind === "external") await database.db.dropDatabase().catch(() => {});
    await database.client.close();
  });
  const cpu: CpuTarget[] = [];
  if (db.pid !== undefined) cpu.push({ pid: db.pid });
  if (db.postgresPid !== undefined) cpu.push({ tree: db.postgresPid });
  return { uri: db.uri, dbName, kind: db.kind, pid: db.pid, cpu: cpu.length > 0 ? { all: cpu } : undefined, database };
}

/**
 * The environment the server (or the sidecar) runs with; the same values configure the
 * seeding. Each process listens on `port` (the server reads SERVER_PORT, the sidecar
 * SIDECAR_PORT) and BASE_URL is that process itself.
 */
export function serverEnv(opts: { db: AtelierDb; port: number; dataDir: string; logLevel: string }): Record<string, string> {
  return {
    NODE_ENV: "production",
    SECRET_KEY: randomBytes(32).toString("base64url"),
    MONGODB_URI: opts.db.uri,
    MONGODB_DB: opts.db.dbName,
    SERVER_PORT: String(opts.port),
    SIDECAR_PORT: String(opts.port),
    LISTEN_HOST: "127.0.0.1",
    BASE_URL: `http://127.0.0.1:${opts.port}`,
    LOG_LEVEL: opts.logLevel,
    DATA_DIR: opts.dataDir,
  };
}

export function configFor(env: Record<string, string>): Config {
  return loadConfig(env);
}

/** How the server runs: `dist` is production's `node server/dist/main.js`; `tsx` runs the sources. */
export type ServerBuild = "dist" | "tsx";

/** The two Node processes of Atelier: the server, and the MCP sidecar at /mcp. */
export type AtelierPackage = "server" | "mcp-sidecar";

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * Makes sure <pkg>/dist/main.js is built from the current sources, running the same
 * build as `pnpm build` (shared/src/devtools/build.ts) when it is missing or older.
 */
export function ensureServerBuild(log: (line: string) => void, pkg: AtelierPackage = "server"): void {
  const bundle = path.join(REPO_ROOT, pkg, "dist/main.js");
  const sources = Math.max(...[`${pkg}/src`, "shared/src"].map((d) => newestMtime(path.join(REPO_ROOT, d))));
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= sources) return;
  log(`building ${pkg}/dist/main.js from the current sources (shared/src/devtools/build.ts)…`);
  execFileSync(path.join(REPO_ROOT, "node_modules/.bin/tsx"), ["shared/src/devtools/build.ts"], { cwd: REPO_ROOT, stdio: ["ignore", "ignore", "inherit"] });
}

/**
 * Starts the server (or, with `pkg: "mcp-sidecar"`, the sidecar) and waits for /healthz:
 * the production bundle as `pnpm start` runs it (`node <pkg>/dist/main.js`),
 * or the sources under tsx. `nodeFlags` (e.g. `--cpu-prof`, which NODE_OPTIONS does not
 * accept) go to node.
 */
export async function startServer(opts: {
  env: Record<string, string>;
  logFile: string;
  name: string;
  build: ServerBuild;
  nodeFlags?: string[];
  pkg?: AtelierPackage;
  /** Another bundle to run instead of <pkg>/dist/main.js (a copy of an earlier build, to compare side by side). */
  bundle?: string;
}): Promise<Service> {
  mkdirSync(opts.env.DATA_DIR ?? ".", { recursive: true });
  const serverDir = path.join(REPO_ROOT, opts.pkg ?? "server");
  const flags = opts.nodeFlags ?? [];
  const [command, args] =
    opts.build === "dist"
      ? [process.execPath, [...productionNodeFlags({ NODE_OPTIONS: process.env.ATELIER_BENCH_NODE_OPTIONS }), ...flags, opts.bundle ?? "dist/main.js"]]
      : flags.length > 0
        ? [process.execPath, [...flags, "--import", "tsx", "src/main.ts"]]
        : [path.join(serverDir, "node_modules/.bin/tsx"), ["src/main.ts"]];
  const service = startService({
    name: opts.name,
    command,
    args,
    cwd: serverDir,
    // ATELIER_BENCH_NODE_OPTIONS reaches the measured processes as NODE_OPTIONS (e.g. a heap cap, to see what RSS is made of).
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...(process.env.ATELIER_BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.ATELIER_BENCH_NODE_OPTIONS } : {}),
      ...opts.env,
    },
    logFile: opts.logFile,
  });
  await waitUntilReady(service, `${opts.env.BASE_URL}/healthz`, 90_000);
  return service;
}
