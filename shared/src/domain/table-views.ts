// Tables shown in pages (`table_view` parts): each part names a table of the same
// workspace and how to show it; the page's document renders it as an accessible HTML table,
// read as the public would see it. Pages and tables both use this module; it uses neither.
import type { CellValue, ColumnDef, Database } from "../db/index";
import { choiceTone } from "./choice-tone";
import { escapeHtml } from "./render";

export interface TableViewSpec {
  collection: string;
  columns?: string[] | undefined;
  sort?: { column: string; direction: "asc" | "desc" } | undefined;
  limit?: number | undefined;
}

export const TABLE_VIEW_MAX_ROWS = 500;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const dateFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const momentFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
const numberFormat = new Intl.NumberFormat("en", { maximumFractionDigits: 20 });

/**
 * A published date reads the same for every reader: "21 Nov 2026", or "21 Nov 2026, 14:05
 * UTC" for a moment (the page is rendered once, for readers in any time zone).
 */
export function publishedDate(value: string): string {
  const t = Date.parse(value);
  if (Number.isNaN(t)) return value;
  return DATE_ONLY.test(value) ? dateFormat.format(t) : `${momentFormat.format(t)} UTC`;
}

/**
 * A link as a table cell shows it: without its scheme, and a long one as its start and its
 * end around an ellipsis ("example.com/reports/2026/…/final.html"), so a column of links
 * stays a column; the link itself is whole.
 */
export function linkText(url: string): string {
  const bare = url.replace(/^https?:\/\//i, "").replace(/^www\./i, "");
  const chars = Array.from(bare);
  return chars.length <= 48 ? bare : `${chars.slice(0, 32).join("")}…${chars.slice(-14).join("")}`;
}

function cellHtml(col: ColumnDef, v: CellValue): string {
  if (v === null) return "";
  switch (col.type) {
    case "boolean":
      return v ? "Yes" : "No";
    case "number":
      return typeof v === "number" ? numberFormat.format(v) : escapeHtml(String(v));
    case "date":
      return typeof v === "string" ? `<time datetime="${escapeHtml(v)}">${escapeHtml(publishedDate(v))}</time>` : escapeHtml(String(v));
    case "url":
      return typeof v === "string" ? `<a href="${escapeHtml(v)}" rel="nofollow noopener noreferrer">${escapeHtml(linkText(v))}</a>` : escapeHtml(String(v));
    case "select":
      return `<span class="atelier-choice" data-tone="${choiceTone(String(v), col.options ?? [])}">${escapeHtml(String(v))}</span>`;
    case "text":
      return escapeHtml(String(v));
  }
}

/** The class attribute of a column's header: numbers line up right, dates never wrap. */
function headClass(col: ColumnDef): string {
  return col.type === "number" ? ' class="num"' : col.type === "date" ? ' class="date"' : "";
}

/** The class attribute of a column's cells: as the header's, and text and links may wrap (the rest never do). */
function cellClass(col: ColumnDef): string {
  return col.type === "text" ? ' class="text"' : col.type === "url" ? ' class="url"' : headClass(col);
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
  // The order the view asked for is said on its column; readers may sort by any other (render.ts).
  const sortedAs = (c: ColumnDef) => (sortCol?.column === c.name ? ` aria-sort="${sortCol.direction === "desc" ? "descending" : "ascending"}"` : "");
  const head = cols.map((c) => `<th scope="col"${headClass(c)}${sortedAs(c)}>${escapeHtml(c.name)}</th>`).join("");
  const body = rows.map((r) => `<tr>${cols.map((c) => `<td${cellClass(c)}>${cellHtml(c, r.values[c.name] ?? null)}</td>`).join("")}</tr>`).join("\n");
  const more = table.rowCount > rows.length ? `<p class="atelier-more">Showing ${rows.length} of ${table.rowCount} rows.</p>` : "";
  // The table scrolls in a frame of its own (focusable, named after it), under its name.
  const name = escapeHtml(table.name);
  return `<figure class="atelier-table"><figcaption>${name}</figcaption><div class="atelier-scroll" tabindex="0" role="group" aria-label="${name}"><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>${more}</figure>`;
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
