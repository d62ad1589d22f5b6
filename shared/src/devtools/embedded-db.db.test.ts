// The embedded FerretDB's lookup indexes (shared/embedded-db/ferretdb/lookup_indexes.go), on
// each store this machine has: FerretDB's own explain must show its lookup served by an index
// of ours with the option on, and a scan with it off. Each case starts databases of its own.
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MongoClient } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import { embeddedDbSettings, findPostgresBin, REPO_ROOT, startEmbeddedDb, type EmbeddedDb, type EmbeddedDbBackend } from "./embedded-db";

const started: EmbeddedDb[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(started.map((d) => d.stop()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function explainId(uri: string, filter: Record<string, unknown>): Promise<string> {
  const client = await MongoClient.connect(uri);
  try {
    // Queries first: SQLite's EXPLAIN does not check that a connection's schema is current, so
    // on one of FerretDB's pooled connections that has not run a query since our index appeared
    // it shows the old plan. A query notices, and plans again with the index. FerretDB keeps at
    // most 100 idle connections and hands them out in turn: 150 queries reach every one.
    for (let i = 0; i < 150; i++) await client.db("lookups").collection("pages").findOne(filter);
    const e = await client.db("lookups").command({ explain: { find: "pages", filter }, verbosity: "queryPlanner" });
    return JSON.stringify(e.queryPlanner);
  } finally {
    await client.close();
  }
}

/** How FerretDB's explain names an index of ours: SQLite "USING INDEX _ferretdb_atelier_…", PostgreSQL "Index Name". */
const OURS = /USING INDEX _ferretdb_atelier_|"Index Name":"_ferretdb_atelier_/;

const backends: EmbeddedDbBackend[] = ["sqlite", "postgresql"];

// Each case starts PostgreSQL clusters (initdb, then three starts): seconds each, far more on a busy machine.
describe.each(backends)("the embedded FerretDB on %s", { timeout: 180_000 }, (backend) => {
  const dataDir = path.join(REPO_ROOT, ".data", `test-lookups-${backend}-${process.pid}`);
  dirs.push(dataDir);
  const start = async (lookupIndexes: boolean) => {
    const db = await startEmbeddedDb({ dataDir, backend, lookupIndexes });
    started.push(db);
    if (db.postgresDir) dirs.push(db.postgresDir);
    return db;
  };

  it.skipIf(backend === "postgresql" && !findPostgresBin())("serves FerretDB's own lookups from our indexes, only while the option is on", async () => {
    let db = await start(true);
    const client = await MongoClient.connect(db.uri);
    const pages = client.db("lookups").collection<{ _id: string; slug: string; body: string }>("pages");
    // Big enough that PostgreSQL's planner prefers an index to reading the table.
    const docs = () => Array.from({ length: 1_000 }, (_, i) => ({ _id: `p${i}`, slug: `s${i}`, body: "x".repeat(500) }));
    await pages.createIndex({ slug: 1 }, { unique: true, name: "slug_unique" });
    await pages.insertMany(docs());
    expect(await explainId(db.uri, { _id: "p500" })).toMatch(OURS);
    // PostgreSQL pushes down equality on any top-level field, so the declared slug index gets one too.
    if (backend === "postgresql") expect(await explainId(db.uri, { slug: "s500" })).toMatch(OURS);
    // FerretDB's own index list is untouched.
    expect((await pages.listIndexes().toArray()).map((i) => i.name).sort()).toEqual(["_id_", "slug_unique"]);
    expect(await pages.findOne({ _id: "p500" }, { projection: { body: 0 } })).toEqual({ _id: "p500", slug: "s500" });

    // A collection dropped and made again has a new table: it gets its index again.
    await pages.drop();
    await pages.insertMany(docs());
    expect(await explainId(db.uri, { _id: "p500" })).toMatch(OURS);
    await client.close();
    await db.stop();

    db = await start(false);
    expect(await explainId(db.uri, { _id: "p500" })).not.toMatch(OURS);
    await db.stop();

    db = await start(true);
    expect(await explainId(db.uri, { _id: "p500" })).toMatch(OURS);
    await db.stop();
  });
});

describe("a checkout the postgres user cannot reach (issue 23 item 18)", { timeout: 180_000 }, () => {
  const asRoot = process.getuid?.() === 0;
  it.skipIf(!asRoot || !findPostgresBin())(
    "as root, under a 0700 folder, the cluster goes where postgres can reach it, and a temporary one goes away on stop",
    async () => {
      const closed = mkdtempSync(path.join(tmpdir(), "atelier-closed-"));
      dirs.push(closed);
      chmodSync(closed, 0o700);
      const lines: string[] = [];
      const db = await startEmbeddedDb({ dataDir: path.join(closed, "data"), backend: "postgresql", temporary: true, log: (l) => lines.push(l) });
      started.push(db);
      const standIn = db.postgresDir ?? "";
      expect(standIn.startsWith(path.join(tmpdir(), "atelier-postgresql-"))).toBe(true);
      expect(lines.join("\n")).toMatch(/cannot reach .*atelier-closed-.*the cluster lives in/);
      const client = await MongoClient.connect(db.uri);
      await client
        .db("closed")
        .collection("pages")
        .insertOne({ _id: "p1" } as never);
      expect(await client.db("closed").collection("pages").countDocuments()).toBe(1);
      await client.close();
      await db.stop();
      expect(existsSync(standIn)).toBe(false);
    },
  );
});

describe("embedded database settings", () => {
  it("names the variable when a value is not allowed, and defaults to the lookup indexes on", () => {
    expect(() => embeddedDbSettings({ EMBEDDED_DB_BACKEND: "mysql" })).toThrow(/EMBEDDED_DB_BACKEND must be sqlite or postgresql/);
    expect(() => embeddedDbSettings({ EMBEDDED_DB_LOOKUP_INDEXES: "yes" })).toThrow(/EMBEDDED_DB_LOOKUP_INDEXES must be true or false/);
    expect(embeddedDbSettings({})).toEqual({ backend: undefined, lookupIndexes: true });
    expect(embeddedDbSettings({ EMBEDDED_DB_BACKEND: "postgresql", EMBEDDED_DB_LOOKUP_INDEXES: "false" })).toEqual({
      backend: "postgresql",
      lookupIndexes: false,
    });
  });
});
