// A table's definition (its name and columns) changes through one conditional write, and
// every such change ends the same way.
import type { CollectionDoc, WorkspaceDoc } from "../../db/index";
import { AppError } from "../../errors";
import type { ColumnRule } from "../../schemas/cells";
import type { TableView } from "../../schemas/tables";
import { actorOf, type Principal } from "../access";
import { refreshTableViews } from "../artifacts";
import type { StoreDeps } from "../deps";
import { recordEvent } from "../events";
import { indexTable } from "../search-index";
import { definitionBytes, notNull, tableChanged } from "./table-store";
import { tableView } from "./table-view";

/**
 * Writes a table's new definition, conditionally on the version of its rows and columns
 * read (`rowsVersion`), so two schema changes at once cannot undo each other: the loser is a
 * `version_conflict`. Returns the table as written.
 */
export async function writeDefinition(
  deps: StoreDeps,
  ws: WorkspaceDoc,
  table: CollectionDoc,
  next: { name: string; columns: ColumnRule[] },
): Promise<CollectionDoc> {
  const bytes = definitionBytes(next);
  const version = table.rowsVersion ?? 0;
  const r = await deps.database.c.collections.updateOne(
    { _id: table._id, ...(table.rowsVersion === undefined ? {} : { rowsVersion: version }) },
    { $set: { name: next.name, columns: next.columns, bytes, rowsVersion: version + 1 } },
  );
  if (r.modifiedCount !== 1) throw new AppError("version_conflict", "Someone changed this table's columns at the same moment; read it again.");
  if (bytes !== table.bytes) await deps.database.c.workspaces.updateOne({ _id: ws._id }, { $inc: { "usage.bytes": bytes - table.bytes } });
  const written = { ...table, name: next.name, columns: next.columns, bytes, rowsVersion: version + 1 };
  if (next.name !== table.name) await indexTable(deps, written);
  return written;
}

/** Rows of `table` with a value in column `col`. */
export function valueCount(deps: StoreDeps, table: CollectionDoc, col: ColumnRule): Promise<number> {
  const has = notNull(col.type, `values.${col.name}`);
  return deps.database.c.rows.countDocuments(has.length === 1 ? { collectionId: table._id, ...has[0] } : { collectionId: table._id, $or: has });
}

/** What every change of a table's definition does after its write: copies of the rows marked behind, the event, the pages showing it rendered again. */
export async function afterSchemaChange(
  deps: StoreDeps,
  principal: Principal,
  ws: WorkspaceDoc,
  table: CollectionDoc,
  type: string,
  label = table.name,
): Promise<TableView> {
  // The rows may have changed after the definition's write (a column renamed, added or
  // removed): a copy of the rows made meanwhile in another process must not count as current.
  await tableChanged(deps, table);
  await recordEvent(deps, { workspaceId: ws._id, type, actor: actorOf(principal), target: { kind: "collection", id: table._id, label } });
  await refreshTableViews(deps, ws, table);
  return tableView(table);
}
