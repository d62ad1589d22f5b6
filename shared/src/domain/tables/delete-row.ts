import { AppError } from "../../errors";
import { actorOf, type Principal } from "../access";
import { refreshTableViews } from "../artifacts";
import { now } from "../clock";
import type { StoreDeps } from "../deps";
import { recordEvent } from "../events";
import { EVENT_BYTES, markUsageChanging, RECORD_OVERHEAD_BYTES, releaseUsage } from "../limits";
import { versionConflict } from "../versioned-write";
import { rowRevision } from "./row-versions";
import { resolveTable, tableChanged, type TableRef } from "./table-store";

/**
 * Deletes a row, leaving a tombstone revision. Not a new version of a document that stays:
 * one delete conditional on the version read (a writer holding the row's claim then finds it
 * gone and gives its reservation back).
 */
export async function deleteRow(
  deps: StoreDeps,
  principal: Principal,
  input: TableRef & { rowId: string; expectedVersion?: number | undefined },
): Promise<{ row_id: string }> {
  const { database } = deps;
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const row = await database.c.rows.findOne({ _id: input.rowId });
  if (!row || row.collectionId !== table._id) {
    throw new AppError(
      input.expectedVersion === undefined ? "not_found" : "version_conflict",
      input.expectedVersion === undefined ? "No such row." : "The row changed or is gone; read it again.",
    );
  }
  if (input.expectedVersion !== undefined && row.version !== input.expectedVersion) throw versionConflict("row", row.version, input.expectedVersion);
  // Counters first marked, so a stop between the delete and their update is recounted.
  await database.c.collections.updateOne({ _id: table._id }, { $set: { countDirtyAt: now() } });
  await markUsageChanging({ database }, ws._id);
  const r = await database.c.rows.deleteOne({ _id: row._id, version: row.version });
  if (r.deletedCount !== 1) throw new AppError("version_conflict", "Someone changed the row at the same moment; read it again.");
  await database.c.collections.updateOne({ _id: table._id }, { $inc: { rowCount: -1 }, $set: { countDirtyAt: now() } });
  const actor = actorOf(principal);
  const tombstone = rowRevision({ ...row, version: row.version + 1, updatedAt: now() }, actor, true);
  // The row goes; its tombstone revision and the event come.
  await releaseUsage({ database }, ws._id, { pages: 0, bytes: RECORD_OVERHEAD_BYTES + row.bytes - tombstone.bytes - EVENT_BYTES });
  await database.c.rowRevisions.insertOne(tombstone);
  const after = await tableChanged(deps, table, [row._id]);
  await recordEvent(
    deps,
    { workspaceId: ws._id, type: "row.deleted", actor, target: { kind: "collection", id: table._id, label: table.name } },
    { counted: true },
  );
  await refreshTableViews(deps, ws, table, after);
  return { row_id: row._id };
}
