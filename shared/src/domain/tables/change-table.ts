import type { ChangeTableInput, TableView } from "../../schemas/tables";
import type { Principal } from "../access";
import type { StoreDeps } from "../deps";
import { addColumn } from "./add-column";
import { changeColumnType } from "./change-column-type";
import { removeColumn } from "./remove-column";
import { renameColumn } from "./rename-column";
import { renameTable } from "./rename-table";

/**
 * One change of a table's settings, for agents (change_table): each op is the app's own use
 * case, so its rules (a column's values never converted, a removal that would drop more
 * values than confirmed refused with the count) are the same on both sides.
 */
export async function changeTable(deps: StoreDeps, principal: Principal, input: ChangeTableInput): Promise<TableView> {
  const ref = { workspace: input.workspace, collection: input.collection };
  const change = input.change;
  switch (change.op) {
    case "rename":
      return renameTable(deps, principal, { ...ref, name: change.name });
    case "add_column":
      return addColumn(deps, principal, { ...ref, column: change.column });
    case "rename_column":
      return renameColumn(deps, principal, { ...ref, column: change.column, name: change.name });
    case "remove_column":
      return removeColumn(deps, principal, { ...ref, column: change.column, expectedValues: change.expected_values });
    case "change_column_type":
      return changeColumnType(deps, principal, { ...ref, column: change.column, type: change.type, options: change.options });
  }
}
