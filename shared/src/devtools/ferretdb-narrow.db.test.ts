// The embedded FerretDB front's narrowed writes (shared/embedded-db/ferretdb/narrow.go), seen
// from outside: FerretDB logs every SQL statement it runs at debug level, so the test reads
// what SQLite was asked for a compare-and-swap write by {_id, version}: with narrowing on,
// every read of the collection's table is by _id (`WHERE _ferretdb_sjson->'$._id' = ?`); with
// it off, the same writes read the whole table. Also runs the front's Go tests (which
// statements are rewritten, which are left alone: narrow_test.go).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MongoClient } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import { ensureFerretDb, freePort, REPO_ROOT } from "./embedded-db";

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGTERM");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Starts the wrapper on SQLite in a temp dir with its debug log; returns its URI and the log so far. */
async function start(narrow: boolean): Promise<{ uri: string; log: () => string }> {
  const bin = ensureFerretDb();
  const dir = mkdtempSync(path.join(tmpdir(), "atelier-narrow-"));
  dirs.push(dir);
  const port = await freePort();
  const child = spawn(
    bin,
    ["--listen-addr", `127.0.0.1:${port}`, "--handler", "sqlite", "--sqlite-url", `file:${dir}/`, "--log-level", "debug", `--narrow-writes=${narrow}`],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  children.push(child);
  let out = "";
  child.stderr.on("data", (b: Buffer) => (out += b.toString("utf8")));
  const deadline = Date.now() + 30_000;
  while (!out.includes("atelier-ferretdb: listening")) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the wrapper did not start:\n${out.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { uri: `mongodb://127.0.0.1:${port}/`, log: () => out };
}

/** The SQL SELECTs FerretDB ran on the table of collection `coll` since log offset `from`. */
function selectsOn(log: string, from: number, coll: string): string[] {
  return log
    .slice(from)
    .split("\n")
    .filter((l) => l.includes('msg=">>> SELECT') && l.includes(`FROM \\"${coll}_`));
}

const ids = (docs: { _id: string }[]) => docs.map((d) => d._id).sort();

async function casWrites(uri: string, log: () => string): Promise<string[]> {
  const client = await MongoClient.connect(uri);
  try {
    const rows = client.db("narrow").collection<{ _id: string; version: number; n: number }>("rows");
    await rows.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: `r${i}`, version: 1, n: i })));
    const from = log().length;
    expect((await rows.updateOne({ _id: "r7", version: 1 }, { $set: { version: 2 } })).modifiedCount).toBe(1);
    expect((await rows.updateOne({ _id: "r7", version: 1 }, { $set: { version: 3 } })).matchedCount).toBe(0);
    expect((await rows.deleteOne({ _id: "r8", version: 1, n: { $lte: 8 } })).deletedCount).toBe(1);
    expect(await rows.findOneAndUpdate({ _id: "r9", $or: [{ version: 1 }, { n: -1 }] }, { $inc: { n: 1 } }, { returnDocument: "after" })).toEqual({
      _id: "r9",
      version: 1,
      n: 10,
    });
    expect(await rows.findOneAndUpdate({ _id: "r9", version: 5 }, { $inc: { n: 1 } })).toBeNull();
    // The log is written as FerretDB goes; wait until the last write's statements are in.
    await new Promise((r) => setTimeout(r, 200));
    const selects = selectsOn(log(), from, "rows");
    expect(ids(await rows.find({}).toArray())).toEqual(ids(Array.from({ length: 50 }, (_, i) => ({ _id: `r${i}` }))).filter((id) => id !== "r8"));
    expect(await rows.findOne({ _id: "r7" })).toEqual({ _id: "r7", version: 2, n: 7 });
    return selects;
  } finally {
    await client.close();
  }
}

describe("the embedded FerretDB front narrows {_id: X, ...} write filters (SQLite)", () => {
  it("with narrowing on, every read of the table a CAS write makes is by _id", async () => {
    const db = await start(true);
    const selects = await casWrites(db.uri, db.log);
    expect(selects.length).toBeGreaterThanOrEqual(5);
    expect(selects.filter((s) => !s.includes("WHERE _ferretdb_sjson->'$._id' = ?"))).toEqual([]);
  });

  it("with narrowing off, the same writes read the whole table (what the test would see if narrowing broke)", async () => {
    const db = await start(false);
    const selects = await casWrites(db.uri, db.log);
    expect(selects.filter((s) => !s.includes("WHERE")).length).toBeGreaterThanOrEqual(5);
  });

  it("the front's Go tests pass (which statements are rewritten, which are left alone)", () => {
    ensureFerretDb(); // Go is there, or this throws with what to install
    const go = existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go";
    const r = spawnSync(go, ["test", "-count=1", "-vet=off", "."], {
      cwd: path.join(REPO_ROOT, "shared/embedded-db/ferretdb"),
      env: { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=readonly", CGO_ENABLED: "0" },
      encoding: "utf8",
    });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  }, 300_000);
});
