import { AppError, invalidField } from "../../errors";
import type { TableView } from "../../schemas/tables";
import type { Principal } from "../access";
import type { StoreDeps } from "../deps";
import { markUsageChanging } from "../limits";
import { afterSchemaChange, valueCount, writeDefinition } from "./table-definition";
import { findColumn, resolveTable, type TableRef } from "./table-store";

/**
 * Removes a column and drops its values. `expectedValues` is the count the person was shown
 * when confirming, and is required (0 for a column with no values): if more rows have a value
 * by now, nothing is removed (`conflict`, with the count), so a column is never dropped
 * without a confirmation and a confirmation never drops more than it said.
 */
export async function removeColumn(deps: StoreDeps, principal: Principal, input: TableRef & { column: string; expectedValues: number }): Promise<TableView> {
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const col = findColumn(table, input.column);
  if (table.columns.length === 1) throw invalidField("column", "too_few", "a table keeps at least one column; delete the table instead", { min: 1 });
  const count = await valueCount(deps, table, col);
  if (count > input.expectedValues) {
    throw new AppError("conflict", `${count} rows have a value in "${col.name}" now, not ${input.expectedValues}; confirm again.`, {
      details: { rows_with_values: count },
    });
  }
  const next = await writeDefinition(deps, ws, table, { name: table.name, columns: table.columns.filter((c) => c.name !== col.name) });
  await markUsageChanging(deps, ws._id);
  await deps.database.c.rows.updateMany({ collectionId: table._id }, { $unset: { [`values.${col.name}`]: "" } });
  return afterSchemaChange(deps, principal, ws, next, "column.removed", `${table.name}: ${col.name}`);
}
