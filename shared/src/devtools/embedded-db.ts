// The embedded database (docs/ARCHITECTURE.md#the-embedded-database), for `pnpm dev` and the tests: MONGODB_URI when set,
// else a `mongod` found on PATH, else FerretDB v1.24.2 built on first use with the local Go
// toolchain into .tools/bin. It never reaches the network at run time.
//
// EMBEDDED_DB_BACKEND chooses FerretDB's store: `sqlite` (the default: files in the data
// folder) or `postgresql` (a cluster of Debian's PostgreSQL in the data folder, started and
// stopped with FerretDB; embedded-postgres.ts). Set, it wins over a `mongod` on PATH.
// EMBEDDED_DB_LOOKUP_INDEXES=false turns off the indexes our wrapper adds so that FerretDB's
// own lookups use an index (shared/embedded-db/ferretdb/lookup_indexes.go). The figures
// behind both defaults: docs/performance.md, "Choosing the embedded database".
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MongoClient } from "mongodb";
import { startPostgres, type EmbeddedPostgres } from "./embedded-postgres";

export { findPostgresBin } from "./embedded-postgres";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const FERRET_SRC = path.join(REPO_ROOT, "shared/embedded-db/ferretdb");
const TOOLS_BIN = path.join(REPO_ROOT, ".tools/bin");
const FERRET_BIN = path.join(TOOLS_BIN, "atelier-ferretdb");

export type EmbeddedDbBackend = "sqlite" | "postgresql";

export interface EmbeddedDb {
  uri: string;
  kind: "external" | "mongod" | "ferretdb";
  /** FerretDB's store, when kind is ferretdb. */
  backend?: EmbeddedDbBackend;
  /** The FerretDB (or mongod) process. */
  pid: number | undefined;
  /** The PostgreSQL postmaster; every backend is its child. */
  postgresPid?: number;
  stop(): Promise<void>;
}

export interface EmbeddedDbOptions {
  /** MONGODB_URI from the configuration; when set nothing is started. */
  mongodbUri?: string | undefined;
  /** Folder for the database files. */
  dataDir: string;
  /** TCP port; a free one is picked when omitted. */
  port?: number;
  log?: (line: string) => void;
  /** FerretDB's store; default EMBEDDED_DB_BACKEND, else sqlite. */
  backend?: EmbeddedDbBackend;
  /** Indexes that FerretDB's own lookups use; default EMBEDDED_DB_LOOKUP_INDEXES, else on. */
  lookupIndexes?: boolean;
  /** Run write commands one at a time (the default). Off only to measure what breaks without. */
  serializeWrites?: boolean;
}

export class EmbeddedDbError extends Error {
  override name = "EmbeddedDbError";
}

function onPath(cmd: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, cmd);
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === "object" && addr ? resolve(addr.port) : reject(new Error("no port"))));
    });
  });
}

/** EMBEDDED_DB_BACKEND and EMBEDDED_DB_LOOKUP_INDEXES, checked; a bad value stops start-up naming it. */
export function embeddedDbSettings(env: Record<string, string | undefined> = process.env): {
  backend: EmbeddedDbBackend | undefined;
  lookupIndexes: boolean;
} {
  const backend = env.EMBEDDED_DB_BACKEND || undefined;
  if (backend !== undefined && backend !== "sqlite" && backend !== "postgresql") {
    throw new EmbeddedDbError(`EMBEDDED_DB_BACKEND must be sqlite or postgresql, not "${backend}".`);
  }
  const lookups = env.EMBEDDED_DB_LOOKUP_INDEXES || "true";
  if (lookups !== "true" && lookups !== "false") {
    throw new EmbeddedDbError(`EMBEDDED_DB_LOOKUP_INDEXES must be true or false, not "${lookups}".`);
  }
  return { backend, lookupIndexes: lookups === "true" };
}

function sourceStamp(): string {
  const h = createHash("sha256");
  const files = [
    "go.mod",
    "go.sum",
    ...readdirSync(FERRET_SRC)
      .filter((f) => f.endsWith(".go"))
      .sort(),
  ];
  for (const f of files) h.update(f).update(readFileSync(path.join(FERRET_SRC, f)));
  return h.digest("hex");
}

/** Builds the FerretDB wrapper unless an up-to-date binary is already there. Returns its path. */
export function ensureFerretDb(log: (line: string) => void = () => {}): string {
  const stampFile = `${FERRET_BIN}.stamp`;
  const stamp = sourceStamp();
  if (existsSync(FERRET_BIN) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) return FERRET_BIN;
  const go = onPath("go") ?? (existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : null);
  if (!go) {
    throw new EmbeddedDbError(
      "No database available: MONGODB_URI is not set, no `mongod` is on PATH, and Go is not installed to build " +
        "the embedded FerretDB.\nDo one of: install Go 1.22 or newer (https://go.dev/dl/) and run again; " +
        "install MongoDB's `mongod` on PATH; or set MONGODB_URI=mongodb://host:27017 to use an existing server.",
    );
  }
  log("building the embedded FerretDB v1.24.2 with Go (first run only, about two minutes)…");
  mkdirSync(TOOLS_BIN, { recursive: true });
  const r = spawnSync(go, ["build", "-trimpath", "-o", FERRET_BIN, "."], {
    cwd: FERRET_SRC,
    env: { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=readonly", CGO_ENABLED: "0" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (r.status !== 0) {
    throw new EmbeddedDbError(`Building FerretDB failed (go build exited ${r.status ?? r.signal}); see the output above.`);
  }
  writeFileSync(stampFile, stamp);
  return FERRET_BIN;
}

async function waitForServer(uri: string, child: ChildProcess, output: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new EmbeddedDbError(`The database process exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    }
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 500, connectTimeoutMS: 500 });
    try {
      await client.connect();
      await client.db("admin").command({ ping: 1 });
      return;
    } catch (err) {
      lastError = err;
    } finally {
      await client.close().catch(() => {});
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new EmbeddedDbError(`The database did not answer within ${timeoutMs} ms: ${String(lastError)}\n${output()}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export async function startEmbeddedDb(opts: EmbeddedDbOptions): Promise<EmbeddedDb> {
  const log = opts.log ?? (() => {});
  if (opts.mongodbUri) {
    return { uri: opts.mongodbUri, kind: "external", pid: undefined, stop: async () => {} };
  }
  const settings = embeddedDbSettings();
  const chosen = opts.backend ?? settings.backend;
  const mongod = chosen ? null : onPath("mongod");
  let child: ChildProcess;
  let kind: EmbeddedDb["kind"];
  let backend: EmbeddedDbBackend | undefined;
  let postgres: EmbeddedPostgres | undefined;
  let port = opts.port ?? 0;
  if (mongod) {
    const dir = path.join(opts.dataDir, "mongod");
    mkdirSync(dir, { recursive: true });
    kind = "mongod";
    port ||= await freePort();
    child = spawn(mongod, ["--dbpath", dir, "--port", String(port), "--bind_ip", "127.0.0.1", "--quiet"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
  } else {
    const bin = ensureFerretDb(log);
    kind = "ferretdb";
    backend = chosen ?? "sqlite";
    const args = ["--handler", backend];
    if (backend === "postgresql") {
      postgres = await startPostgres({ dir: path.join(opts.dataDir, "postgresql"), log }).catch((err: unknown) => {
        throw new EmbeddedDbError(err instanceof Error ? err.message : String(err));
      });
      args.push("--postgresql-url", postgres.url);
    } else {
      const dir = path.join(opts.dataDir, "ferretdb");
      mkdirSync(dir, { recursive: true });
      args.push("--sqlite-url", `file:${dir}/`);
    }
    args.push(`--lookup-indexes=${opts.lookupIndexes ?? settings.lookupIndexes}`, `--serialize-writes=${opts.serializeWrites ?? true}`);
    // Picked only now (PostgreSQL takes seconds to start): the less time between picking a free
    // port and binding it, the less chance another process takes it meanwhile.
    port ||= await freePort();
    child = spawn(bin, ["--listen-addr", `127.0.0.1:${port}`, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  }
  let out = "";
  const keep = (b: Buffer) => {
    out = (out + b.toString("utf8")).slice(-8_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const stop = async () => {
    await stopChild(child);
    await postgres?.stop();
  };
  const uri = `mongodb://127.0.0.1:${port}/`;
  try {
    await waitForServer(uri, child, () => out);
  } catch (err) {
    await stop();
    throw err;
  }
  log(`${kind}${backend ? ` (${backend})` : ""} is up at ${uri} (data in ${opts.dataDir})`);
  return { uri, kind, backend, pid: child.pid, postgresPid: postgres?.pid, stop };
}
