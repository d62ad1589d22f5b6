// Issue 31 ("Done when"): backup and restore of an instance with 100,000 pages, time and peak
// memory. The pages are the artifact-read benchmark's (one real page written through the
// domain, then copies of its page, artifact and revision documents under new ids), in the
// embedded database. `pnpm backup` and `pnpm restore` run as the operator runs them (their
// own processes, under /usr/bin/time for the peak resident memory); the restore goes into an
// empty database and its counts are compared with the source's.
import { spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { REPO_ROOT } from "@atelier/shared/devtools/embedded-db";
import { connectDatabase } from "@atelier/shared/db";
import { seedFiller, seedPage, SLUG } from "./artifact-read";
import { startDatabase } from "./lib/atelier";
import { makeWorkDir } from "./lib/cleanup";
import { fixed, table } from "./lib/format";

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/artifact-page.md");

export interface BackupBenchOptions {
  pages: number;
  log: (line: string) => void;
}

interface Step {
  seconds: number;
  peakRssMb: number;
  output: string;
}

export interface BackupBenchResult {
  pages: number;
  documents: number;
  seedSeconds: number;
  archiveMb: number;
  backup: Step;
  restore: Step;
  countsEqual: boolean;
}

/** Runs `pnpm backup` / `pnpm restore`'s script as its own process under /usr/bin/time: wall seconds and peak RSS. */
function timed(script: "backup" | "restore", args: string[], env: Record<string, string>): Step {
  const r = spawnSync("/usr/bin/time", ["-f", "TIMED %e %M", path.join(REPO_ROOT, "node_modules/.bin/tsx"), `shared/src/devtools/${script}.ts`, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`pnpm ${script} failed (${r.status}): ${r.stderr.slice(-1000)}`);
  return parseTimed(`${r.stdout}\n${r.stderr}`);
}

function parseTimed(all: string): Step {
  const m = /TIMED ([\d.]+) (\d+)/.exec(all);
  if (!m) throw new Error(`no timing in: ${all.slice(-500)}`);
  return { seconds: Number(m[1]), peakRssMb: Math.round(Number(m[2]) / 1024), output: all.replace(/TIMED .*\n?/, "").trim() };
}

export async function backupBench(opts: BackupBenchOptions): Promise<BackupBenchResult> {
  const { log } = opts;
  if (!existsSync("/usr/bin/time")) throw new Error("the backup benchmark needs /usr/bin/time (Debian's package `time`)");
  const dir = makeWorkDir(log);
  const db = await startDatabase(dir, log);
  const env = { NODE_ENV: "production", SECRET_KEY: randomBytes(32).toString("base64url"), MONGODB_URI: db.uri, DATA_DIR: dir, BASE_URL: "http://127.0.0.1:1" };
  await seedPage(db.database, { ...env, MONGODB_DB: db.dbName }, readFileSync(FIXTURE, "utf8"));
  log(`seeding ${opts.pages} pages with a revision each…`);
  const t0 = performance.now();
  await seedFiller(db.database, opts.pages, log);
  // A revision for each page, as a page written once has.
  const revision = await db.database.c.revisions.findOne({});
  const page = await db.database.c.pages.findOne({ slug: SLUG });
  if (!revision || !page) throw new Error("the benchmark page has no revision");
  const ids = await db.database.c.pages.find({ slug: { $ne: SLUG } }, { projection: { _id: 1 } }).toArray();
  for (let i = 0; i < ids.length; i += 1000) {
    const batch = ids.slice(i, i + 1000).map((p) => ({ ...revision, _id: randomUUID(), pageId: p._id }));
    await db.database.c.revisions.insertMany(batch, { ordered: false });
  }
  const seedSeconds = Math.round((performance.now() - t0) / 100) / 10;
  const counts = async (name: string) => {
    const conn = await connectDatabase(db.uri, name, { appName: "atelier-bench-backup" });
    try {
      const out: Record<string, number> = {};
      for (const c of await conn.db.listCollections({}, { nameOnly: true }).toArray()) out[c.name] = await conn.db.collection(c.name).countDocuments({});
      return out;
    } finally {
      await conn.client.close();
    }
  };
  const source = await counts(db.dbName);
  const documents = Object.values(source).reduce((a, b) => a + b, 0);
  const file = path.join(dir, "backup.zip");
  log(`backing up ${documents} documents…`);
  const backup = timed("backup", [file], { ...env, MONGODB_DB: db.dbName });
  const archiveMb = Math.round(statSync(file).size / 1024 / 102.4) / 10;
  const target = `${db.dbName}_restored`;
  log("restoring into an empty database…");
  const restore = timed("restore", [file], { ...env, MONGODB_DB: target });
  const restored = await counts(target);
  const countsEqual = Object.entries(source).every(([k, v]) => k === "meta" || restored[k] === v);
  return { pages: opts.pages, documents, seedSeconds, archiveMb, backup, restore, countsEqual };
}

export function formatBackup(r: BackupBenchResult): string {
  return [
    `Backup and restore of ${r.pages.toLocaleString("en")} pages (${r.documents.toLocaleString("en")} documents; seeded in ${fixed(r.seedSeconds, 1)} s), archive ${fixed(r.archiveMb, 1)} MB`,
    table(
      ["step", "seconds", "peak RSS (MB)"],
      [
        ["pnpm backup", fixed(r.backup.seconds, 1), String(r.backup.peakRssMb)],
        ["pnpm restore (empty database)", fixed(r.restore.seconds, 1), String(r.restore.peakRssMb)],
      ],
    ),
    `restored counts equal the source's: ${r.countsEqual ? "yes" : "NO"}`,
  ].join("\n");
}
