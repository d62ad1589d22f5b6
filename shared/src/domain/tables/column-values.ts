import type { Principal } from "../access";
import type { StoreDeps } from "../deps";
import { valueCount } from "./table-definition";
import { findColumn, resolveTable, type TableRef } from "./table-store";

/** How many rows have a value in a column: what removing it would drop. */
export async function columnValues(
  deps: StoreDeps,
  principal: Principal,
  input: TableRef & { column: string },
): Promise<{ column: string; rows_with_values: number }> {
  const { table } = await resolveTable(deps, principal, input, "read");
  const col = findColumn(table, input.column);
  return { column: col.name, rows_with_values: await valueCount(deps, table, col) };
}
