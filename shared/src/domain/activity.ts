// The activity feed of a workspace, newest first, for its members, in the words people use:
// pages and tables by their current titles (with where they are now), and a run of row
// changes by one actor to one table as one entry ("added 12 rows").
import { z } from "zod";
import type { EventDoc } from "../db/index";
import { AppError } from "../errors";
import type { ActivityView } from "../schemas/workspaces";
import { actorForReader, type Principal, readerIn, roleOf } from "./access";
import { decodeCursor, encodeCursor } from "./cursors";
import type { StoreDeps } from "./deps";
import { readableWorkspace } from "./workspaces";

const ActivityCursor = z.object({ at: z.number().int().nonnegative(), id: z.string().regex(/^evt_[A-Za-z0-9_-]{10,40}$/) }).strict();

const PAGE = 50;
const ROW_EVENTS = new Set(["rows.inserted", "row.updated", "row.deleted"]);

/** Where an event's page or table is now: its current title and slug (null when it is gone). */
interface Place {
  label: string;
  slug: string;
}

async function placesOf(
  deps: StoreDeps,
  workspaceId: string,
  events: EventDoc[],
): Promise<{ pages: Map<string, Place>; tables: Map<string, Place>; rowTables: Map<string, string> }> {
  const { c } = deps.database;
  const ids = (kind: EventDoc["target"]["kind"]) => [...new Set(events.filter((e) => e.target.kind === kind).map((e) => e.target.id))];
  const pageIds = ids("page");
  // Row events before this version named the row; their table is found through it.
  const rowIds = ids("row");
  const [pages, rows] = await Promise.all([
    pageIds.length ? c.pages.find({ _id: { $in: pageIds } }, { projection: { slug: 1, title: 1, workspaceId: 1 } }).toArray() : [],
    rowIds.length ? c.rows.find({ _id: { $in: rowIds } }, { projection: { collectionId: 1 } }).toArray() : [],
  ]);
  const rowTables = new Map(rows.map((r) => [r._id, r.collectionId]));
  const tableIds = [...new Set([...ids("collection"), ...rowTables.values()])];
  const tables = tableIds.length
    ? await c.collections.find({ _id: { $in: tableIds } }, { projection: { slug: 1, name: 1, workspaceId: 1, kind: 1 } }).toArray()
    : [];
  return {
    pages: new Map(pages.filter((p) => p.workspaceId === workspaceId).map((p) => [p._id, { label: p.title, slug: p.slug }])),
    tables: new Map(tables.filter((t) => t.workspaceId === workspaceId && t.kind === "table").map((t) => [t._id, { label: t.name, slug: t.slug }])),
    rowTables,
  };
}

type EventView = ActivityView["events"][number];

/** Recent changes in a workspace, newest first, 50 events at a time (runs of row changes as one entry). */
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
  const found = await deps.database.c.events
    .find(filter)
    .sort({ at: -1, _id: -1 })
    .limit(PAGE + 1)
    .toArray();
  const page = found.slice(0, PAGE);
  const last = page[page.length - 1];
  const places = await placesOf(deps, ws._id, page);

  const views: (EventView & { group: string | null })[] = [];
  for (const e of page) {
    const tableId = e.target.kind === "row" ? places.rowTables.get(e.target.id) : e.target.kind === "collection" ? e.target.id : undefined;
    const place = e.target.kind === "page" ? places.pages.get(e.target.id) : tableId ? places.tables.get(tableId) : undefined;
    // A run of the same row change, by the same actor, to the same table, reads as one entry.
    const group = ROW_EVENTS.has(e.type) ? `${e.type}|${e.actor.kind}|${e.actor.userId ?? ""}|${e.actor.tokenId ?? ""}|${tableId ?? e.target.label}` : null;
    const prev = views[views.length - 1];
    if (group !== null && prev?.group === group) {
      prev.count += e.count ?? 1;
      continue;
    }
    views.push({
      id: e._id,
      type: e.type,
      actor: actorForReader(e.actor, reader),
      target: {
        kind: e.target.kind === "row" ? "collection" : e.target.kind,
        id: tableId ?? e.target.id,
        // The title it has now; what it was called then when it is gone.
        label: place?.label ?? legacyLabel(e),
        slug: place?.slug ?? null,
      },
      count: e.count ?? 1,
      restored_from: e.restoredFrom ?? null,
      at: e.at.toISOString(),
      group,
    });
  }
  return {
    events: views.map(({ group: _group, ...v }) => v),
    next_cursor: found.length > PAGE && last ? encodeCursor(deps.config.SECRET_KEY, `activity:${ws._id}`, { at: last.at.getTime(), id: last._id }) : null,
  };
}

/** Events written before counts had their own field labelled rows "<table> (+<n>)". */
function legacyLabel(e: EventDoc): string {
  return e.type === "rows.inserted" ? e.target.label.replace(/ \(\+\d+\)$/, "") : e.target.label;
}
