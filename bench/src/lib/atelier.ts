// The Atelier side of a benchmark: the database (embedded unless MONGODB_URI is set), data
// seeded straight through the shared domain, and the real server process as production
// runs it (NODE_ENV=production, its own process, its own log).
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { loadConfig, type Config } from "@atelier/shared/config";
import { connectDatabase, type Database } from "@atelier/shared/db";
import { REPO_ROOT, startEmbeddedDb } from "@atelier/shared/devtools/embedded-db";
import { onCleanup } from "./cleanup";
import { startService, waitUntilReady, type Service } from "./service";

export interface AtelierDb {
  uri: string;
  dbName: string;
  kind: string;
  /** pid of the embedded database process, when this run started one */
  pid: number | undefined;
  database: Database;
}

/** Starts (or reaches) the database and connects to a fresh database name, dropped at the end. */
export async function startDatabase(dataDir: string, log: (line: string) => void): Promise<AtelierDb> {
  const db = await startEmbeddedDb({ dataDir: path.join(dataDir, "db"), mongodbUri: process.env.MONGODB_URI, log });
  onCleanup("database", () => db.stop());
  const dbName = `bench_${randomBytes(4).toString("hex")}`;
  const database = await connectDatabase(db.uri, dbName, { appName: "atelier-bench" });
  onCleanup("database connection", async () => {
    // With an external server the data must not outlive the run; an embedded one goes with its temp dir.
    if (db.kind === "external") await database.db.dropDatabase().catch(() => {});
    await database.client.close();
  });
  return { uri: db.uri, dbName, kind: db.kind, pid: db.pid, database };
}

/** The environment the server runs with; the same values configure the seeding. */
export function serverEnv(opts: { db: AtelierDb; port: number; dataDir: string; logLevel: string }): Record<string, string> {
  return {
    NODE_ENV: "production",
    SECRET_KEY: randomBytes(32).toString("base64url"),
    MONGODB_URI: opts.db.uri,
    MONGODB_DB: opts.db.dbName,
    SERVER_PORT: String(opts.port),
    LISTEN_HOST: "127.0.0.1",
    BASE_URL: `http://127.0.0.1:${opts.port}`,
    LOG_LEVEL: opts.logLevel,
    DATA_DIR: opts.dataDir,
  };
}

export function configFor(env: Record<string, string>): Config {
  return loadConfig(env);
}

/**
 * Starts `server/src/main.ts` under tsx, as `pnpm start` would, and waits for /healthz.
 * With `nodeFlags` (e.g. `--cpu-prof`, which NODE_OPTIONS does not accept) it runs
 * `node FLAGS --import tsx src/main.ts` instead: the same loader in a single process.
 */
export async function startServer(opts: {
  env: Record<string, string>;
  logFile: string;
  name: string;
  nodeFlags?: string[];
}): Promise<Service> {
  mkdirSync(opts.env.DATA_DIR ?? ".", { recursive: true });
  const serverDir = path.join(REPO_ROOT, "server");
  const [command, args] = opts.nodeFlags
    ? [process.execPath, [...opts.nodeFlags, "--import", "tsx", "src/main.ts"]]
    : [path.join(serverDir, "node_modules/.bin/tsx"), ["src/main.ts"]];
  const service = startService({
    name: opts.name,
    command,
    args,
    cwd: serverDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...opts.env },
    logFile: opts.logFile,
  });
  await waitUntilReady(service, `${opts.env.BASE_URL}/healthz`, 90_000);
  return service;
}
