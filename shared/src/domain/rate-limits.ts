// Fixed-window counters kept in MongoDB, so every process shares them (DESIGN §1: nothing
// in process memory decides a limit). One window is one document; the sweeper clears old ones.
import type { Database } from "../db/index";
import { AppError, isDuplicateKey } from "../errors";
import { nowMs } from "./clock";

export interface Limit {
  /** What is limited, e.g. "signin-email". */
  bucket: string;
  /** Who or what is counted, e.g. an e-mail address or an IP. */
  key: string;
  max: number;
  windowSeconds: number;
}

/**
 * Counts one hit; throws `rate_limited` (with Retry-After) when it goes over `max`.
 * A limit of 0 refuses everything.
 */
export async function hit(deps: { database: Database }, limit: Limit, message = "Too many requests; try again later."): Promise<void> {
  const { database } = deps;
  const windowMs = limit.windowSeconds * 1000;
  const t = nowMs();
  const start = Math.floor(t / windowMs) * windowMs;
  const windowEnd = new Date(start + windowMs);
  const _id = `${limit.bucket}:${limit.key}:${start}`;
  let count: number;
  try {
    count = await increment(database, _id, windowEnd);
  } catch (err) {
    // Two first hits racing on the upsert: the loser increments the winner's document.
    if (!isDuplicateKey(err)) throw err;
    count = await increment(database, _id, windowEnd);
  }
  if (count > limit.max) {
    throw new AppError("rate_limited", message, { retryAfter: Math.max(1, Math.ceil((windowEnd.getTime() - t) / 1000)) });
  }
}

async function increment(database: Database, _id: string, windowEnd: Date): Promise<number> {
  const doc = await database.c.rateLimits.findOneAndUpdate(
    { _id },
    { $inc: { count: 1 }, $setOnInsert: { windowEnd } },
    // No projection: FerretDB v1 does not implement `fields` on findAndModify.
    { upsert: true, returnDocument: "after" },
  );
  return doc?.count ?? 1;
}

/** Removes windows that have ended (run by the sweeper). */
export async function clearEndedWindows(deps: { database: Database }): Promise<number> {
  const r = await deps.database.c.rateLimits.deleteMany({ windowEnd: { $lte: new Date(nowMs()) } });
  return r.deletedCount;
}
