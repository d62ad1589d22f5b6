// The backup archive (docs/decisions.md, "Instance backups"): one zip holding every
// collection of the database as canonical Extended JSON, one document a line, in
// `collections/<name>.ejson`, and `manifest.json` with what restore checks before it writes
// anything: the Atelier release and schema version that wrote it, and each collection's
// document count, byte size and SHA-256.
import { z } from "zod";

export const BACKUP_FORMAT = "atelier-backup";
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_FILE = "manifest.json";

/**
 * How the copy was made consistent: `snapshot` (one read point for every collection: a
 * MongoDB replica set or sharded cluster), `write-pause` (writes waited while it read: a
 * standalone mongod's fsync lock), or `per-document` (each document whole, but documents
 * read at different moments: the embedded database while the service runs), or `exclusive`
 * (the backup command started the embedded database for itself: the service was stopped,
 * nothing else could write — deploy/README.md, "Backups").
 */
export const Consistency = z.enum(["snapshot", "write-pause", "exclusive", "per-document"]);
export type Consistency = z.infer<typeof Consistency>;

const COLLECTION = /^(?!system\.)[A-Za-z0-9_][A-Za-z0-9_.-]{0,119}$/;

export const BackupManifest = z
  .object({
    format: z.literal(BACKUP_FORMAT),
    formatVersion: z.literal(BACKUP_FORMAT_VERSION),
    atelierVersion: z.string().max(100),
    schemaVersion: z.number().int().min(1),
    database: z.string().max(100),
    createdAt: z.string().max(40),
    consistency: Consistency,
    /** The read point of a `snapshot` copy (its cluster time, to the second). */
    snapshotTime: z.string().max(40).nullable(),
    collections: z
      .array(
        z
          .object({
            name: z.string().regex(COLLECTION),
            file: z.string().max(200),
            count: z.number().int().min(0),
            bytes: z.number().int().min(0),
            sha256: z.string().regex(/^[0-9a-f]{64}$/),
          })
          .strict(),
      )
      .max(1_000),
  })
  .strict();
export type BackupManifest = z.infer<typeof BackupManifest>;

export const collectionFile = (name: string) => `collections/${name}.ejson`;

/** A backup that cannot be restored as asked; `code` names why. Nothing was written. */
export class BackupError extends Error {
  override name = "BackupError";
  constructor(
    readonly code: "bad_archive" | "checksum_mismatch" | "newer_schema" | "not_empty" | "no_consistent_read",
    message: string,
  ) {
    super(message);
  }
}
