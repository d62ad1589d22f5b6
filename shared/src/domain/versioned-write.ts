// The one write protocol for every versioned document (pages, table rows, and what comes
// next: comments, files). A document carries its `version`, the claim of the one writer
// preparing the next version (`writing`), and a pending mark from the write of a version
// until its follow-up steps are done. Writing a version is a sequence of steps, each one
// conditional or idempotent, so that a process stopped between any two of them leaves
// something the next writer or the sweeper finishes or undoes (docs/ARCHITECTURE.md,
// "Writing a version"):
//
//   1. claim    the next version, conditional on the version read and on no live claim
//   2. reserve  the usage the version needs (one conditional update of the counters)
//   3. write    the document, conditional on the version read and on our claim; this also
//               sets the pending mark and clears the claim
//   4. finish   the kind's steps (revision, prune, rendition, …), then the event, whose id
//               is derived from the document and version so it is written once; then the
//               kind's late steps (the search index), after the writer's answer; then the
//               pending mark is cleared
//
// One retry and release policy for every kind: a caller that names the version it read
// gets a `version_conflict` (with `details.current_version`) as soon as the document has
// moved on or is being changed; a caller that does not waits its turn, up to ATTEMPTS
// times. A claim is released only by its holder (matched on its version and time) or
// taken over once older than SWEEP_GRACE_SECONDS. A stop after step 2 leaves the usage
// counters marked, so the sweeper recounts them; a stop after step 3 leaves the pending
// mark, so the sweeper runs step 4.
// Longer than 300 lines on purpose: the protocol's steps and their release rules are one
// piece, and splitting them would hide the order that makes them safe.
import type { Collection } from "mongodb";
import type { Actor, EventDoc, WorkspaceDoc } from "../db/index";
import { AppError } from "../errors";
import { versionEventId } from "../ids";
import { addSeconds, now } from "./clock";
import type { StoreDeps } from "./deps";
import { recordEvent } from "./events";
import { releaseUsage, reserveUsage, type UsageDelta } from "./limits";

/** The claim of the one writer preparing a document's next version. */
export interface Claim {
  version: number;
  since: Date;
}

/** What every versioned document has. */
export interface VersionedDoc {
  _id: string;
  workspaceId: string;
  version: number;
  writing: Claim | null;
  /** From the write of a version until its finishing steps are done (absent on older rows: done). */
  revisionPending?: boolean;
  /** `event`: the event the current version records (absent on documents written before it was kept). */
  lastChange?: { event?: string } | null;
  updatedBy: Actor;
  updatedAt: Date;
}

/** The named points of the protocol, in order; a test stops a writer at each of them. */
export type WriteStep = "claimed" | "reserved" | "written" | "event" | "finished" | (string & {});

/**
 * Thrown by a test's `interrupt` to stop a writer at a step as a killed process would:
 * nothing after it runs, not even the release of the claim.
 */
export class WriterStopped extends Error {
  constructor(readonly step: WriteStep) {
    super(`writer stopped at ${step}`);
  }
}

/** The deps a write takes: a test may add `interrupt`, called at each step. */
export type WriteDeps = StoreDeps & { interrupt?: ((step: WriteStep) => void) | undefined };

export type EventInput = Omit<EventDoc, "_id" | "bytes" | "at">;

/** One kind of versioned document: where it is stored and how a version is finished. */
export interface VersionedKind<D extends VersionedDoc, H = undefined> {
  /** "page", "row": in the sentences of conflicts. */
  noun: string;
  collection(deps: StoreDeps): Collection<D>;
  /**
   * The steps after the write, in order, each idempotent (the sweeper runs them again for a
   * document a process left pending, without `hint`; the writer passes what it already has).
   */
  steps: readonly {
    name: string;
    /**
     * Run after the writer's answer (and the event), not before it: work nobody reading the
     * answer needs at once, and that grows with the document (the search index). The
     * pending mark stays until it is done, so a process stopped meanwhile leaves it to the
     * sweeper like any step. With WRITE_FINISH=after_answer every step is after the answer.
     */
    late?: boolean;
    run(deps: StoreDeps, doc: D, ws: WorkspaceDoc, hint: H | undefined): Promise<unknown>;
  }[];
  /** The event of a version, by its type (lastChange.event). */
  event(deps: StoreDeps, doc: D, type: string, hint: H | undefined): Promise<EventInput | null>;
  /** Drops this process's cached copies of the document. */
  forget?(deps: StoreDeps, id: string): void;
}

/** How often a writer that named no version tries again while others hold the claim. */
export const ATTEMPTS = 30;

export function versionConflict(noun: string, current: number, expected: number, why = "someone changed it meanwhile"): AppError {
  return new AppError("version_conflict", `The ${noun} is at version ${current}, not ${expected}; ${why}. Read it again and reapply your change.`, {
    details: { current_version: current },
  });
}

const BUSY = "someone is changing it at this moment";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const backoff = (attempt: number) => sleep(Math.random() * 10 * Math.min(attempt + 1, 8));

function interrupt(deps: WriteDeps, step: WriteStep): void {
  deps.interrupt?.(step);
}

/** The claim of the next version, or null when another writer holds a live one (or the version moved on). */
async function claimNext<D extends VersionedDoc>(deps: StoreDeps, kind: VersionedKind<D, never>, doc: D): Promise<Claim | null> {
  const t = now();
  const stale = addSeconds(t, -deps.config.SWEEP_GRACE_SECONDS);
  if (doc.writing !== null && doc.writing.since > stale) return null;
  const claim = { version: doc.version + 1, since: t };
  const r = await kind
    .collection(deps)
    .updateOne(
      { _id: doc._id, version: doc.version, $or: [{ writing: null }, { "writing.since": { $lte: stale } }] } as never,
      { $set: { writing: claim } } as never,
    );
  return r.modifiedCount === 1 ? claim : null;
}

/** The filter that matches the document only while `claim` is still its writer's. */
export function holding(id: string, claim: Claim): Record<string, unknown> {
  return { _id: id, "writing.version": claim.version, "writing.since": claim.since };
}

const RETRY = Symbol("retry");

/**
 * Runs `work` holding the claim of the document's next version, with the one retry and
 * release policy (see the top of this file). `work` returns RETRY when its conditional write
 * found the claim taken over. The claim is released if `work` fails, unless the writer was
 * stopped (a killed process releases nothing: the claim goes stale instead).
 */
export async function withClaim<D extends VersionedDoc, T>(
  deps: WriteDeps,
  kind: VersionedKind<D, never>,
  op: { read(): Promise<{ doc: D; ws: WorkspaceDoc }>; expectedVersion?: number | undefined },
  work: (doc: D, ws: WorkspaceDoc, claim: Claim, retry: typeof RETRY) => Promise<T | typeof RETRY>,
): Promise<T> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { doc, ws } = await op.read();
    if (op.expectedVersion !== undefined && op.expectedVersion !== doc.version) throw versionConflict(kind.noun, doc.version, op.expectedVersion);
    const claim = await claimNext(deps, kind, doc);
    if (!claim) {
      if (op.expectedVersion !== undefined) throw versionConflict(kind.noun, doc.version, op.expectedVersion, BUSY);
      await backoff(attempt);
      continue;
    }
    try {
      interrupt(deps, "claimed");
      const out = await work(doc, ws, claim, RETRY);
      if (out !== RETRY) return out;
    } catch (err) {
      if (!(err instanceof WriterStopped)) {
        await kind
          .collection(deps)
          .updateOne(holding(doc._id, claim) as never, { $set: { writing: null } } as never)
          .catch(() => undefined);
      }
      throw err;
    }
  }
  throw new AppError("version_conflict", `The ${kind.noun} is changing too fast; try again.`);
}

/** What a use case computes for the next version. */
export interface NextVersion<D, H> {
  /** The document's own fields at the new version (not version, claim, pending mark, author or time). */
  set: Partial<Omit<D, "_id" | "version" | "writing" | "revisionPending" | "updatedBy" | "updatedAt">>;
  /** The usage the version needs: its content, its revision, its rendition, its event. */
  delta: UsageDelta;
  /** The event type the version records. */
  event: string;
  /** What the finishing steps may reuse (a rendered document), instead of computing it again. */
  hint?: H;
}

/**
 * Writes the next version of one document (steps 1 to 4 above). `read` reads the document
 * as it is now with its workspace and checks the caller's access (it runs again on each
 * attempt); `next` computes the new version from what was read. Returns the document as
 * written.
 */
export async function versionedWrite<D extends VersionedDoc, H>(
  deps: WriteDeps,
  kind: VersionedKind<D, H>,
  op: {
    read(): Promise<{ doc: D; ws: WorkspaceDoc }>;
    expectedVersion?: number | undefined;
    actor: Actor;
    next(doc: D, ws: WorkspaceDoc): Promise<NextVersion<D, H>> | NextVersion<D, H>;
  },
): Promise<{ doc: D; ws: WorkspaceDoc }> {
  const collection = kind.collection(deps);
  return withClaim(deps, kind as VersionedKind<D, never>, op, async (doc, ws, claim, retry) => {
    const next = await op.next(doc, ws);
    await reserveUsage(deps, ws, next.delta);
    interrupt(deps, "reserved");
    const fields = {
      ...next.set,
      lastChange: { ...((next.set as { lastChange?: object }).lastChange ?? {}), event: next.event },
      version: claim.version,
      writing: null,
      revisionPending: true,
      updatedBy: op.actor,
      updatedAt: now(),
    };
    const r = await collection.updateOne({ ...holding(doc._id, claim), version: doc.version } as never, { $set: fields } as never);
    kind.forget?.(deps, doc._id);
    if (r.modifiedCount !== 1) {
      // Our claim went stale and another writer took over: give back and start again.
      await releaseUsage(deps, ws._id, next.delta);
      return retry;
    }
    interrupt(deps, "written");
    const written = { ...doc, ...fields } as D;
    await finish(deps, kind, written, ws, next.hint);
    return { doc: written, ws };
  });
}

/**
 * Creates version 1 of a document: its usage reserved, the document inserted with its
 * pending mark, then finished as any version. An insert that fails is undone (it may have
 * reached the database though it failed here) and so is what the caller reserved before
 * (`undo`); should the undo of the insert fail too, the document may exist: the caller's
 * reservations are kept, and the sweeper finishes the document from its mark.
 */
export async function versionedCreate<D extends VersionedDoc, H>(
  deps: WriteDeps,
  kind: VersionedKind<D, H>,
  op: { ws: WorkspaceDoc; doc: D; delta: UsageDelta; event: string; hint?: H; undo?: () => Promise<unknown> },
): Promise<D> {
  const { ws, doc, delta } = op;
  const collection = kind.collection(deps);
  const created = { ...doc, lastChange: { ...(doc.lastChange ?? {}), event: op.event }, writing: null, revisionPending: true } as D;
  try {
    await reserveUsage(deps, ws, delta);
  } catch (err) {
    await op.undo?.().catch(() => undefined);
    throw err;
  }
  interrupt(deps, "reserved");
  try {
    await collection.insertOne(created as never);
  } catch (err) {
    const undone = await collection.deleteOne({ _id: doc._id } as never).then(
      () => true,
      () => false,
    );
    if (undone) {
      await releaseUsage(deps, ws._id, delta).catch(() => undefined);
      await op.undo?.().catch(() => undefined);
    }
    throw err;
  }
  interrupt(deps, "written");
  await finish(deps, kind, created, ws, op.hint);
  return created;
}

/**
 * Versions of each workspace this process is finishing after their answer, in the order
 * they were written: one chain per workspace, so their events take their positions in the
 * change feed in that order (docs/events.md#guarantees), and how many are waiting.
 */
const chains = new Map<string, { tail: Promise<void>; waiting: number }>();

/** How many versions of one workspace may wait to be finished before a writer waits for them. */
const CHAIN_MAX = 16;

/** How many late steps this process may be running before a writer waits for one of them. */
const LATE_MAX = 32;

/**
 * Step 4, where the configuration puts it: before the answer (`WRITE_FINISH=inline`, the
 * default; the kind's late steps and the cleared mark just after it, LATE_MAX at most in
 * flight, so a burst of new pages never outgrows what the database indexes), or after it
 * (`after_answer`): the version is already durable (its pending mark
 * is written with it, so the sweeper finishes it should this process stop), and this
 * process finishes them: each version's own steps at once, and the events of a workspace's
 * versions (with their feed positions) one after the other in the order written.
 * A writer finding CHAIN_MAX versions of its workspace waiting waits for them first, so a
 * burst never outgrows what the database finishes.
 */
async function finish<D extends VersionedDoc, H>(deps: WriteDeps, kind: VersionedKind<D, H>, doc: D, ws: WorkspaceDoc, hint: H | undefined): Promise<void> {
  if (deps.config.WRITE_FINISH !== "after_answer") {
    // Inline: the version's steps and its event before the answer; its late steps (and the
    // cleared mark, which no reader waits for) after it, still in this process.
    await finishSteps(deps, kind, doc, ws, hint, (step) => !step.late);
    await recordVersionEvent(deps, kind, doc, hint);
    const late = new Promise((r) => setImmediate(r))
      .then(async () => {
        await finishSteps(deps, kind, doc, ws, hint, (step) => step.late === true);
        await clearPending(deps, kind, doc);
      })
      .catch(() => {
        // Left pending: the sweeper finishes it after SWEEP_GRACE_SECONDS, as for a stopped process.
      })
      .finally(() => lateSteps.delete(late));
    lateSteps.add(late);
    if (lateSteps.size > LATE_MAX) await Promise.race(lateSteps);
    return;
  }
  const chain = chains.get(ws._id) ?? { tail: Promise.resolve(), waiting: 0 };
  chains.set(ws._id, chain);
  const before = chain.tail;
  chain.waiting++;
  // The kind's steps start once the answer has gone out, beside those of other versions; only
  // the event (with its feed position) and the cleared mark wait for the versions before.
  // Never rejected (a failed step leaves the version pending): it may settle before anyone awaits it.
  const steps: Promise<boolean> = new Promise((r) => setImmediate(r)).then(() =>
    finishSteps(deps, kind, doc, ws, hint).then(
      () => true,
      () => false,
    ),
  );
  const done = before
    .then(() => steps)
    .then(async (ok) => {
      if (ok) await finishEvent(deps, kind, doc, hint);
    })
    .catch(() => {
      // Left pending: the sweeper finishes it after SWEEP_GRACE_SECONDS, as for a stopped process.
    })
    .finally(() => {
      chain.waiting--;
      if (chain.waiting === 0 && chains.get(ws._id) === chain) chains.delete(ws._id);
    });
  chain.tail = done;
  if (chain.waiting > CHAIN_MAX) await before;
}

/** Late steps this process is running after their writers' answers (WRITE_FINISH=inline). */
const lateSteps = new Set<Promise<void>>();

/** Resolves once every version this process was finishing after its answer is finished (tests, benchmarks, shutdown). */
export async function awaitWritesSettled(): Promise<void> {
  while (chains.size > 0 || lateSteps.size > 0) await Promise.all([...[...chains.values()].map((c) => c.tail), ...lateSteps]);
}

/**
 * Step 4: the kind's finishing steps, the event, then the pending mark cleared. Run by the
 * writer, and by the sweeper for a document left pending (without `hint`).
 */
export async function finishVersion<D extends VersionedDoc, H>(deps: WriteDeps, kind: VersionedKind<D, H>, doc: D, ws: WorkspaceDoc, hint?: H): Promise<void> {
  await finishSteps(deps, kind, doc, ws, hint);
  await finishEvent(deps, kind, doc, hint);
}

/** The kind's finishing steps (those `which` picks: all by default), in order. */
async function finishSteps<D extends VersionedDoc, H>(
  deps: WriteDeps,
  kind: VersionedKind<D, H>,
  doc: D,
  ws: WorkspaceDoc,
  hint: H | undefined,
  which: (step: VersionedKind<D, H>["steps"][number]) => boolean = () => true,
): Promise<void> {
  for (const step of kind.steps) {
    if (!which(step)) continue;
    await step.run(deps, doc, ws, hint);
    interrupt(deps, step.name);
  }
}

/** The version's event (its feed position with it), then the pending mark cleared. */
async function finishEvent<D extends VersionedDoc, H>(deps: WriteDeps, kind: VersionedKind<D, H>, doc: D, hint: H | undefined): Promise<void> {
  await recordVersionEvent(deps, kind, doc, hint);
  await clearPending(deps, kind, doc);
}

async function recordVersionEvent<D extends VersionedDoc, H>(deps: WriteDeps, kind: VersionedKind<D, H>, doc: D, hint: H | undefined): Promise<void> {
  const type = doc.lastChange?.event;
  const event = type ? await kind.event(deps, doc, type, hint) : null;
  if (event) await recordEvent(deps, event, { counted: true, id: versionEventId(doc._id, doc.version), version: doc.version });
  interrupt(deps, "event");
}

async function clearPending<D extends VersionedDoc, H>(deps: WriteDeps, kind: VersionedKind<D, H>, doc: D): Promise<void> {
  await kind.collection(deps).updateOne({ _id: doc._id, version: doc.version } as never, { $set: { revisionPending: false } } as never);
  kind.forget?.(deps, doc._id);
  interrupt(deps, "finished");
}

/**
 * The sweeper's part: finishes the versions of `kind` left pending for longer than the
 * grace period (their writer stopped, or is far too slow: every step is idempotent, so
 * finishing twice does no harm). `skip` leaves a document out (a page being deleted).
 */
export async function finishPendingVersions<D extends VersionedDoc, H>(
  deps: StoreDeps,
  kind: VersionedKind<D, H>,
  settled: Date,
  limit: number,
  skip: (doc: D) => boolean = () => false,
): Promise<number> {
  const pending = (await kind
    .collection(deps)
    .find({ revisionPending: true, updatedAt: { $lte: settled } } as never)
    .limit(limit)
    .toArray()) as D[];
  let finished = 0;
  for (const doc of pending) {
    if (skip(doc)) continue;
    const ws = await deps.database.c.workspaces.findOne({ _id: doc.workspaceId });
    if (ws) await finishVersion(deps, kind, doc, ws);
    finished++;
  }
  return finished;
}
