// The backup and restore commands, shared by `pnpm backup` / `pnpm restore` (which may start
// the embedded database themselves: shared/src/devtools/backup.ts) and the production bundles
// `node server/dist/backup.js` / `restore.js` (which use MONGODB_URI or the running service's
// embedded database). deploy/README.md, "Backups", is the guide.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { MongoClient } from "mongodb";
import { loadConfigOrExit, type Config } from "../config";
import { backupDatabase } from "./backup";
import { BackupError } from "./format";
import { restoreDatabase, verifyBackup } from "./restore";

/** Where `pnpm start` and `pnpm dev` note the embedded database's address while it runs. */
export const runningUriFile = (dataDir: string) => path.join(dataDir, "db", "running-uri");

/** Notes the running embedded database's address for the backup commands; returns the undo. */
export function recordRunningDb(dataDir: string, uri: string): () => void {
  const file = runningUriFile(dataDir);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, uri, { mode: 0o600 });
  return () => rmSync(file, { force: true });
}

async function answers(uri: string): Promise<boolean> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 1_500 });
  try {
    await client.connect();
    await client.db("admin").command({ ping: 1 });
    return true;
  } catch {
    return false;
  } finally {
    await client.close().catch(() => {});
  }
}

/** MONGODB_URI, else the running service's embedded database, else null. */
export async function instanceUri(config: Config): Promise<string | null> {
  if (config.MONGODB_URI) return config.MONGODB_URI;
  const file = runningUriFile(config.DATA_DIR);
  if (existsSync(file)) {
    const uri = readFileSync(file, "utf8").trim();
    if (/^mongodb:\/\/127\.0\.0\.1:\d+\/$/.test(uri) && (await answers(uri))) return uri;
  }
  return null;
}

export interface OpenedDb {
  uri: string;
  /** Started by this command: no other process can write to it. */
  exclusive: boolean;
  stop(): Promise<void>;
}
export type OpenDb = (config: Config) => Promise<OpenedDb>;

/** For the bundles: the configured or running database, never one started here. */
export const openRunningDb: OpenDb = async (config) => {
  const uri = await instanceUri(config);
  if (!uri)
    throw new Error(
      "no database to use: set MONGODB_URI, or run this while `pnpm start` runs the embedded database (or use `pnpm backup` / `pnpm restore`, which start it)",
    );
  return { uri, exclusive: false, stop: async () => {} };
};

const USAGE = {
  backup: "usage: backup [FILE] [--require-consistent]\n  FILE defaults to BACKUP_DIR/atelier-<UTC time>.zip",
  restore:
    "usage: restore FILE [--replace] [--check]\n  --replace  drop the database's current data first\n  --check    verify the archive only; write nothing",
};

function parse(argv: string[], flags: string[]): { files: string[]; flags: Set<string> } | null {
  const files: string[] = [];
  const set = new Set<string>();
  for (const a of argv) {
    if (a.startsWith("--")) {
      if (!flags.includes(a)) return null;
      set.add(a);
    } else files.push(a);
  }
  return { files, flags: set };
}

// pnpm runs scripts at the repository root; INIT_CWD is where the command was typed (set by
// pnpm, not configuration).
// eslint-disable-next-line no-restricted-properties
const resolveArg = (f: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), f);

const stamp = () =>
  new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");

async function withDb<T>(config: Config, open: OpenDb, fn: (client: MongoClient, exclusive: boolean) => Promise<T>): Promise<T> {
  const opened = await open(config);
  const client = new MongoClient(opened.uri, { serverSelectionTimeoutMS: 10_000, appName: "atelier-backup" });
  try {
    await client.connect();
    return await fn(client, opened.exclusive);
  } finally {
    await client.close().catch(() => {});
    await opened.stop();
  }
}

const fail = (err: unknown): number => {
  const code = err instanceof BackupError ? ` (${err.code})` : "";
  process.stderr.write(`refused${code}: ${err instanceof Error ? err.message : String(err)}\n`);
  return 1;
};

export async function backupCommand(argv: string[], open: OpenDb): Promise<number> {
  const args = parse(argv, ["--require-consistent"]);
  if (!args || args.files.length > 1) {
    process.stderr.write(`${USAGE.backup}\n`);
    return 2;
  }
  const config = loadConfigOrExit();
  const file = args.files[0] ? resolveArg(args.files[0]) : path.join(path.resolve(config.BACKUP_DIR), `atelier-${stamp()}.zip`);
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    const started = Date.now();
    const manifest = await withDb(config, open, (client, exclusive) =>
      backupDatabase(client, client.db(config.MONGODB_DB), file, { requireConsistent: args.flags.has("--require-consistent"), exclusive }),
    );
    const docs = manifest.collections.reduce((n, c) => n + c.count, 0);
    process.stdout.write(
      `backed up ${docs} documents in ${manifest.collections.length} collections (schema ${manifest.schemaVersion}, ${manifest.consistency}) to ${file} in ${Date.now() - started} ms\n`,
    );
    if (manifest.consistency === "per-document") {
      process.stdout.write(
        "note: this database offers no snapshot: documents written during the backup may be partly in it; stop the service for an exact copy\n",
      );
    }
    return 0;
  } catch (err) {
    return fail(err);
  }
}

export async function restoreCommand(argv: string[], open: OpenDb): Promise<number> {
  const args = parse(argv, ["--replace", "--check"]);
  const given = args?.files[0];
  if (!args || !given || args.files.length !== 1) {
    process.stderr.write(`${USAGE.restore}\n`);
    return 2;
  }
  const file = resolveArg(given);
  const config = loadConfigOrExit();
  try {
    if (args.flags.has("--check")) {
      const m = await verifyBackup(file);
      process.stdout.write(`${file} is whole: ${m.collections.length} collections, schema ${m.schemaVersion}, Atelier ${m.atelierVersion}, ${m.createdAt}\n`);
      return 0;
    }
    const started = Date.now();
    const r = await withDb(config, open, (client) => restoreDatabase(client.db(config.MONGODB_DB), file, { replace: args.flags.has("--replace") }));
    const migrated = r.migratedFrom !== null ? `, migrated from schema ${r.migratedFrom}` : "";
    process.stdout.write(`restored ${r.documents} documents into ${config.MONGODB_DB} from ${file}${migrated} in ${Date.now() - started} ms\n`);
    return 0;
  } catch (err) {
    return fail(err);
  }
}
