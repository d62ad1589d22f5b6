// The activity feed: one event per change, with its actor. Events count toward the
// workspace's usage (EVENT_BYTES each): a write that reserved its bytes already says so.
import type { Actor, Database, EventDoc } from "../db/index";
import { isDuplicateKey } from "../errors";
import { newId } from "../ids";
import { now } from "./clock";
import { EVENT_BYTES } from "./limits";

export async function recordEvent(
  deps: { database: Database },
  input: { workspaceId: string; type: string; actor: Actor; target: EventDoc["target"]; count?: number; restoredFrom?: number },
  opts: { counted?: boolean; id?: string } = {},
): Promise<void> {
  const { database } = deps;
  try {
    await database.c.events.insertOne({ _id: opts.id ?? newId("evt"), ...input, bytes: EVENT_BYTES, at: now() });
  } catch (err) {
    // An event with a given id (a version's, see versioned-write.ts) is written once: a second
    // write of it, by the sweeper finishing the same version, is no change.
    if (opts.id !== undefined && isDuplicateKey(err)) return;
    throw err;
  }
  if (!opts.counted) await database.c.workspaces.updateOne({ _id: input.workspaceId }, { $inc: { "usage.bytes": EVENT_BYTES } });
}
