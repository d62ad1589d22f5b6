// `pnpm backup`: every collection of the database into one zip, streamed (one batch of
// documents in memory at a time), with a manifest written last (shared/src/backup/format.ts).
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { PassThrough } from "node:stream";
import { once } from "node:events";
import { BSON, type ClientSession, type Db, type MongoClient } from "mongodb";
import { SCHEMA_VERSION } from "../db/migrations";
import { ATELIER_VERSION } from "../version";
import { yazl } from "../zip";
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, BackupError, collectionFile, MANIFEST_FILE, type BackupManifest, type Consistency } from "./format";

export interface BackupOptions {
  /** Fail unless the copy can be made consistent across collections (snapshot or write pause). */
  requireConsistent?: boolean;
  /** Nothing else can reach the database (the command started it for itself). */
  exclusive?: boolean;
  /** Called after each collection is written (the tests write meanwhile). */
  onCollection?: (name: string, count: number) => Promise<void> | void;
}

/** Every collection of `db` but MongoDB's own, in a stable order. */
export async function collectionNames(db: Db): Promise<string[]> {
  const list = await db.listCollections({}, { nameOnly: true }).toArray();
  return list
    .filter((c) => !c.name.startsWith("system.") && (c.type === undefined || c.type === "collection"))
    .map((c) => c.name)
    .sort();
}

async function topology(client: MongoClient): Promise<"replica-set" | "sharded" | "standalone"> {
  const hello = await client.db("admin").command({ hello: 1 });
  if (hello.msg === "isdbgrid") return "sharded";
  if (typeof hello.setName === "string") return "replica-set";
  return "standalone";
}

/**
 * Writes the backup of `db` to `file` (through `file.partial`, renamed when whole, so a
 * crash never leaves a truncated archive under the real name). Returns its manifest.
 */
export async function backupDatabase(client: MongoClient, db: Db, file: string, opts: BackupOptions = {}): Promise<BackupManifest> {
  let session: ClientSession | undefined;
  let locked = false;
  let consistency: Consistency = "per-document";
  const kind = await topology(client);
  if (opts.exclusive) {
    consistency = "exclusive";
  } else if (kind !== "standalone") {
    session = client.startSession({ snapshot: true });
    consistency = "snapshot";
  } else {
    // A standalone mongod pauses writes (they wait, nothing fails) while it is fsync-locked.
    // The embedded FerretDB has no such lock: the copy is then consistent per document only.
    try {
      await client.db("admin").command({ fsync: 1, lock: true });
      locked = true;
      consistency = "write-pause";
    } catch {
      if (opts.requireConsistent) {
        throw new BackupError(
          "no_consistent_read",
          "this database offers neither a snapshot read nor a write pause: stop the service and back up again (deploy/README.md, Backups)",
        );
      }
    }
  }
  const partial = `${file}.partial`;
  try {
    const schema = await db.collection<{ _id: string; version: number }>("meta").findOne({ _id: "schema" }, session ? { session } : {});
    const zip = new yazl.ZipFile();
    const out = createWriteStream(partial, { mode: 0o600 });
    const done = once(out, "close");
    zip.outputStream.pipe(out);
    const collections: BackupManifest["collections"] = [];
    // The read point a snapshot session took at its first read (the line above).
    const point = (session as { snapshotTime?: { getHighBitsUnsigned(): number } } | undefined)?.snapshotTime;
    const snapshotTime = point ? new Date(point.getHighBitsUnsigned() * 1000).toISOString() : null;
    for (const name of await collectionNames(db)) {
      const stream = new PassThrough();
      const entry = collectionFile(name);
      zip.addReadStream(stream, entry, { compress: true });
      const hash = createHash("sha256");
      let count = 0;
      let bytes = 0;
      const cursor = db.collection(name).find({}, session ? { session, batchSize: 500 } : { batchSize: 500 });
      for await (const doc of cursor) {
        const line = Buffer.from(`${BSON.EJSON.stringify(doc, { relaxed: false })}\n`, "utf8");
        hash.update(line);
        bytes += line.length;
        count++;
        if (!stream.write(line)) await once(stream, "drain");
      }
      stream.end();
      collections.push({ name, file: entry, count, bytes, sha256: hash.digest("hex") });
      await opts.onCollection?.(name, count);
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      atelierVersion: ATELIER_VERSION,
      // A database that never ran migrations is at the version this code writes.
      schemaVersion: schema?.version ?? SCHEMA_VERSION,
      database: db.databaseName,
      createdAt: new Date().toISOString(),
      consistency,
      snapshotTime,
      collections,
    };
    zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, "utf8"), MANIFEST_FILE);
    zip.end();
    await done;
    await rename(partial, file);
    return manifest;
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  } finally {
    if (locked) await client.db("admin").command({ fsyncUnlock: 1 });
    await session?.endSession();
  }
}
