import type { CellValue } from "../../db/index";
import { invalidField } from "../../errors";
import { clampLimit } from "../../schemas/common";
import { ROW_LIST_LIMIT, type RowListView } from "../../schemas/tables";
import { z } from "zod";
import { type Principal, readerIn } from "../access";
import { decodeCursor, encodeCursor } from "../cursors";
import type { StoreDeps } from "../deps";
import { rowPage, rowSnapshot, type RowCondition } from "../row-snapshots";
import { cell } from "./row-values";
import { notNull, resolveTable } from "./table-store";
import { rowView, tableView } from "./table-view";

export type RowFilter = Record<string, CellValue | { gt?: CellValue; gte?: CellValue; lt?: CellValue; lte?: CellValue } | { contains: string }>;

const RowsCursor = z
  .object({
    v: z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]),
    id: z.string().regex(/^row_[A-Za-z0-9]{10,40}$/),
  })
  .strict();

/**
 * Rows in a stable order (the sort column, then creation), filtered by equality or ranges,
 * `limit` at a time. Keyset paging with a signed cursor: rows inserted meanwhile never cause
 * duplicates or gaps, and a cursor we did not give out is refused.
 */
export async function listRows(
  deps: StoreDeps,
  principal: Principal,
  input: {
    workspace?: string | undefined;
    collection: string;
    filter?: RowFilter | undefined;
    sort?: { column: string; direction: "asc" | "desc" } | undefined;
    cursor?: string | undefined;
    limit?: number | undefined;
  },
): Promise<RowListView> {
  const { ws, table } = await resolveTable(deps, principal, input, "read");
  const limit = clampLimit(ROW_LIST_LIMIT, input.limit);
  const and: Record<string, unknown>[] = [{ collectionId: table._id }];
  // The same filter for the copy of the rows in memory (row-snapshots.ts).
  const conditions: RowCondition[] = [];
  for (const [name, cond] of Object.entries(input.filter ?? {})) {
    const col = table.columns.find((c) => c.name === name);
    if (!col) throw invalidField(`filter.${name}`, "unknown_column", "the table has no such column", { column: name });
    const field = `values.${name}`;
    if (cond !== null && typeof cond === "object" && "contains" in cond) {
      if (col.type !== "text" && col.type !== "url" && col.type !== "select") {
        throw invalidField(`filter.${name}.contains`, "not_allowed", "contains filters text, link and choice columns only", { column: name });
      }
      // A substring in any case, the characters taken literally.
      and.push({ [field]: { $regex: cond.contains.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), $options: "i" } });
      conditions.push({ column: name, kind: "contains", text: cond.contains });
    } else if (cond !== null && typeof cond === "object") {
      const range: Record<string, CellValue> = {};
      const ops: { op: "gt" | "gte" | "lt" | "lte"; value: CellValue }[] = [];
      for (const op of ["gt", "gte", "lt", "lte"] as const) {
        const v = cond[op];
        if (v !== undefined) {
          range[`$${op}`] = cell({ ...col, required: true }, v, `filter.${name}.${op}`);
          ops.push({ op, value: range[`$${op}`] as CellValue });
        }
      }
      if (Object.keys(range).length === 0) throw invalidField(`filter.${name}`, "required", "give a value or one of gt, gte, lt, lte");
      and.push({ [field]: range });
      conditions.push({ column: name, kind: "range", ops });
    } else {
      const value = cond === null ? null : cell({ ...col, required: true }, cond, `filter.${name}`);
      and.push({ [field]: value });
      conditions.push({ column: name, kind: "eq", value });
    }
  }
  const sortCol = input.sort?.column;
  if (sortCol !== undefined && !table.columns.some((c) => c.name === sortCol)) {
    throw invalidField("sort.column", "unknown_column", `the table has no column "${sortCol}"`, { column: sortCol });
  }
  const desc = input.sort?.direction === "desc";
  let after: { v: CellValue; id: string } | undefined;
  if (input.cursor) {
    const c = decodeCursor(deps.config.SECRET_KEY, `rows:${table._id}:${sortCol ?? ""}:${desc ? "d" : "a"}`, input.cursor, RowsCursor);
    after = { v: c.v, id: c.id };
    if (sortCol === undefined) and.push({ _id: { $gt: c.id } });
    else {
      const f = `values.${sortCol}`;
      // Nulls sort first ascending and last descending, as MongoDB orders them.
      if (c.v === null) {
        const col = table.columns.find((x) => x.name === sortCol);
        and.push(desc ? { [f]: null, _id: { $gt: c.id } } : { $or: [{ [f]: null, _id: { $gt: c.id } }, ...notNull(col?.type ?? "text", f)] });
      } else {
        const beyond = desc ? { $lt: c.v } : { $gt: c.v };
        const or: Record<string, unknown>[] = [{ [f]: beyond }, { [f]: c.v, _id: { $gt: c.id } }];
        if (desc) or.push({ [f]: null });
        and.push({ $or: or });
      }
    }
  }
  const sort: Record<string, 1 | -1> = sortCol === undefined ? { _id: 1 } : { [`values.${sortCol}`]: desc ? -1 : 1, _id: 1 };
  // From this process's copy of the table's rows when it holds the current one: no row is
  // read, the table document above said which copy is current. Otherwise the database.
  const snap = await rowSnapshot(deps, table);
  const found = snap
    ? rowPage(snap, { conditions, sort: sortCol === undefined ? undefined : { column: sortCol, desc }, after, take: limit + 1 })
    : await deps.database.c.rows
        .find({ $and: and })
        .sort(sort)
        .limit(limit + 1)
        .toArray();
  const rows = found.slice(0, limit);
  const last = rows[rows.length - 1];
  const reader = readerIn(principal, ws);
  const next =
    found.length > limit && last
      ? encodeCursor(deps.config.SECRET_KEY, `rows:${table._id}:${sortCol ?? ""}:${desc ? "d" : "a"}`, {
          v: sortCol === undefined ? null : (last.values[sortCol] ?? null),
          id: last._id,
        })
      : null;
  return { table: tableView(table), rows: rows.map((r) => rowView(r, reader)), next_cursor: next };
}
