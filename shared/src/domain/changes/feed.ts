// The change feed (docs/events.md): every recorded event gets a position in one
// order per workspace, 1, 2, 3, … with no gaps and no duplicates as any reader sees it, and
// every process gets a signal in one global order ("workspace W moved to seq N", "token T
// changed") that it follows to fan changes out and drop its cache entries.
//
// How a position is taken (measured against the alternatives: docs/decisions.md, "The change
// feed's order"): each feed has a counter (its head document); a writer takes the next
// number with one atomic $inc, then inserts the change at `${workspaceId}:${seq}`. Two
// writers never get one number, but the later number may be written first, so a reader that
// meets a missing position before a later one waits for it: the writer is still at work.
// A position still missing once a later one is older than HOLE_GRACE_MS belongs to a writer
// that stopped: the reader fills it with a tombstone (insert at that `_id`; `_id` is unique,
// so either the tombstone or the change lands, never both), and a writer that finds its
// position filled takes a new one. Readers skip tombstones. So a reader never passes a
// position that is later written: no gaps, and no duplicates (the event's id is unique among
// changes, so recording an event again gives it no second position). Every read is by
// `_id`, the one lookup every supported database serves from an index.
// Longer than 300 lines on purpose: taking a position, reading in order past holes and
// retention are one protocol, and each part relies on the others' rules.
import type { ChangeDoc, ChangeHeadDoc, ChangeSignalDoc, Database, EventDoc } from "../../db/index";
import { AppError, isDuplicateKey } from "../../errors";
import { addSeconds, now } from "../clock";

/** The global order's head document. */
const SIGNALS = "*";

export const changeId = (workspaceId: string, seq: number) => `${workspaceId}:${seq}`;

/** How long a missing position may stay missing once a later one is written. */
export const HOLE_GRACE_MS = 2000;

async function headOf(database: Database, feed: string): Promise<ChangeHeadDoc | null> {
  return database.c.changeHeads.findOne({ _id: feed });
}

/** Takes the next number of a feed's counter. */
async function takePosition(database: Database, feed: string): Promise<number> {
  for (let i = 0; ; i++) {
    try {
      const head = await database.c.changeHeads.findOneAndUpdate(
        { _id: feed },
        { $inc: { seq: 1 }, $set: { at: now() }, $setOnInsert: { floor: 1 } },
        { upsert: true, returnDocument: "after" },
      );
      if (head) return head.seq;
    } catch (err) {
      // Two first writers upserting at once: the loser takes the next number.
      if (!isDuplicateKey(err) || i > 3) throw err;
    }
  }
}

/**
 * Inserts `make(p)` at a position of its own. Returns the position, or null when the write
 * had been done before (its unique key is taken: the position is then filled as a hole).
 */
async function appendAt(
  database: Database,
  feed: string,
  insert: (p: number) => Promise<unknown>,
  read: (p: number) => Promise<{ hole?: boolean } | null>,
  fill: (p: number) => Promise<unknown>,
): Promise<number | null> {
  for (let tries = 0; tries < 20; tries++) {
    const p = await takePosition(database, feed);
    try {
      await insert(p);
      return p;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const there = await read(p);
    if (there?.hole) continue; // a reader gave our position up for lost: take another
    if (there) throw new Error(`change feed ${feed}: position ${p} taken twice`);
    // Not the position: the write's own unique key, written before. Leave no hole behind.
    await fill(p).catch((err: unknown) => {
      if (!isDuplicateKey(err)) throw err;
    });
    return null;
  }
  throw new Error(`change feed ${feed}: no position could be written`);
}

export interface ChangeInput {
  workspaceId: string;
  eventId: string;
  type: string;
  actor: EventDoc["actor"];
  target: EventDoc["target"];
  version?: number | undefined;
}

/**
 * Gives an event its position in its workspace's feed, then signals every process. Written
 * right after the event, by whoever writes the event; idempotent, so the sweeper finishing a
 * version records it once.
 */
export async function appendChange(deps: { database: Database }, input: ChangeInput): Promise<number | null> {
  const { database } = deps;
  const at = now();
  const actor: ChangeDoc["actor"] = { kind: input.actor.kind, userId: input.actor.userId, ...(input.actor.tokenId ? { tokenId: input.actor.tokenId } : {}) };
  const target = { kind: input.target.kind, id: input.target.id };
  const seq = await appendAt(
    database,
    input.workspaceId,
    (p) =>
      database.c.changes.insertOne({
        _id: changeId(input.workspaceId, p),
        workspaceId: input.workspaceId,
        seq: p,
        eventId: input.eventId,
        type: input.type,
        actor,
        target,
        ...(input.version !== undefined ? { version: input.version } : {}),
        at,
      }),
    (p) => database.c.changes.findOne({ _id: changeId(input.workspaceId, p) }),
    (p) => fillChange(database, input.workspaceId, p),
  );
  if (seq !== null) await signal(deps, { kind: "workspace", id: input.workspaceId, seq, type: input.type, target });
  return seq;
}

/** A tombstone at a position of a workspace's feed whose writer stopped (or that a retry left). */
function fillChange(database: Database, workspaceId: string, p: number): Promise<unknown> {
  const _id = changeId(workspaceId, p);
  return database.c.changes.insertOne({
    _id,
    workspaceId,
    seq: p,
    eventId: `hole:${_id}`,
    type: "hole",
    hole: true,
    actor: { kind: "user", userId: null },
    target: { kind: "workspace", id: workspaceId },
    at: now(),
  });
}

function fillSignal(database: Database, p: number): Promise<unknown> {
  return database.c.changeSignals.insertOne({ _id: String(p), kind: "hole", id: "", hole: true, at: now() });
}

/** Tells every process about a change (a workspace's new position, a token revoked). */
export async function signal(deps: { database: Database }, s: Omit<ChangeSignalDoc, "_id" | "at">): Promise<void> {
  const { database } = deps;
  const at = now();
  await appendAt(
    database,
    SIGNALS,
    (p) => database.c.changeSignals.insertOne({ _id: String(p), ...s, at }),
    (p) => database.c.changeSignals.findOne({ _id: String(p) }),
    (p) => fillSignal(database, p),
  );
}

/**
 * Reads positions after `after` in order, up to `limit`, waiting at a missing one (see the
 * top of this file): returns what is there before it. A missing position is filled as a
 * hole once a later one is older than HOLE_GRACE_MS.
 */
async function readRun<T extends { at: Date; hole?: boolean }>(
  after: number,
  known: number,
  limit: number,
  read: (p: number) => Promise<T | null>,
  fill: (p: number) => Promise<unknown>,
): Promise<{ docs: T[]; last: number }> {
  const docs: T[] = [];
  let p = after;
  let batch = Math.min(limit, Math.max(known - after, 1));
  while (docs.length < limit) {
    const n = Math.min(batch, limit - docs.length);
    const found: (T | null)[] = await Promise.all(Array.from({ length: n }, (_, i) => read(p + 1 + i)));
    let stopped = false;
    for (let i = 0; i < found.length; i++) {
      let doc = found[i] ?? null;
      if (!doc) {
        if (p >= known) {
          stopped = true; // the end
          break;
        }
        // A later one written long enough ago means this one's writer stopped.
        const later = found.slice(i + 1).find((d) => d) ?? (await read(Math.min(known, p + 2)));
        if (!later || now().getTime() - later.at.getTime() < HOLE_GRACE_MS) {
          stopped = true;
          break;
        }
        await fill(p + 1).catch((err: unknown) => {
          if (!isDuplicateKey(err)) throw err;
        });
        doc = (await read(p + 1)) as T | null;
        if (!doc) {
          stopped = true;
          break;
        }
      }
      if (!doc.hole) docs.push(doc);
      p++;
    }
    if (stopped) break;
    batch = 8;
  }
  return { docs, last: p };
}

export interface ChangesPage {
  changes: ChangeDoc[];
  /** The position to continue after (the last one returned, or `after` when there was none). */
  next: number;
  /** The newest position known when read. */
  head: number;
}

function cursorExpired(workspaceId: string, after: number, floor: number): AppError {
  return new AppError(
    "cursor_expired",
    "That position is no longer kept (or was never written); read the current state again and continue from the latest position.",
    {
      details: { workspace_id: workspaceId, after, oldest_kept: floor },
    },
  );
}

/**
 * The changes of a workspace after position `after` (0: from the start), in order, at most
 * `limit`. A position older than what is kept, or one that was never written, is
 * `cursor_expired` (HTTP 410): the reader resyncs, it is never handed a silent gap.
 */
export async function readChanges(deps: { database: Database }, workspaceId: string, after: number, limit: number): Promise<ChangesPage> {
  const { database } = deps;
  const head = await headOf(database, workspaceId);
  const floor = head?.floor ?? 1;
  let known = head?.seq ?? 0;
  if (after < floor - 1) throw cursorExpired(workspaceId, after, floor);
  if (after > known) {
    // The head is a hint that may lag; a position that exists is a good cursor all the same.
    const exists = after > 0 && (await database.c.changes.findOne({ _id: changeId(workspaceId, after) }, { projection: { _id: 1 } })) !== null;
    if (!exists) throw cursorExpired(workspaceId, after, floor);
    known = after;
  }
  const run = await readRun(
    after,
    known,
    limit,
    (p) => database.c.changes.findOne({ _id: changeId(workspaceId, p) }),
    (p) => fillChange(database, workspaceId, p),
  );
  // Pruned while we read: the first one is gone, so this reader is behind what is kept.
  if (run.last === after && after < known) {
    const now = (await headOf(database, workspaceId))?.floor ?? floor;
    if (after < now - 1) throw cursorExpired(workspaceId, after, now);
  }
  return { changes: run.docs, next: run.last, head: Math.max(known, run.last) };
}

/** Reads the signals after `after` (the follower's part): in order, holes skipped, waiting at a missing one. */
export async function readSignals(
  deps: { database: Database },
  after: number,
  limit: number,
): Promise<{ signals: ChangeSignalDoc[]; next: number; behind: boolean }> {
  const { database } = deps;
  const head = await headOf(database, SIGNALS);
  if (head && after < head.floor - 1) return { signals: [], next: head.seq, behind: true };
  const known = head?.seq ?? 0;
  if (after >= known) return { signals: [], next: after, behind: after > known };
  const run = await readRun(
    after,
    known,
    limit,
    (p) => database.c.changeSignals.findOne({ _id: String(p) }),
    (p) => fillSignal(database, p),
  );
  return { signals: run.docs, next: run.last, behind: false };
}

/** The newest position of a workspace's feed taken so far (0 when it has none). */
export async function latestPosition(deps: { database: Database }, workspaceId: string): Promise<number> {
  return (await headOf(deps.database, workspaceId))?.seq ?? 0;
}

/**
 * Drops changes older than `keepSeconds` from one feed, oldest first, always keeping the
 * newest (writers take the position after it), and raises the feed's floor. Returns how
 * many were dropped.
 */
async function pruneFeed(
  database: Database,
  feed: string,
  cutoff: Date,
  read: (p: number) => Promise<{ at: Date } | null>,
  remove: (p: number) => Promise<unknown>,
  limit: number,
): Promise<number> {
  const head = await headOf(database, feed);
  if (!head) return 0;
  let p = head.floor;
  let dropped = 0;
  while (dropped < limit) {
    const doc = await read(p);
    if (!doc) {
      // Missing below the head: pruned before (a floor not yet raised), or a stopped writer's.
      if (p < head.seq) {
        p++;
        continue;
      }
      break;
    }
    if (doc.at > cutoff) break;
    // The floor first: a reader that finds the position gone is then told to resync.
    await database.c.changeHeads.updateOne({ _id: feed, floor: { $lte: p } }, { $set: { floor: p + 1 } });
    await remove(p);
    dropped++;
    p++;
  }
  return dropped;
}

/** The sweeper's part: bounded retention of every workspace's feed and of the signals. */
export async function pruneChanges(deps: { database: Database; config: { CHANGES_RETENTION_SECONDS: number } }, limit = 5000): Promise<number> {
  const { database } = deps;
  const t = now();
  const cutoff = addSeconds(t, -deps.config.CHANGES_RETENTION_SECONDS);
  // Signals serve only processes following live: an hour covers any pause worth resuming from.
  const signalCutoff = addSeconds(t, -Math.min(deps.config.CHANGES_RETENTION_SECONDS, 3600));
  let dropped = await pruneFeed(
    database,
    SIGNALS,
    signalCutoff,
    (p) => database.c.changeSignals.findOne({ _id: String(p) }, { projection: { at: 1 } }),
    (p) => database.c.changeSignals.deleteOne({ _id: String(p) }),
    limit,
  );
  const feeds = await database.c.changeHeads.find({}, { projection: { _id: 1, at: 1 } }).toArray();
  for (const h of feeds) {
    if (h._id === SIGNALS || dropped >= limit) continue;
    dropped += await pruneFeed(
      database,
      h._id,
      cutoff,
      (p) => database.c.changes.findOne({ _id: changeId(h._id, p) }, { projection: { at: 1 } }),
      (p) => database.c.changes.deleteOne({ _id: changeId(h._id, p) }),
      limit - dropped,
    );
  }
  return dropped;
}

/** Where the signal order stands, for a follower starting now. */
export async function signalHead(deps: { database: Database }): Promise<{ seq: number; floor: number }> {
  const h = await headOf(deps.database, SIGNALS);
  return { seq: h?.seq ?? 0, floor: h?.floor ?? 1 };
}

export const SIGNAL_FEED = SIGNALS;
