// The activity feed: one event per change, with its actor. Events count toward the
// workspace's usage (EVENT_BYTES each): a write that reserved its bytes already says so.
import type { Actor, Database, EventDoc } from "../db/index";
import { newId } from "../ids";
import { now } from "./clock";
import { EVENT_BYTES } from "./limits";

export async function recordEvent(
  deps: { database: Database },
  input: { workspaceId: string; type: string; actor: Actor; target: EventDoc["target"]; count?: number; restoredFrom?: number },
  opts: { counted?: boolean } = {},
): Promise<void> {
  const { database } = deps;
  await database.c.events.insertOne({ _id: newId("evt"), ...input, bytes: EVENT_BYTES, at: now() });
  if (!opts.counted) await database.c.workspaces.updateOne({ _id: input.workspaceId }, { $inc: { "usage.bytes": EVENT_BYTES } });
}
