// The activity feed of a workspace, newest first, for its members.
import { z } from "zod";
import { AppError } from "../errors";
import type { ActivityView } from "../schemas/workspaces";
import { actorForReader, type Principal, readerIn, roleOf } from "./access";
import { decodeCursor, encodeCursor } from "./cursors";
import type { StoreDeps } from "./deps";
import { readableWorkspace } from "./workspaces";

const ActivityCursor = z.object({ at: z.number().int().nonnegative(), id: z.string().regex(/^evt_[A-Za-z0-9_-]{10,40}$/) }).strict();

/** Recent changes in a workspace, newest first, 50 at a time. */
export async function listActivity(deps: StoreDeps, principal: Principal, input: { workspace: string; cursor?: string | undefined }): Promise<ActivityView> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  const userId = principal.kind === "user" ? principal.user._id : principal.kind === "token" ? principal.token.ownerId : null;
  if (!userId || roleOf(ws, userId) === null) throw new AppError("forbidden", "Only members of this workspace can see that.");
  const reader = readerIn(principal, ws);
  const filter: Record<string, unknown> = { workspaceId: ws._id };
  if (input.cursor) {
    const c = decodeCursor(deps.config.SECRET_KEY, `activity:${ws._id}`, input.cursor, ActivityCursor);
    const at = new Date(c.at);
    filter.$or = [{ at: { $lt: at } }, { at, _id: { $lt: c.id } }];
  }
  const events = await deps.database.c.events.find(filter).sort({ at: -1, _id: -1 }).limit(51).toArray();
  const page = events.slice(0, 50);
  const last = page[page.length - 1];
  return {
    events: page.map((e) => ({
      id: e._id,
      type: e.type,
      actor: actorForReader(e.actor, reader),
      target: e.target,
      count: e.count ?? 1,
      restored_from: e.restoredFrom ?? null,
      at: e.at.toISOString(),
    })),
    next_cursor: events.length > 50 && last ? encodeCursor(deps.config.SECRET_KEY, `activity:${ws._id}`, { at: last.at.getTime(), id: last._id }) : null,
  };
}
