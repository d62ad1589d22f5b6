// `pnpm restore`: checks a backup whole (manifest, schema version, every collection's count
// and SHA-256) before it writes a byte, then loads it into an empty database and brings it to
// this release's schema (ensureIndexes, migrate). A database with content is refused unless
// the caller asks to replace it.
import { createHash } from "node:crypto";
import { createInterface } from "node:readline";
import { BSON, type Db, type Document } from "mongodb";
import { ensureIndexes } from "../db/collections";
import { migrate, SCHEMA_VERSION } from "../db/migrations";
import { openZipFile, readEntry, type ZipEntry, type ZipReader } from "../zip";
import { collectionNames } from "./backup";
import { BackupError, BackupManifest, collectionFile, MANIFEST_FILE } from "./format";

const BATCH = 500;

async function withArchive<T>(file: string, fn: (zip: ZipReader, manifest: BackupManifest, byName: Map<string, ZipEntry>) => Promise<T>): Promise<T> {
  let zip: ZipReader;
  try {
    zip = await openZipFile(file, 2_000);
  } catch (err) {
    throw new BackupError("bad_archive", `not a readable backup archive: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    const byName = new Map(zip.entries.map((e) => [e.fileName, e]));
    const m = byName.get(MANIFEST_FILE);
    if (!m) throw new BackupError("bad_archive", `the archive has no ${MANIFEST_FILE}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse((await readEntry(zip, m, 1_000_000)).toString("utf8"));
    } catch (err) {
      throw new BackupError("bad_archive", `${MANIFEST_FILE} is not readable JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
    const r = BackupManifest.safeParse(parsed);
    if (!r.success) throw new BackupError("bad_archive", `${MANIFEST_FILE} is not an Atelier backup manifest: ${r.error.issues[0]?.message ?? ""}`);
    return await fn(zip, r.data, byName);
  } finally {
    zip.close();
  }
}

/** Each line of an entry, with the SHA-256 and size of everything read. */
async function* lines(zip: ZipReader, entry: ZipEntry, hash: ReturnType<typeof createHash>, size: { bytes: number }): AsyncGenerator<string> {
  const stream = await zip.open(entry);
  stream.on("data", (c: Buffer) => {
    hash.update(c);
    size.bytes += c.length;
  });
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) if (line !== "") yield line;
}

/**
 * Checks the archive without writing: the manifest, the schema version (newer than this
 * release: refused) and every collection's count, size and checksum. Returns the manifest.
 */
export async function verifyBackup(file: string): Promise<BackupManifest> {
  return withArchive(file, async (zip, manifest, byName) => {
    if (manifest.schemaVersion > SCHEMA_VERSION) {
      throw new BackupError(
        "newer_schema",
        `the backup is at schema version ${manifest.schemaVersion}, written by Atelier ${manifest.atelierVersion}; this release reads up to version ${SCHEMA_VERSION}: restore it with that release or newer`,
      );
    }
    const seen = new Set<string>();
    for (const c of manifest.collections) {
      if (seen.has(c.name) || c.file !== collectionFile(c.name))
        throw new BackupError("bad_archive", `the manifest names ${c.name} twice or at the wrong file`);
      seen.add(c.name);
      const entry = byName.get(c.file);
      if (!entry) throw new BackupError("bad_archive", `${c.file} is missing from the archive`);
      if (entry.uncompressedSize !== c.bytes)
        throw new BackupError("checksum_mismatch", `${c.file} is ${entry.uncompressedSize} bytes; the manifest says ${c.bytes}`);
      const hash = createHash("sha256");
      const size = { bytes: 0 };
      let count = 0;
      try {
        for await (const _ of lines(zip, entry, hash, size)) count++;
      } catch (err) {
        throw new BackupError("checksum_mismatch", `${c.file} cannot be read whole: ${err instanceof Error ? err.message : String(err)}`);
      }
      const sha = hash.digest("hex");
      if (sha !== c.sha256 || size.bytes !== c.bytes || count !== c.count) {
        throw new BackupError("checksum_mismatch", `${c.file} does not match the manifest (SHA-256 ${sha}, ${count} documents); the archive is damaged`);
      }
    }
    return manifest;
  });
}

/** Collections holding documents, but `meta` (which every started process writes). */
async function contentCollections(db: Db): Promise<string[]> {
  const out: string[] = [];
  for (const name of await collectionNames(db)) {
    if (name === "meta") continue;
    if ((await db.collection(name).countDocuments({}, { limit: 1 })) > 0) out.push(name);
  }
  return out;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** The schema version the backup had, when it was migrated on the way in. */
  migratedFrom: number | null;
  documents: number;
}

/**
 * Restores `file` into `db` (verified first: nothing is written if any check fails). A
 * database with content is refused unless `replace`, which drops its collections first.
 * Run it with the service stopped: a process writing meanwhile would mix its writes in.
 */
export async function restoreDatabase(db: Db, file: string, opts: { replace?: boolean } = {}): Promise<RestoreResult> {
  await verifyBackup(file);
  const busy = await contentCollections(db);
  if (busy.length > 0 && !opts.replace) {
    throw new BackupError(
      "not_empty",
      `the database ${db.databaseName} already holds data (${busy.slice(0, 5).join(", ")}${busy.length > 5 ? ", …" : ""}); restore into an empty one, or pass --replace to drop it first`,
    );
  }
  return withArchive(file, async (zip, manifest, byName) => {
    for (const name of await collectionNames(db)) if (name === "meta" || opts.replace) await db.collection(name).drop();
    let documents = 0;
    for (const c of manifest.collections) {
      const entry = byName.get(c.file);
      if (!entry) throw new BackupError("bad_archive", `${c.file} is missing from the archive`);
      const target = db.collection(c.name);
      let batch: Document[] = [];
      for await (const line of lines(zip, entry, createHash("sha256"), { bytes: 0 })) {
        batch.push(BSON.EJSON.parse(line, { relaxed: false }) as Document);
        if (batch.length >= BATCH) {
          await target.insertMany(batch, { ordered: true });
          documents += batch.length;
          batch = [];
        }
      }
      if (batch.length > 0) {
        await target.insertMany(batch, { ordered: true });
        documents += batch.length;
      }
    }
    await ensureIndexes(db);
    await migrate(db);
    return { manifest, migratedFrom: manifest.schemaVersion < SCHEMA_VERSION ? manifest.schemaVersion : null, documents };
  });
}
