// A backup archive made from documents in memory, in the format `backupDatabase` writes: for
// the tests (damaged, newer and older archives) and the upgrade fixture (shared/fixtures/).
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { BSON, type Document } from "mongodb";
import { ATELIER_VERSION } from "../version";
import { yazl } from "../zip";
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, collectionFile, MANIFEST_FILE, type BackupManifest } from "./format";

export interface ArchiveParts {
  schemaVersion: number;
  atelierVersion?: string;
  collections: Record<string, Document[]>;
  /** Replaces a collection's bytes after its checksum was taken (a damaged archive). */
  tamper?: Record<string, (data: Buffer) => Buffer>;
}

export async function archiveFromDocuments(file: string, parts: ArchiveParts): Promise<BackupManifest> {
  const zip = new yazl.ZipFile();
  const out = createWriteStream(file);
  const done = once(out, "close");
  zip.outputStream.pipe(out);
  const collections: BackupManifest["collections"] = [];
  for (const name of Object.keys(parts.collections).sort()) {
    const data = Buffer.from((parts.collections[name] ?? []).map((d) => `${BSON.EJSON.stringify(d, { relaxed: false })}\n`).join(""), "utf8");
    collections.push({
      name,
      file: collectionFile(name),
      count: parts.collections[name]?.length ?? 0,
      bytes: data.length,
      sha256: createHash("sha256").update(data).digest("hex"),
    });
    zip.addBuffer(parts.tamper?.[name]?.(data) ?? data, collectionFile(name));
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    atelierVersion: parts.atelierVersion ?? ATELIER_VERSION,
    schemaVersion: parts.schemaVersion,
    database: "atelier",
    createdAt: new Date().toISOString(),
    consistency: "write-pause",
    snapshotTime: null,
    collections,
  };
  zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2), "utf8"), MANIFEST_FILE);
  zip.end();
  await done;
  return manifest;
}
