// Finding a table for a use case, and telling copies of its rows that it changed.
import type { CollectionDoc, WorkspaceDoc } from "../../db/index";
import { AppError, invalidField } from "../../errors";
import { utf8Bytes, type ColumnRule } from "../../schemas/cells";
import { assertCan, type Principal } from "../access";
import type { StoreDeps } from "../deps";
import { RECORD_OVERHEAD_BYTES } from "../limits";
import { recordRowChange } from "../row-snapshots";
import { resolveWorkspaceForWrite } from "../workspaces";

/** How a use case names a table: by slug, in the named workspace (or the caller's default one). */
export type TableRef = { workspace?: string | undefined; collection: string };

/**
 * Marks a table as changed (its rows or its columns): every change calls this once it has
 * written, so anything holding a copy of the rows knows it is behind. A change to some rows
 * names them (`rowIds`): the version it took and those ids are written down
 * (row-snapshots.ts), so a copy can catch up by reading just those rows; a change to every
 * row (a column renamed or removed) names none, and copies are read again whole.
 */
export async function tableChanged(
  deps: Pick<StoreDeps, "database">,
  table: Pick<CollectionDoc, "_id" | "workspaceId">,
  rowIds?: readonly string[],
): Promise<CollectionDoc | null> {
  if (!rowIds) {
    await deps.database.c.collections.updateOne({ _id: table._id }, { $inc: { rowsVersion: 1 } });
    return null;
  }
  const after = await deps.database.c.collections.findOneAndUpdate({ _id: table._id }, { $inc: { rowsVersion: 1 } }, { returnDocument: "after" });
  if (after) await recordRowChange(deps, table, after.rowsVersion ?? 0, rowIds);
  // The table as it is after the change (its list of pages showing it, for refreshTableViews).
  return after;
}

/** Bytes a table's definition takes (its name and columns). */
export function definitionBytes(c: { name: string; columns: ColumnRule[] }): number {
  return RECORD_OVERHEAD_BYTES + utf8Bytes(c.name) + utf8Bytes(JSON.stringify(c.columns));
}

/** A table of a workspace the principal may read (`write` when it is for a write). */
export async function resolveTable(
  deps: StoreDeps,
  principal: Principal,
  input: { workspace?: string | undefined; collection: string },
  action: "read" | "write",
): Promise<{ ws: WorkspaceDoc; table: CollectionDoc }> {
  const ws = await resolveWorkspaceForWrite(deps, principal, input.workspace);
  assertCan(principal, ws, action);
  const table = await deps.database.c.collections.findOne({ workspaceId: ws._id, slug: input.collection });
  if (!table) throw new AppError("not_found", `No table "${input.collection}" in this workspace.`);
  if (table.kind !== "table") throw new AppError("invalid_request", `"${input.collection}" is a pages collection, not a table.`);
  return { ws, table };
}

export function findColumn(table: CollectionDoc, name: string, path = "column"): ColumnRule {
  const col = table.columns.find((c) => c.name === name);
  if (!col) throw invalidField(path, "unknown_column", `the table has no column "${name}"`, { column: name });
  return col;
}

/**
 * "Has a value" for a column, as contract filters (a dotted $ne is outside the storage
 * contract): ranges that span every value of the column's type.
 */
export function notNull(type: ColumnRule["type"], field: string): Record<string, unknown>[] {
  switch (type) {
    case "number":
      return [{ [field]: { $gte: -Number.MAX_VALUE } }];
    case "boolean":
      return [{ [field]: true }, { [field]: false }];
    case "text":
    case "date":
    case "url":
    case "select":
      return [{ [field]: { $gte: "" } }];
  }
}
