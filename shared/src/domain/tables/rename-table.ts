import type { TableView } from "../../schemas/tables";
import type { Principal } from "../access";
import type { StoreDeps } from "../deps";
import { afterSchemaChange, writeDefinition } from "./table-definition";
import { resolveTable, type TableRef } from "./table-store";

/** Renames a table; its slug, and so every page showing it, stays. */
export async function renameTable(deps: StoreDeps, principal: Principal, input: TableRef & { name: string }): Promise<TableView> {
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const next = await writeDefinition(deps, ws, table, { name: input.name, columns: table.columns });
  return afterSchemaChange(deps, principal, ws, next, "collection.renamed");
}
