import { invalidField, invalidInput } from "../../errors";
import { checkColumns, type ColumnRule } from "../../schemas/cells";
import type { TableView } from "../../schemas/tables";
import type { Principal } from "../access";
import type { StoreDeps } from "../deps";
import { afterSchemaChange, valueCount, writeDefinition } from "./table-definition";
import { findColumn, notNull, resolveTable, type TableRef } from "./table-store";

/**
 * Changes a column's type (and a choice column's options). Values are never converted
 * silently: the change is refused while any row has a value in the column
 * (`invalid_request`, issue `has_values` with the count), so the person empties it, or adds
 * a new column and copies what they mean, first.
 */
export async function changeColumnType(
  deps: StoreDeps,
  principal: Principal,
  input: TableRef & { column: string; type: ColumnRule["type"]; options?: string[] | undefined },
): Promise<TableView> {
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const col = findColumn(table, input.column);
  const index = table.columns.indexOf(col);
  const checked = checkColumns(
    table.columns.map((c, i) => (i === index ? { name: c.name, type: input.type, required: c.required, options: input.options } : c)),
  );
  if (!checked.ok) {
    const at = `columns.${index}.`;
    throw invalidInput(checked.issues.map((i) => ({ ...i, path: i.path.startsWith(at) ? i.path.slice(at.length) : i.path })));
  }
  const count = await valueCount(deps, table, col);
  if (count > 0 && input.type !== col.type) {
    throw invalidField("type", "has_values", `${count} rows have a value in "${col.name}"; values are not converted between types`, { rows: count });
  }
  if (count > 0 && input.type === "select") {
    const kept = new Set(input.options ?? []);
    const used = await deps.database.c.rows
      .find({ collectionId: table._id, $or: notNull(col.type, `values.${col.name}`) }, { projection: { [`values.${col.name}`]: 1 } })
      .toArray();
    const lost = [...new Set(used.map((r) => String(r.values[col.name])))].filter((v) => !kept.has(v));
    if (lost.length > 0)
      throw invalidField(
        "options",
        "has_values",
        `rows still use ${lost
          .slice(0, 5)
          .map((v) => `"${v}"`)
          .join(", ")}`,
        { options: lost.slice(0, 20) },
      );
  }
  const next = await writeDefinition(deps, ws, table, { name: table.name, columns: checked.columns });
  return afterSchemaChange(deps, principal, ws, next, "column.changed", `${table.name}: ${col.name}`);
}
