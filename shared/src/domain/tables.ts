// Micro DB: small data tables as living artifacts. A table is a collection of kind `table`
// with a column schema; rows are validated against it, versioned, attributed, and count
// toward the sandbox caps. Pages show tables through `table_view` parts.
import type { Actor, CellValue, CollectionDoc, ColumnDef, Database, RowDoc, RowRevisionDoc, WorkspaceDoc } from "../db/index";
import { AppError, invalidCursor, invalidField, invalidInput } from "../errors";
import { checkCell, checkColumns, utf8Bytes, type ColumnInput } from "../schemas/cells";
import { newId, newSecret } from "../ids";
import { actorForReader, actorOf, assertCan, isInsider, type Principal } from "./access";
import { now } from "./clock";
import type { DomainDeps } from "./deps";
import { recordEvent } from "./events";
import { markUsageChanging, releaseUsage, reserveUsage } from "./limits";
import { escapeHtml } from "./render";
import { rerenderPage } from "./pages";
import { resolveWorkspaceForWrite } from "./workspaces";

type TableDeps = Pick<DomainDeps, "database" | "config">;

export type { ColumnInput };

let rowSeq = 0;

/**
 * Row ids sort in creation order (time, then a per-process sequence, then randomness), so
 * the default order is the order rows were added, and stays stable under inserts.
 */
function newRowId(): string {
  rowSeq = (rowSeq + 1) % 1_679_616;
  return `row_${Date.now().toString(36).padStart(9, "0")}${rowSeq.toString(36).padStart(4, "0")}${newSecret(9).replace(/[^A-Za-z0-9]/g, "x")}`;
}

function validColumns(columns: ColumnInput[]): ColumnDef[] {
  const r = checkColumns(columns);
  if (!r.ok) throw invalidInput(r.issues);
  return r.columns;
}

export async function createCollection(
  deps: TableDeps,
  principal: Principal,
  input: { workspace?: string | undefined; slug: string; name: string; kind: "pages" | "table"; columns?: ColumnInput[] | undefined },
): Promise<{ collection: CollectionDoc; workspace: WorkspaceDoc }> {
  const { database } = deps;
  const ws = await resolveWorkspaceForWrite(database, principal, input.workspace);
  assertCan(principal, ws, "write");
  if (input.kind === "pages" && input.columns?.length) throw invalidField("columns", "not_allowed", "only tables have columns");
  const columns = input.kind === "table" ? validColumns(input.columns ?? []) : [];
  const doc: CollectionDoc = {
    _id: newId("col"),
    workspaceId: ws._id,
    slug: input.slug,
    name: input.name,
    kind: input.kind,
    isDefault: false,
    columns,
    rowCount: 0,
    countDirtyAt: null,
    createdAt: now(),
  };
  try {
    await database.c.collections.insertOne(doc);
  } catch (err) {
    if ((err as { code?: unknown }).code === 11000) throw new AppError("conflict", `This workspace already has a collection "${input.slug}".`);
    throw err;
  }
  await recordEvent(database, { workspaceId: ws._id, type: "collection.created", actor: actorOf(principal), target: { kind: "collection", id: doc._id, label: doc.slug } });
  return { collection: doc, workspace: ws };
}

export async function listCollections(database: Database, principal: Principal, ws: WorkspaceDoc): Promise<CollectionDoc[]> {
  assertCan(principal, ws, "read");
  return database.c.collections.find({ workspaceId: ws._id }).sort({ slug: 1 }).limit(500).toArray();
}

/** A table of a workspace the principal may read (`write` when `forWrite`). */
export async function resolveTable(
  database: Database,
  principal: Principal,
  input: { workspace?: string | undefined; collection: string },
  action: "read" | "write",
): Promise<{ ws: WorkspaceDoc; table: CollectionDoc }> {
  const ws = await resolveWorkspaceForWrite(database, principal, input.workspace);
  assertCan(principal, ws, action);
  const table = await database.c.collections.findOne({ workspaceId: ws._id, slug: input.collection });
  if (!table) throw new AppError("not_found", `No table "${input.collection}" in this workspace.`);
  if (table.kind !== "table") throw new AppError("invalid_request", `"${input.collection}" is a pages collection, not a table.`);
  return { ws, table };
}

function cell(col: ColumnDef, value: unknown, path: string): CellValue {
  const r = checkCell(col, value);
  if (!r.ok) throw invalidField(path, r.problem.code, r.problem.message, r.problem.params);
  return r.value;
}

/** A whole row checked against the table: every column present (null when empty), no others. */
function checkRow(table: CollectionDoc, values: unknown, where: string, base?: Record<string, CellValue>): Record<string, CellValue> {
  if (typeof values !== "object" || values === null || Array.isArray(values)) throw invalidField(where, "not_object", "must be an object of column values");
  const given = new Map(Object.entries(values));
  for (const key of given.keys()) {
    if (!table.columns.some((c) => c.name === key)) throw invalidField(`${where}.${key}`, "unknown_column", "the table has no such column", { column: key });
  }
  const out: Record<string, CellValue> = {};
  for (const col of table.columns) {
    const value = given.has(col.name) ? given.get(col.name) : base && Object.hasOwn(base, col.name) ? base[col.name] : null;
    out[col.name] = cell(col, value, `${where}.${col.name}`);
  }
  return out;
}

function rowBytes(values: Record<string, CellValue>): number {
  return utf8Bytes(JSON.stringify(values));
}

function revision(row: RowDoc, actor: Actor, deleted = false): RowRevisionDoc {
  return {
    _id: `${row._id}:v${row.version}`,
    rowId: row._id,
    workspaceId: row.workspaceId,
    collectionId: row.collectionId,
    version: row.version,
    values: deleted ? null : row.values,
    deleted,
    actor,
    createdAt: row.updatedAt,
  };
}

/** Inserts rows all or nothing: every row is checked first, and a failure undoes the rest. */
export async function insertRows(
  deps: TableDeps,
  principal: Principal,
  input: { workspace?: string | undefined; collection: string; rows: unknown[] },
): Promise<{ rowIds: string[] }> {
  const { database, config } = deps;
  if (input.rows.length === 0 || input.rows.length > 500) throw invalidField("rows", input.rows.length === 0 ? "too_few" : "too_many", "send 1 to 500 rows at a time", { min: 1, max: 500 });
  const { ws, table } = await resolveTable(database, principal, input, "write");
  const actor = actorOf(principal);
  const t = now();
  const rows: RowDoc[] = input.rows.map((r, i) => {
    const values = checkRow(table, r, `rows.${i}`);
    const bytes = rowBytes(values);
    if (bytes > config.ROW_MAX_BYTES) throw invalidField(`rows.${i}`, "too_large", `is ${bytes} bytes; a row holds at most ${config.ROW_MAX_BYTES}`, { max: config.ROW_MAX_BYTES, size: bytes });
    return { _id: newRowId(), workspaceId: ws._id, collectionId: table._id, values, version: 1, bytes, createdBy: actor, updatedBy: actor, createdAt: t, updatedAt: t };
  });
  const n = rows.length;
  const bytes = rows.reduce((s, r) => s + r.bytes, 0);
  const reserved = await database.c.collections.updateOne({ _id: table._id, rowCount: { $lte: config.TABLE_MAX_ROWS - n } }, { $inc: { rowCount: n }, $set: { countDirtyAt: t } });
  if (reserved.modifiedCount !== 1) throw new AppError("limit_exceeded", `A table holds at most ${config.TABLE_MAX_ROWS} rows.`);
  try {
    await reserveUsage(database, config, ws, { pages: 0, bytes });
  } catch (err) {
    await database.c.collections.updateOne({ _id: table._id }, { $inc: { rowCount: -n } });
    throw err;
  }
  try {
    await database.c.rows.insertMany(rows, { ordered: true });
    await database.c.rowRevisions.insertMany(rows.map((r) => revision(r, actor)), { ordered: false });
  } catch (err) {
    await database.c.rows.deleteMany({ _id: { $in: rows.map((r) => r._id) } });
    await database.c.rowRevisions.deleteMany({ rowId: { $in: rows.map((r) => r._id) } });
    await database.c.collections.updateOne({ _id: table._id }, { $inc: { rowCount: -n } });
    await releaseUsage(database, ws._id, { pages: 0, bytes });
    throw err;
  }
  await recordEvent(database, { workspaceId: ws._id, type: "rows.inserted", actor, target: { kind: "collection", id: table._id, label: `${table.slug} (+${n})` } });
  await refreshTableViews(deps, ws._id, table.slug);
  return { rowIds: rows.map((r) => r._id) };
}

export async function updateRow(
  deps: TableDeps,
  principal: Principal,
  input: { workspace?: string | undefined; collection: string; rowId: string; values: unknown; expectedVersion?: number | undefined },
): Promise<RowDoc> {
  const { database, config } = deps;
  const { ws, table } = await resolveTable(database, principal, input, "write");
  const row = await database.c.rows.findOne({ _id: input.rowId, collectionId: table._id });
  if (!row) throw new AppError("not_found", "No such row.");
  if (input.expectedVersion !== undefined && input.expectedVersion !== row.version) {
    throw new AppError("version_conflict", `The row is at version ${row.version}, not ${input.expectedVersion}; someone changed it meanwhile. Read it again and reapply your change.`, {
      details: { current_version: row.version },
    });
  }
  const values = checkRow(table, input.values, "values", row.values);
  const bytes = rowBytes(values);
  if (bytes > config.ROW_MAX_BYTES) throw invalidField("values", "too_large", `the row would be ${bytes} bytes; a row holds at most ${config.ROW_MAX_BYTES}`, { max: config.ROW_MAX_BYTES, size: bytes });
  const actor = actorOf(principal);
  const next: RowDoc = { ...row, values, bytes, version: row.version + 1, updatedBy: actor, updatedAt: now() };
  const delta = { pages: 0, bytes: bytes - row.bytes };
  await reserveUsage(database, config, ws, delta);
  const r = await database.c.rows.updateOne({ _id: row._id, version: row.version }, { $set: { values, bytes, version: next.version, updatedBy: actor, updatedAt: next.updatedAt } });
  if (r.modifiedCount !== 1) {
    await releaseUsage(database, ws._id, delta);
    throw new AppError("version_conflict", "Someone changed the row at the same moment. Read it again and reapply your change.");
  }
  await database.c.rowRevisions.insertOne(revision(next, actor));
  await recordEvent(database, { workspaceId: ws._id, type: "row.updated", actor, target: { kind: "row", id: row._id, label: table.slug } });
  await refreshTableViews(deps, ws._id, table.slug);
  return next;
}

export async function deleteRow(
  deps: TableDeps,
  principal: Principal,
  input: { workspace?: string | undefined; collection: string; rowId: string; expectedVersion?: number | undefined },
): Promise<{ rowId: string }> {
  const { database } = deps;
  const { ws, table } = await resolveTable(database, principal, input, "write");
  const filter: Record<string, unknown> = { _id: input.rowId, collectionId: table._id };
  if (input.expectedVersion !== undefined) filter.version = input.expectedVersion;
  const row = await database.c.rows.findOne(filter);
  if (!row) throw new AppError(input.expectedVersion === undefined ? "not_found" : "version_conflict", input.expectedVersion === undefined ? "No such row." : "The row changed or is gone; read it again.");
  // Counters first marked, so a stop between the delete and their update is recounted.
  await database.c.collections.updateOne({ _id: table._id }, { $set: { countDirtyAt: now() } });
  await markUsageChanging(database, ws._id);
  const r = await database.c.rows.deleteOne({ _id: row._id, version: row.version });
  if (r.deletedCount !== 1) throw new AppError("version_conflict", "Someone changed the row at the same moment; read it again.");
  await database.c.collections.updateOne({ _id: table._id }, { $inc: { rowCount: -1 }, $set: { countDirtyAt: now() } });
  await releaseUsage(database, ws._id, { pages: 0, bytes: row.bytes });
  const actor = actorOf(principal);
  await database.c.rowRevisions.insertOne(revision({ ...row, version: row.version + 1, updatedAt: now() }, actor, true));
  await recordEvent(database, { workspaceId: ws._id, type: "row.deleted", actor, target: { kind: "row", id: row._id, label: table.slug } });
  await refreshTableViews(deps, ws._id, table.slug);
  return { rowId: row._id };
}

export async function rowHistory(database: Database, principal: Principal, input: { workspace?: string | undefined; collection: string; rowId: string }) {
  const { ws, table } = await resolveTable(database, principal, input, "read");
  const insider = isInsider(principal, ws);
  const revisions = await database.c.rowRevisions.find({ rowId: input.rowId, collectionId: table._id }).sort({ version: -1 }).limit(200).toArray();
  return revisions.map((r) => ({ version: r.version, values: r.values, deleted: r.deleted, actor: actorForReader(r.actor, insider), created_at: r.createdAt.toISOString() }));
}

export type RowFilter = Record<string, CellValue | { gt?: CellValue; gte?: CellValue; lt?: CellValue; lte?: CellValue }>;

interface Cursor {
  v: CellValue;
  id: string;
}

function encodeRowCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString("base64url");
}

function decodeRowCursor(s: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(s, "base64url").toString("utf8")) as Cursor;
    if (typeof c.id === "string" && c.id.startsWith("row_")) return c;
  } catch {
    // fall through
  }
  throw invalidCursor();
}

/**
 * Rows in a stable order (the sort column, then creation), filtered by equality or ranges,
 * `limit` at a time. Keyset paging: rows inserted meanwhile never cause duplicates or gaps.
 */
export async function listRows(
  database: Database,
  principal: Principal,
  input: {
    workspace?: string | undefined;
    collection: string;
    filter?: RowFilter | undefined;
    sort?: { column: string; direction: "asc" | "desc" } | undefined;
    cursor?: string | undefined;
    limit?: number | undefined;
  },
): Promise<{ table: CollectionDoc; rows: RowDoc[]; nextCursor: string | null; insider: boolean }> {
  const { ws, table } = await resolveTable(database, principal, input, "read");
  const limit = Math.min(Math.max(input.limit ?? 50, 1), 500);
  const and: Record<string, unknown>[] = [{ collectionId: table._id }];
  for (const [name, cond] of Object.entries(input.filter ?? {})) {
    const col = table.columns.find((c) => c.name === name);
    if (!col) throw invalidField(`filter.${name}`, "unknown_column", "the table has no such column", { column: name });
    const field = `values.${name}`;
    if (cond !== null && typeof cond === "object") {
      const range: Record<string, CellValue> = {};
      for (const op of ["gt", "gte", "lt", "lte"] as const) {
        const v = cond[op];
        if (v !== undefined) range[`$${op}`] = cell({ ...col, required: true }, v, `filter.${name}.${op}`);
      }
      if (Object.keys(range).length === 0) throw invalidField(`filter.${name}`, "required", "give a value or one of gt, gte, lt, lte");
      and.push({ [field]: range });
    } else {
      and.push({ [field]: cond === null ? null : cell({ ...col, required: true }, cond, `filter.${name}`) });
    }
  }
  const sortCol = input.sort?.column;
  if (sortCol !== undefined && !table.columns.some((c) => c.name === sortCol)) throw invalidField("sort.column", "unknown_column", `the table has no column "${sortCol}"`, { column: sortCol });
  const desc = input.sort?.direction === "desc";
  if (input.cursor) {
    const c = decodeRowCursor(input.cursor);
    if (sortCol === undefined) and.push({ _id: { $gt: c.id } });
    else {
      const f = `values.${sortCol}`;
      // Nulls sort first ascending and last descending, as MongoDB orders them.
      if (c.v === null) {
        and.push(desc ? { [f]: null, _id: { $gt: c.id } } : { $or: [{ [f]: null, _id: { $gt: c.id } }, { [f]: { $ne: null } }] });
      } else {
        const beyond = desc ? { $lt: c.v } : { $gt: c.v };
        const or: Record<string, unknown>[] = [{ [f]: beyond }, { [f]: c.v, _id: { $gt: c.id } }];
        if (desc) or.push({ [f]: null });
        and.push({ $or: or });
      }
    }
  }
  const sort: Record<string, 1 | -1> = sortCol === undefined ? { _id: 1 } : { [`values.${sortCol}`]: desc ? -1 : 1, _id: 1 };
  const found = await database.c.rows.find({ $and: and }).sort(sort).limit(limit + 1).toArray();
  const rows = found.slice(0, limit);
  const last = rows[rows.length - 1];
  const nextCursor = found.length > limit && last ? encodeRowCursor({ v: sortCol === undefined ? null : (last.values[sortCol] ?? null), id: last._id }) : null;
  return { table, rows, nextCursor, insider: isInsider(principal, ws) };
}

export function rowView(r: RowDoc, insider = true) {
  return { row_id: r._id, version: r.version, values: r.values, updated_by: actorForReader(r.updatedBy, insider), updated_at: r.updatedAt.toISOString() };
}

export function tableView(c: CollectionDoc) {
  return { id: c._id, slug: c.slug, name: c.name, kind: c.kind, columns: c.columns, row_count: c.rowCount };
}

// ---- table_view parts -------------------------------------------------------------------

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

/** The accessible HTML table for one table_view part, read as the public would see it. */
export async function renderTableView(database: Database, workspaceId: string, spec: TableViewSpec): Promise<string> {
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

/** Re-renders the pages of a workspace that show this table, so reads stay lookups. */
export async function refreshTableViews(deps: TableDeps, workspaceId: string, tableSlug: string): Promise<void> {
  const pages = await deps.database.c.pages.find({ workspaceId, "parts.kind": "table_view" }, { projection: { html: 0 } }).limit(100).toArray();
  for (const page of pages) {
    if (page.parts.some((p) => p.kind === "table_view" && parseTableViewSpec(p.body).collection === tableSlug)) {
      await rerenderPage(deps, page);
    }
  }
}
