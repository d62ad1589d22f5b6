// A public table as data for machines: `/w/{workspace}/tables/{table}.csv` and `.json`
// (docs/contract.md#routes). Only a table of a public workspace (not hidden, not being deleted)
// answers; anything else is null, the same for a missing and a private table.
import type { CollectionDoc, RowDoc } from "../../db/index";
import { AppError } from "../../errors";
import { isPublicWorkspace } from "../artifacts";
import type { StoreDeps } from "../deps";
import { csvField } from "../workspace-archive/format";
import { readerIn } from "../access";
import { resolveTable } from "./table-store";
import { rowView, tableView } from "./table-view";

/** A cell as CSV text: empty for no value, numbers and booleans as JSON writes them. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return "";
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** A table as RFC 4180 CSV: a header of the column names, then a record a row, CRLF line ends. */
export function tableCsv(table: Pick<CollectionDoc, "columns">, rows: Iterable<Pick<RowDoc, "values">>): string {
  const names = table.columns.map((c) => c.name);
  const lines = [names.map(csvField).join(",")];
  for (const row of rows) lines.push(names.map((n) => csvField(cellText(row.values[n]))).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** The table of a public workspace and all its rows (in creation order), or null. */
async function publicRows(
  deps: StoreDeps,
  workspace: string,
  collection: string,
): Promise<{ table: CollectionDoc; rows: RowDoc[]; reader: ReturnType<typeof readerIn> } | null> {
  const nobody = { kind: "nobody" } as const;
  try {
    const { ws, table } = await resolveTable(deps, nobody, { workspace, collection }, "read");
    if (!isPublicWorkspace(ws)) return null;
    const rows = await deps.database.c.rows.find({ collectionId: table._id }).sort({ _id: 1 }).limit(deps.config.TABLE_MAX_ROWS).toArray();
    return { table, rows, reader: readerIn(nobody, ws) };
  } catch (err) {
    if (err instanceof AppError && (err.code === "not_found" || err.code === "invalid_request" || err.code === "forbidden")) return null;
    throw err;
  }
}

export async function publicTableCsv(deps: StoreDeps, workspace: string, collection: string): Promise<string | null> {
  const found = await publicRows(deps, workspace, collection);
  return found && tableCsv(found.table, found.rows);
}

/** The same shape as `list_rows` answers a public reader, all rows at once (no cursor). */
export async function publicTableJson(deps: StoreDeps, workspace: string, collection: string): Promise<string | null> {
  const found = await publicRows(deps, workspace, collection);
  if (!found) return null;
  return JSON.stringify({ table: tableView(found.table), rows: found.rows.map((r) => rowView(r, found.reader)), next_cursor: null });
}
