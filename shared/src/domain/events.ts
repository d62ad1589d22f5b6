// The activity feed: one event per change, with its actor. Events count toward the
// workspace's usage (EVENT_BYTES each): a write that reserved its bytes already says so.
// Each event then gets its position in the workspace's change feed (changes/feed.ts), in
// the same step: recording an event again (the sweeper finishing a version) gives it the
// position it lacks, never a second one.
import type { Actor, Database, EventDoc } from "../db/index";
import { isDuplicateKey } from "../errors";
import { newId } from "../ids";
import { appendChange } from "./changes/feed";
import { now } from "./clock";
import { EVENT_BYTES } from "./limits";

export async function recordEvent(
  deps: { database: Database },
  input: { workspaceId: string; type: string; actor: Actor; target: EventDoc["target"]; count?: number; restoredFrom?: number },
  opts: { counted?: boolean; id?: string; version?: number } = {},
): Promise<void> {
  const { database } = deps;
  const id = opts.id ?? newId("evt");
  let again = false;
  try {
    await database.c.events.insertOne({ _id: id, ...input, bytes: EVENT_BYTES, at: now() });
  } catch (err) {
    // An event with a given id (a version's, see versioned-write.ts) is written once: a second
    // write of it, by the sweeper finishing the same version, is no change.
    if (opts.id === undefined || !isDuplicateKey(err)) throw err;
    again = true;
  }
  if (!again && !opts.counted) await database.c.workspaces.updateOne({ _id: input.workspaceId }, { $inc: { "usage.bytes": EVENT_BYTES } });
  await appendChange(deps, { workspaceId: input.workspaceId, eventId: id, type: input.type, actor: input.actor, target: input.target, version: opts.version });
}
