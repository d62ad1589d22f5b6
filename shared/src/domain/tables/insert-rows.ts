import type { RowDoc } from "../../db/index";
import { AppError, invalidField } from "../../errors";
import { actorOf, type Principal } from "../access";
import { refreshTableViews } from "../artifacts";
import { now } from "../clock";
import type { StoreDeps } from "../deps";
import { recordEvent } from "../events";
import { EVENT_BYTES, RECORD_OVERHEAD_BYTES, releaseUsage, reserveUsage } from "../limits";
import { assertRowSize, checkRow, newRowId, rowBytes } from "./row-values";
import { rowRevision } from "./row-versions";
import { resolveTable, tableChanged, type TableRef } from "./table-store";

/** Inserts rows all or nothing: every row is checked first, and a failure undoes the rest. */
export async function insertRows(deps: StoreDeps, principal: Principal, input: TableRef & { rows: unknown[] }): Promise<{ row_ids: string[] }> {
  const { database, config } = deps;
  if (input.rows.length === 0 || input.rows.length > 500) {
    throw invalidField("rows", input.rows.length === 0 ? "too_few" : "too_many", "send 1 to 500 rows at a time", { min: 1, max: 500 });
  }
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const actor = actorOf(principal);
  const t = now();
  const rows: RowDoc[] = input.rows.map((r, i) => {
    const values = checkRow(table, r, `rows.${i}`);
    const bytes = rowBytes(values);
    assertRowSize(bytes, config.ROW_MAX_BYTES, `rows.${i}`, "is");
    return {
      _id: newRowId(),
      workspaceId: ws._id,
      collectionId: table._id,
      values,
      version: 1,
      bytes,
      writing: null,
      // Finished as inserted: its first revision is stored before it (below).
      revisionPending: false,
      createdBy: actor,
      updatedBy: actor,
      createdAt: t,
      updatedAt: t,
    };
  });
  const n = rows.length;
  // Each row and its first revision, and the event.
  const delta = { pages: 0, bytes: rows.reduce((s, r) => s + 2 * (RECORD_OVERHEAD_BYTES + r.bytes), 0) + EVENT_BYTES };
  const reserved = await database.c.collections.updateOne(
    { _id: table._id, rowCount: { $lte: config.TABLE_MAX_ROWS - n } },
    { $inc: { rowCount: n }, $set: { countDirtyAt: t } },
  );
  if (reserved.modifiedCount !== 1) {
    throw new AppError("limit_exceeded", `A table holds at most ${config.TABLE_MAX_ROWS} rows.`, { details: { limit: "rows", max: config.TABLE_MAX_ROWS } });
  }
  try {
    await reserveUsage(deps, ws, delta);
  } catch (err) {
    await database.c.collections.updateOne({ _id: table._id }, { $inc: { rowCount: -n } });
    throw err;
  }
  try {
    // The first revisions go in before their rows, so a row is never stored without its
    // revision and needs no pending mark to clear afterwards: clearing it cost one update per
    // row (a filter on `_id` with `$in` is not served by the embedded database's `_id` index
    // and reads every row stored; a multi-statement update is not narrowed), 100 of the 113
    // round trips of a 100-row insert. A process stopped between the two leaves revisions of
    // rows that were never stored: unreachable (a row's history is read by its id), counted in
    // the workspace's usage until the table is deleted (docs/decisions.md, issue 30).
    await database.c.rowRevisions.insertMany(
      rows.map((r) => rowRevision(r, actor)),
      { ordered: false },
    );
    await database.c.rows.insertMany(rows, { ordered: true });
  } catch (err) {
    await database.c.rows.deleteMany({ _id: { $in: rows.map((r) => r._id) } });
    await database.c.rowRevisions.deleteMany({ rowId: { $in: rows.map((r) => r._id) } });
    await database.c.collections.updateOne({ _id: table._id }, { $inc: { rowCount: -n } });
    await releaseUsage({ database }, ws._id, delta);
    // A copy read while some of them were stored must not keep them.
    await tableChanged(
      deps,
      table,
      rows.map((r) => r._id),
    );
    throw err;
  }
  const after = await tableChanged(
    deps,
    table,
    rows.map((r) => r._id),
  );
  await recordEvent(
    deps,
    { workspaceId: ws._id, type: "rows.inserted", actor, target: { kind: "collection", id: table._id, label: table.name }, count: n },
    { counted: true },
  );
  await refreshTableViews(deps, ws, table, after);
  return { row_ids: rows.map((r) => r._id) };
}
