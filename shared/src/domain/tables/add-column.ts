import { invalidField, invalidInput } from "../../errors";
import { checkColumns, type ColumnInput } from "../../schemas/cells";
import type { TableView } from "../../schemas/tables";
import type { Principal } from "../access";
import type { StoreDeps } from "../deps";
import { afterSchemaChange, writeDefinition } from "./table-definition";
import { resolveTable, type TableRef } from "./table-store";

/**
 * Adds a column; every row gets it empty. A required column can only be added to a table
 * without rows (the rows would have nothing in it).
 */
export async function addColumn(deps: StoreDeps, principal: Principal, input: TableRef & { column: ColumnInput }): Promise<TableView> {
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const checked = checkColumns([...table.columns, input.column]);
  if (!checked.ok) {
    const at = `columns.${table.columns.length}`;
    throw invalidInput(checked.issues.map((i) => ({ ...i, path: i.path.startsWith(at) ? `column${i.path.slice(at.length)}` : i.path })));
  }
  if (input.column.required && table.rowCount > 0) {
    throw invalidField("column.required", "not_allowed", "a column added to a table with rows cannot be required: its rows would have no value", {
      rows: table.rowCount,
    });
  }
  const next = await writeDefinition(deps, ws, table, { name: table.name, columns: checked.columns });
  await deps.database.c.rows.updateMany({ collectionId: table._id }, { $set: { [`values.${input.column.name}`]: null } });
  return afterSchemaChange(deps, principal, ws, next, "column.added", `${table.name}: ${input.column.name}`);
}
