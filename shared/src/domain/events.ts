// The activity feed: one event per change, with its actor.
import type { Actor, Database, EventDoc } from "../db/index";
import { newId } from "../ids";
import { now } from "./clock";

export async function recordEvent(
  database: Database,
  input: { workspaceId: string; type: string; actor: Actor; target: EventDoc["target"] },
): Promise<void> {
  await database.c.events.insertOne({ _id: newId("evt"), ...input, at: now() });
}
