import { invalidInput } from "../../errors";
import { checkColumns } from "../../schemas/cells";
import type { TableView } from "../../schemas/tables";
import type { Principal } from "../access";
import type { StoreDeps } from "../deps";
import { afterSchemaChange, writeDefinition } from "./table-definition";
import { findColumn, notNull, resolveTable, tableChanged, type TableRef } from "./table-store";
import { tableView } from "./table-view";

/**
 * Renames a column and carries every row's value over. The definition changes first (so
 * writes from then on use the new name), then the values move, one distinct value at a
 * time; each move matches only rows that still hold the old name with that value, so it
 * never overwrites a row written meanwhile. History keeps the names a version was saved with.
 */
export async function renameColumn(deps: StoreDeps, principal: Principal, input: TableRef & { column: string; name: string }): Promise<TableView> {
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const col = findColumn(table, input.column);
  if (input.name === col.name) return tableView(table);
  const columns = table.columns.map((c) => (c.name === col.name ? { ...c, name: input.name } : c));
  const checked = checkColumns(columns);
  if (!checked.ok) {
    const at = `columns.${table.columns.indexOf(col)}.name`;
    throw invalidInput(checked.issues.map((i) => ({ ...i, path: i.path === at ? "name" : i.path })));
  }
  const next = await writeDefinition(deps, ws, table, { name: table.name, columns: checked.columns });
  const from = `values.${col.name}`;
  const to = `values.${input.name}`;
  for (let pass = 0; pass < 3; pass++) {
    const held = await deps.database.c.rows.find({ collectionId: table._id, $or: notNull(col.type, from) }, { projection: { [from]: 1 } }).toArray();
    if (held.length === 0) break;
    const values = new Set(held.map((r) => r.values[col.name]).filter((v): v is string | number | boolean => v !== null && v !== undefined));
    for (const v of values) await deps.database.c.rows.updateMany({ collectionId: table._id, [from]: v }, { $set: { [to]: v }, $unset: { [from]: "" } });
  }
  // What is left under the old name is empty: the new name is empty there too (never
  // touching a row that already has a value under the new name).
  await deps.database.c.rows.updateMany({ collectionId: table._id, [from]: null, [to]: null }, { $set: { [to]: null }, $unset: { [from]: "" } });
  await tableChanged(deps, table);
  return afterSchemaChange(deps, principal, ws, next, "column.renamed", `${table.name}: ${col.name} → ${input.name}`);
}
