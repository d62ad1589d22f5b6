import { AppError } from "../../errors";
import { actorOf, type Principal } from "../access";
import { refreshTableViews } from "../artifacts";
import type { StoreDeps } from "../deps";
import { recordEvent } from "../events";
import { markUsageChanging, RECORD_OVERHEAD_BYTES, releaseUsage } from "../limits";
import { unindexTarget } from "../search-index";
import { resolveTable, type TableRef } from "./table-store";

/**
 * Deletes a table with its rows and their history, giving their bytes back. Pages that
 * showed it say it no longer exists. Usage is marked first, so a stop in between is recounted.
 */
export async function deleteTable(deps: StoreDeps, principal: Principal, input: TableRef): Promise<{ slug: string }> {
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const { database } = deps;
  await markUsageChanging(deps, ws._id);
  const r = await database.c.collections.deleteOne({ _id: table._id });
  if (r.deletedCount !== 1) throw new AppError("not_found", `No table "${input.collection}" in this workspace.`);
  let freed = table.bytes;
  for await (const row of database.c.rows.find({ collectionId: table._id }, { projection: { bytes: 1 } })) freed += RECORD_OVERHEAD_BYTES + row.bytes;
  for await (const rev of database.c.rowRevisions.find({ collectionId: table._id }, { projection: { bytes: 1 } })) freed += rev.bytes;
  for await (const c of database.c.comments.find({ collectionId: table._id }, { projection: { bytes: 1 } })) freed += c.bytes;
  await database.c.comments.deleteMany({ collectionId: table._id });
  await database.c.rows.deleteMany({ collectionId: table._id });
  await database.c.rowRevisions.deleteMany({ collectionId: table._id });
  await database.c.rowChanges.deleteMany({ collectionId: table._id });
  await unindexTarget(deps, { workspaceId: ws._id, kind: "table", id: table._id });
  await releaseUsage(deps, ws._id, { pages: 0, bytes: freed });
  await recordEvent(deps, {
    workspaceId: ws._id,
    type: "collection.deleted",
    actor: actorOf(principal),
    target: { kind: "collection", id: table._id, label: table.name },
  });
  await refreshTableViews(deps, ws, table);
  return { slug: table.slug };
}
