// Fixed-window counters kept in MongoDB, so every process shares them (docs/ARCHITECTURE.md#state: nothing
// in process memory decides a limit). One window is one document; the sweeper clears old ones.
import type { Config } from "../config";
import type { Database, TokenDoc } from "../db/index";
import { AppError, retryOnDuplicate } from "../errors";
import { nowMs } from "./clock";
import { insertOnce } from "../db";

export interface Limit {
  /** What is counted, e.g. "code-email". */
  counter: string;
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
  const _id = `${limit.counter}:${limit.key}:${start}`;
  // Two first hits racing on the upsert: the loser increments the winner's document.
  const count = await retryOnDuplicate(() => increment(database, _id, windowEnd));
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

/**
 * The sandbox write throttle (docs/contract.md#sandboxes-limits-and-lifecycle: writes per sandbox token per minute). `count` is the
 * number of write calls one request carries: a JSON-RPC batch of 100 writes is 100 writes.
 * All or nothing: when the request would pass ANON_WRITES_PER_MINUTE it is refused whole
 * (`rate_limited`, with Retry-After) and counts nothing, so none of it may run. Only an
 * unclaimed sandbox's own token is throttled here; other tokens pass untouched.
 */
export async function chargeSandboxWrites(
  deps: { database: Database; config: Pick<Config, "ANON_WRITES_PER_MINUTE"> },
  token: Pick<TokenDoc, "_id" | "kind">,
  count: number,
): Promise<void> {
  const { database, config } = deps;
  if (token.kind !== "anonymous" || count <= 0) return;
  const max = config.ANON_WRITES_PER_MINUTE;
  const windowMs = 60_000;
  const t = nowMs();
  const start = Math.floor(t / windowMs) * windowMs;
  const windowEnd = new Date(start + windowMs);
  const _id = `sandbox-writes:${token._id}:${start}`;
  const refuse = () =>
    new AppError("rate_limited", `This sandbox token may write ${max} times a minute; this request would pass that. Wait before writing again.`, {
      retryAfter: Math.max(1, Math.ceil((windowEnd.getTime() - t) / 1000)),
    });
  if (count > max) throw refuse();
  // One conditional update: it adds `count` only while the window still has room for all of it.
  const charge = async () => (await database.c.rateLimits.updateOne({ _id, count: { $lte: max - count } }, { $inc: { count } })).modifiedCount === 1;
  if (await charge()) return;
  // No window yet (the first write of this minute), or not enough room left.
  if (await insertOnce(database.c.rateLimits, { _id, count, windowEnd })) return;
  // The window exists (full, or opened by a racing request): try the conditional update once more.
  if (await charge()) return;
  throw refuse();
}
