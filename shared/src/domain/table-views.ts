// Tables shown in pages (`table_view` parts): each part names a table of the same
// workspace and how to show it; the page's document renders it as an accessible HTML table,
// read as the public would see it. Pages and tables both use this module; it uses neither.
import type { CellValue, ColumnDef, Database } from "../db/index";
import { escapeHtml } from "./render";

export interface TableViewSpec {
  collection: string;
  columns?: string[] | undefined;
  sort?: { column: string; direction: "asc" | "desc" } | undefined;
  limit?: number | undefined;
}

export const TABLE_VIEW_MAX_ROWS = 500;

function cellHtml(col: ColumnDef, v: CellValue): string {
  if (v === null) return "";
  if (col.type === "boolean") return v ? "Yes" : "No";
  if (col.type === "url" && typeof v === "string") return `<a href="${escapeHtml(v)}" rel="nofollow noopener noreferrer">${escapeHtml(v)}</a>`;
  return escapeHtml(String(v));
}

/** The accessible HTML table for one table_view part. */
export async function renderTableView(deps: { database: Database }, workspaceId: string, spec: TableViewSpec): Promise<string> {
  const { database } = deps;
  const table = await database.c.collections.findOne({ workspaceId, slug: spec.collection, kind: "table" });
  if (!table) return `<p class="atelier-missing">The table “${escapeHtml(spec.collection)}” no longer exists.</p>`;
  const cols = spec.columns?.length ? table.columns.filter((c) => spec.columns?.includes(c.name)) : table.columns;
  const sortCol = spec.sort && table.columns.some((c) => c.name === spec.sort?.column) ? spec.sort : undefined;
  const limit = Math.min(spec.limit ?? TABLE_VIEW_MAX_ROWS, TABLE_VIEW_MAX_ROWS);
  const rows = await database.c.rows
    .find({ collectionId: table._id })
    .sort(sortCol ? { [`values.${sortCol.column}`]: sortCol.direction === "desc" ? -1 : 1, _id: 1 } : { _id: 1 })
    .limit(limit)
    .toArray();
  const head = cols.map((c) => `<th scope="col">${escapeHtml(c.name)}</th>`).join("");
  const body = rows.map((r) => `<tr>${cols.map((c) => `<td>${cellHtml(c, r.values[c.name] ?? null)}</td>`).join("")}</tr>`).join("\n");
  const more = table.rowCount > rows.length ? `<p class="atelier-more">Showing ${rows.length} of ${table.rowCount} rows.</p>` : "";
  return `<figure class="atelier-table"><table><caption>${escapeHtml(table.name)}</caption><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>${more}</figure>`;
}

export function parseTableViewSpec(body: string): TableViewSpec {
  try {
    const v = JSON.parse(body) as TableViewSpec;
    if (typeof v.collection === "string") return v;
  } catch {
    // fall through
  }
  return { collection: "" };
}

/** The slug of the table a part shows, or null for other parts. */
export function tableOfPart(part: { kind: string; body: string }): string | null {
  return part.kind === "table_view" ? parseTableViewSpec(part.body).collection || null : null;
}
