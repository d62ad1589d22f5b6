// Id helpers (docs/contract.md#resources-and-identifiers): UUIDs for page ids, random prefixed ids elsewhere.
import { createHash, createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from "node:crypto";

export type IdPrefix = "usr" | "ws" | "col" | "rev" | "row" | "tok" | "reg" | "ses" | "evt" | "prt" | "inv" | "shr" | "otp" | "upl" | "cmt" | "whk" | "snd";

/** A random id like `tok_4kP…`: the prefix, then 16 random bytes in base64url (128 bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(16).toString("base64url")}`;
}

export function newPageId(): string {
  return randomUUID();
}

/** A secret of `bytes` random bytes in base64url (32 bytes = 256 bits by default). */
/** The `_id` of version `version` of a page or a row (revisions are addressed by it, never searched). */
export function revisionId(of: string, version: number): string {
  return `${of}:v${version}`;
}

/**
 * The `_id` of the event a version records: derived from the document and the version, so
 * the writer and the sweeper finishing the same version write one event between them.
 */
export function versionEventId(of: string, version: number): string {
  return `evt_${sha256(revisionId(of, version)).slice(0, 32)}`;
}

export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** A six-digit code, uniformly drawn. */
export function newSixDigitCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, "0");
}

/** SHA-256 of a high-entropy secret (tokens, session ids), hex. */
export function sha256(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

/** Keyed hash for low-entropy secrets (six-digit codes), so a stolen table cannot be brute-forced offline. */
export function hmac(key: string, value: string): string {
  return createHmac("sha256", key).update(value, "utf8").digest("hex");
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
