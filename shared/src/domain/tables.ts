// Micro DB: small data tables as living artifacts. A table is a collection of kind `table`
// with a column schema (the rules in shared/src/schemas/cells.ts); rows are validated
// against it, versioned, attributed, and count toward the workspace's usage. Pages show
// tables through `table_view` parts (table-views.ts), re-rendered when rows change.
import type { Actor, CellValue, CollectionDoc, RowDoc, RowRevisionDoc, WorkspaceDoc } from "../db/index";
import { AppError, invalidField, invalidInput, isDuplicateKey } from "../errors";
import { newId, newSecret, revisionId } from "../ids";
import { checkCell, checkColumns, utf8Bytes, type ColumnInput, type ColumnRule } from "../schemas/cells";
import type { RowListView, RowRevisionView, RowView, TableView } from "../schemas/tables";
import { z } from "zod";
import { actorForReader, actorOf, assertCan, type Principal, type Reader, readerIn } from "./access";
import { refreshTableViews } from "./artifacts";
import { addSeconds, now } from "./clock";
import { decodeCursor, encodeCursor } from "./cursors";
import type { StoreDeps } from "./deps";
import { recordEvent } from "./events";
import { EVENT_BYTES, markUsageChanging, RECORD_OVERHEAD_BYTES, releaseUsage, reserveUsage } from "./limits";
import { recordRowChange, rowPage, rowSnapshot, type RowCondition } from "./row-snapshots";
import { resolveWorkspaceForWrite } from "./workspaces";

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

/**
 * Marks a table as changed (its rows or its columns): every change calls this once it has
 * written, so anything holding a copy of the rows knows it is behind. A change to some rows
 * names them (`rowIds`): the version it took and those ids are written down
 * (row-snapshots.ts), so a copy can catch up by reading just those rows; a change to every
 * row (a column renamed or removed) names none, and copies are read again whole.
 */
export async function tableChanged(
  deps: Pick<StoreDeps, "database">,
  table: Pick<CollectionDoc, "_id" | "workspaceId">,
  rowIds?: readonly string[],
): Promise<void> {
  if (!rowIds) {
    await deps.database.c.collections.updateOne({ _id: table._id }, { $inc: { rowsVersion: 1 } });
    return;
  }
  const after = await deps.database.c.collections.findOneAndUpdate({ _id: table._id }, { $inc: { rowsVersion: 1 } }, { returnDocument: "after" });
  if (after) await recordRowChange(deps, table, after.rowsVersion ?? 0, rowIds);
}

export function tableView(c: CollectionDoc): TableView {
  return { id: c._id, slug: c.slug, name: c.name, kind: c.kind, columns: c.columns, row_count: c.rowCount };
}

export function rowView(r: RowDoc, reader: Reader): RowView {
  return { row_id: r._id, version: r.version, values: r.values, updated_by: actorForReader(r.updatedBy, reader), updated_at: r.updatedAt.toISOString() };
}

function definitionBytes(c: { name: string; columns: ColumnRule[] }): number {
  return RECORD_OVERHEAD_BYTES + utf8Bytes(c.name) + utf8Bytes(JSON.stringify(c.columns));
}

export async function createCollection(
  deps: StoreDeps,
  principal: Principal,
  input: { workspace?: string | undefined; slug: string; name: string; kind: "pages" | "table"; columns?: ColumnInput[] | undefined },
): Promise<TableView> {
  const { database } = deps;
  const ws = await resolveWorkspaceForWrite(deps, principal, input.workspace);
  assertCan(principal, ws, "write");
  if (input.kind === "pages" && input.columns?.length) throw invalidField("columns", "not_allowed", "only tables have columns");
  let columns: ColumnRule[] = [];
  if (input.kind === "table") {
    const r = checkColumns(input.columns ?? []);
    if (!r.ok) throw invalidInput(r.issues);
    columns = r.columns;
  }
  const bytes = definitionBytes({ name: input.name, columns });
  const doc: CollectionDoc = {
    _id: newId("col"),
    workspaceId: ws._id,
    slug: input.slug,
    name: input.name,
    kind: input.kind,
    isDefault: false,
    columns,
    bytes,
    rowCount: 0,
    rowsVersion: 0,
    countDirtyAt: null,
    createdAt: now(),
  };
  const delta = { pages: 0, bytes: bytes + EVENT_BYTES };
  await reserveUsage(deps, ws, delta);
  try {
    await database.c.collections.insertOne(doc);
  } catch (err) {
    await releaseUsage({ database }, ws._id, delta);
    if (isDuplicateKey(err)) throw new AppError("conflict", `This workspace already has a collection "${input.slug}".`);
    throw err;
  }
  await recordEvent(
    deps,
    { workspaceId: ws._id, type: "collection.created", actor: actorOf(principal), target: { kind: "collection", id: doc._id, label: doc.name } },
    { counted: true },
  );
  return tableView(doc);
}

/** The collections of a workspace (the caller's default one when none is named). */
export async function listCollections(deps: StoreDeps, principal: Principal, workspace: string | undefined): Promise<TableView[]> {
  const ws = await resolveWorkspaceForWrite(deps, principal, workspace);
  return (await deps.database.c.collections.find({ workspaceId: ws._id }).sort({ slug: 1 }).limit(500).toArray()).map(tableView);
}

/** A table of a workspace the principal may read (`write` when it is for a write). */
async function resolveTable(
  deps: StoreDeps,
  principal: Principal,
  input: { workspace?: string | undefined; collection: string },
  action: "read" | "write",
): Promise<{ ws: WorkspaceDoc; table: CollectionDoc }> {
  const ws = await resolveWorkspaceForWrite(deps, principal, input.workspace);
  assertCan(principal, ws, action);
  const table = await deps.database.c.collections.findOne({ workspaceId: ws._id, slug: input.collection });
  if (!table) throw new AppError("not_found", `No table "${input.collection}" in this workspace.`);
  if (table.kind !== "table") throw new AppError("invalid_request", `"${input.collection}" is a pages collection, not a table.`);
  return { ws, table };
}

function cell(col: ColumnRule, value: unknown, path: string): CellValue {
  const r = checkCell(col, value);
  if (!r.ok) throw invalidField(path, r.problem.code, r.problem.message, r.problem.params);
  return r.value;
}

/** A whole row checked against the table: every column present (null when empty), no others. */
function checkRow(table: CollectionDoc, values: unknown, where: string, base?: Record<string, CellValue>): Record<string, CellValue> {
  if (typeof values !== "object" || values === null || Array.isArray(values)) throw invalidField(where, "not_object", "must be an object of column values");
  // Column names are people's words: looked up in a Map, never as plain-object keys.
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
    _id: revisionId(row._id, row.version),
    rowId: row._id,
    workspaceId: row.workspaceId,
    collectionId: row.collectionId,
    version: row.version,
    values: deleted ? null : row.values,
    bytes: RECORD_OVERHEAD_BYTES + (deleted ? 0 : row.bytes),
    deleted,
    actor,
    createdAt: row.updatedAt,
  };
}

/** Inserts rows all or nothing: every row is checked first, and a failure undoes the rest. */
export async function insertRows(
  deps: StoreDeps,
  principal: Principal,
  input: { workspace?: string | undefined; collection: string; rows: unknown[] },
): Promise<{ row_ids: string[] }> {
  const { database, config } = deps;
  if (input.rows.length === 0 || input.rows.length > 500) {
    throw invalidField("rows", input.rows.length === 0 ? "too_few" : "too_many", "send 1 to 500 rows at a time", { min: 1, max: 500 });
  }
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const actor = actorOf(principal);
  const t = now();
  const rows: RowDoc[] = input.rows.map((r, i) => {
    const values = checkRow(table, r, `rows.${i}`);
    const bytes = rowBytes(values);
    if (bytes > config.ROW_MAX_BYTES)
      throw invalidField(`rows.${i}`, "too_large", `is ${bytes} bytes; a row holds at most ${config.ROW_MAX_BYTES}`, {
        max: config.ROW_MAX_BYTES,
        size: bytes,
      });
    return {
      _id: newRowId(),
      workspaceId: ws._id,
      collectionId: table._id,
      values,
      version: 1,
      bytes,
      writing: null,
      createdBy: actor,
      updatedBy: actor,
      createdAt: t,
      updatedAt: t,
    };
  });
  const n = rows.length;
  // Each row and its first revision, and the event.
  const delta = { pages: 0, bytes: rows.reduce((s, r) => s + 2 * (RECORD_OVERHEAD_BYTES + r.bytes), 0) + EVENT_BYTES };
  const reserved = await database.c.collections.updateOne(
    { _id: table._id, rowCount: { $lte: config.TABLE_MAX_ROWS - n } },
    { $inc: { rowCount: n }, $set: { countDirtyAt: t } },
  );
  if (reserved.modifiedCount !== 1) {
    throw new AppError("limit_exceeded", `A table holds at most ${config.TABLE_MAX_ROWS} rows.`, { details: { limit: "rows", max: config.TABLE_MAX_ROWS } });
  }
  try {
    await reserveUsage(deps, ws, delta);
  } catch (err) {
    await database.c.collections.updateOne({ _id: table._id }, { $inc: { rowCount: -n } });
    throw err;
  }
  try {
    await database.c.rows.insertMany(rows, { ordered: true });
    await database.c.rowRevisions.insertMany(
      rows.map((r) => revision(r, actor)),
      { ordered: false },
    );
  } catch (err) {
    await database.c.rows.deleteMany({ _id: { $in: rows.map((r) => r._id) } });
    await database.c.rowRevisions.deleteMany({ rowId: { $in: rows.map((r) => r._id) } });
    await database.c.collections.updateOne({ _id: table._id }, { $inc: { rowCount: -n } });
    await releaseUsage({ database }, ws._id, delta);
    // A copy read while some of them were stored must not keep them.
    await tableChanged(
      deps,
      table,
      rows.map((r) => r._id),
    );
    throw err;
  }
  await tableChanged(
    deps,
    table,
    rows.map((r) => r._id),
  );
  await recordEvent(
    deps,
    { workspaceId: ws._id, type: "rows.inserted", actor, target: { kind: "collection", id: table._id, label: table.name }, count: n },
    { counted: true },
  );
  await refreshTableViews(deps, ws, table.slug);
  return { row_ids: rows.map((r) => r._id) };
}

function rowConflict(current: number, expected: number, why = "someone changed it meanwhile"): AppError {
  return new AppError("version_conflict", `The row is at version ${current}, not ${expected}; ${why}. Read it again and reapply your change.`, {
    details: { current_version: current },
  });
}

/**
 * Gives back the bytes of the revisions that fell out of the last REVISIONS_KEPT: each update
 * writes one revision and drops the one REVISIONS_KEPT older, addressed by its `_id`
 * (`revisionId`), so no row's history is searched. Older ones that an update
 * stopped before its prune left behind go too: the versions just below are looked up by `_id`
 * while they exist (normally one lookup that finds nothing), and the run is deleted lowest
 * first, so a prune stopped midway leaves a run the next one finds again.
 */
async function pruneRowRevisions(deps: StoreDeps, row: Pick<RowDoc, "_id" | "version" | "workspaceId">): Promise<void> {
  const { rowRevisions } = deps.database.c;
  const oldest = row.version - deps.config.REVISIONS_KEPT;
  if (oldest < 1) return;
  let low = oldest;
  while (low > 1 && (await rowRevisions.findOne({ _id: revisionId(row._id, low - 1) }, { projection: { _id: 1 } }))) low--;
  // Only what this call deleted itself is given back: a racing prune of the same revision never releases it twice.
  let freed = 0;
  for (let v = low; v <= oldest; v++) freed += (await rowRevisions.findOneAndDelete({ _id: revisionId(row._id, v) }))?.bytes ?? 0;
  if (freed > 0) await releaseUsage(deps, row.workspaceId, { pages: 0, bytes: freed });
}

/**
 * Changes a row. As with pages, one writer at a time prepares a row's next version (a claim
 * conditional on the version read), so the losers of a race never inflate the counters; a
 * stale `expectedVersion`, or a row being changed at this moment, is a `version_conflict`.
 */
export async function updateRow(
  deps: StoreDeps,
  principal: Principal,
  input: { workspace?: string | undefined; collection: string; rowId: string; values: unknown; expectedVersion?: number | undefined },
): Promise<RowView> {
  const { database, config } = deps;
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const row = await database.c.rows.findOne({ _id: input.rowId });
  if (!row || row.collectionId !== table._id) throw new AppError("not_found", "No such row.");
  if (input.expectedVersion !== undefined && input.expectedVersion !== row.version) throw rowConflict(row.version, input.expectedVersion);
  const values = checkRow(table, input.values, "values", row.values);
  const bytes = rowBytes(values);
  if (bytes > config.ROW_MAX_BYTES)
    throw invalidField("values", "too_large", `the row would be ${bytes} bytes; a row holds at most ${config.ROW_MAX_BYTES}`, {
      max: config.ROW_MAX_BYTES,
      size: bytes,
    });
  const t = now();
  const stale = addSeconds(t, -config.SWEEP_GRACE_SECONDS);
  const claim = { version: row.version + 1, since: t };
  const claimed = await database.c.rows.updateOne(
    { _id: row._id, version: row.version, $or: [{ writing: null }, { "writing.since": { $lte: stale } }] },
    { $set: { writing: claim } },
  );
  if (claimed.modifiedCount !== 1) throw rowConflict(row.version + 1, input.expectedVersion ?? row.version, "someone changed it at the same moment");
  const actor = actorOf(principal);
  const next: RowDoc = { ...row, values, bytes, version: claim.version, writing: null, updatedBy: actor, updatedAt: now() };
  // The row's growth, its new revision and the event.
  const delta = { pages: 0, bytes: bytes - row.bytes + RECORD_OVERHEAD_BYTES + bytes + EVENT_BYTES };
  try {
    await reserveUsage(deps, ws, delta);
  } catch (err) {
    await database.c.rows.updateOne({ _id: row._id, "writing.since": t }, { $set: { writing: null } });
    throw err;
  }
  const r = await database.c.rows.updateOne(
    { _id: row._id, version: row.version, "writing.since": t },
    { $set: { values, bytes, version: next.version, writing: null, updatedBy: actor, updatedAt: next.updatedAt } },
  );
  if (r.modifiedCount !== 1) {
    await releaseUsage({ database }, ws._id, delta);
    throw rowConflict(row.version + 1, input.expectedVersion ?? row.version, "someone changed it at the same moment");
  }
  try {
    await database.c.rowRevisions.insertOne(revision(next, actor));
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  await pruneRowRevisions(deps, next);
  await tableChanged(deps, table, [row._id]);
  await recordEvent(
    deps,
    { workspaceId: ws._id, type: "row.updated", actor, target: { kind: "collection", id: table._id, label: table.name } },
    { counted: true },
  );
  await refreshTableViews(deps, ws, table.slug);
  return rowView(next, readerIn(principal, ws));
}

export async function deleteRow(
  deps: StoreDeps,
  principal: Principal,
  input: { workspace?: string | undefined; collection: string; rowId: string; expectedVersion?: number | undefined },
): Promise<{ row_id: string }> {
  const { database } = deps;
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const row = await database.c.rows.findOne({ _id: input.rowId });
  if (!row || row.collectionId !== table._id) {
    throw new AppError(
      input.expectedVersion === undefined ? "not_found" : "version_conflict",
      input.expectedVersion === undefined ? "No such row." : "The row changed or is gone; read it again.",
    );
  }
  if (input.expectedVersion !== undefined && row.version !== input.expectedVersion) throw rowConflict(row.version, input.expectedVersion);
  // Counters first marked, so a stop between the delete and their update is recounted.
  await database.c.collections.updateOne({ _id: table._id }, { $set: { countDirtyAt: now() } });
  await markUsageChanging({ database }, ws._id);
  const r = await database.c.rows.deleteOne({ _id: row._id, version: row.version });
  if (r.deletedCount !== 1) throw new AppError("version_conflict", "Someone changed the row at the same moment; read it again.");
  await database.c.collections.updateOne({ _id: table._id }, { $inc: { rowCount: -1 }, $set: { countDirtyAt: now() } });
  const actor = actorOf(principal);
  const tombstone = revision({ ...row, version: row.version + 1, updatedAt: now() }, actor, true);
  // The row goes; its tombstone revision and the event come.
  await releaseUsage({ database }, ws._id, { pages: 0, bytes: RECORD_OVERHEAD_BYTES + row.bytes - tombstone.bytes - EVENT_BYTES });
  await database.c.rowRevisions.insertOne(tombstone);
  await tableChanged(deps, table, [row._id]);
  await recordEvent(
    deps,
    { workspaceId: ws._id, type: "row.deleted", actor, target: { kind: "collection", id: table._id, label: table.name } },
    { counted: true },
  );
  await refreshTableViews(deps, ws, table.slug);
  return { row_id: row._id };
}

export async function rowHistory(
  deps: StoreDeps,
  principal: Principal,
  input: { workspace?: string | undefined; collection: string; rowId: string },
): Promise<RowRevisionView[]> {
  const { ws, table } = await resolveTable(deps, principal, input, "read");
  const reader = readerIn(principal, ws);
  const revisions = (await deps.database.c.rowRevisions.find({ rowId: input.rowId }).sort({ version: -1 }).limit(200).toArray()).filter(
    (r) => r.collectionId === table._id,
  );
  // A row this table never had is not found, as everywhere else (an empty history would say it exists).
  if (revisions.length === 0) throw new AppError("not_found", "No such row in this table.");
  return revisions.map((r) => ({
    version: r.version,
    values: r.values,
    deleted: r.deleted,
    actor: actorForReader(r.actor, reader),
    created_at: r.createdAt.toISOString(),
  }));
}

/**
 * "Has a value" for a column, as contract filters (a dotted $ne is outside the storage
 * contract): ranges that span every value of the column's type.
 */
function notNull(type: ColumnRule["type"], field: string): Record<string, unknown>[] {
  switch (type) {
    case "number":
      return [{ [field]: { $gte: -Number.MAX_VALUE } }];
    case "boolean":
      return [{ [field]: true }, { [field]: false }];
    case "text":
    case "date":
    case "url":
    case "select":
      return [{ [field]: { $gte: "" } }];
  }
}

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
  const limit = Math.min(Math.max(input.limit ?? 50, 1), 500);
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

// ---- a table's settings: its name, its columns, and deleting it ----------------------------

/**
 * Writes a table's new definition, conditionally on the version of its rows and columns
 * read (`rowsVersion`), so two schema changes at once cannot undo each other: the loser is a
 * `version_conflict`. Returns the table as written.
 */
async function writeDefinition(deps: StoreDeps, ws: WorkspaceDoc, table: CollectionDoc, next: { name: string; columns: ColumnRule[] }): Promise<CollectionDoc> {
  const bytes = definitionBytes(next);
  const version = table.rowsVersion ?? 0;
  const r = await deps.database.c.collections.updateOne(
    { _id: table._id, ...(table.rowsVersion === undefined ? {} : { rowsVersion: version }) },
    { $set: { name: next.name, columns: next.columns, bytes, rowsVersion: version + 1 } },
  );
  if (r.modifiedCount !== 1) throw new AppError("version_conflict", "Someone changed this table's columns at the same moment; read it again.");
  if (bytes !== table.bytes) await deps.database.c.workspaces.updateOne({ _id: ws._id }, { $inc: { "usage.bytes": bytes - table.bytes } });
  return { ...table, name: next.name, columns: next.columns, bytes, rowsVersion: version + 1 };
}

function findColumn(table: CollectionDoc, name: string, path = "column"): ColumnRule {
  const col = table.columns.find((c) => c.name === name);
  if (!col) throw invalidField(path, "unknown_column", `the table has no column "${name}"`, { column: name });
  return col;
}

/** Rows of `table` with a value in column `col`. */
function valueCount(deps: StoreDeps, table: CollectionDoc, col: ColumnRule): Promise<number> {
  const has = notNull(col.type, `values.${col.name}`);
  return deps.database.c.rows.countDocuments(has.length === 1 ? { collectionId: table._id, ...has[0] } : { collectionId: table._id, $or: has });
}

async function afterSchemaChange(
  deps: StoreDeps,
  principal: Principal,
  ws: WorkspaceDoc,
  table: CollectionDoc,
  type: string,
  label = table.name,
): Promise<TableView> {
  // The rows may have changed after the definition's write (a column renamed, added or
  // removed): a copy of the rows made meanwhile in another process must not count as current.
  await tableChanged(deps, table);
  await recordEvent(deps, { workspaceId: ws._id, type, actor: actorOf(principal), target: { kind: "collection", id: table._id, label } });
  await refreshTableViews(deps, ws, table.slug);
  return tableView(table);
}

type TableRef = { workspace?: string | undefined; collection: string };

/** Renames a table; its slug, and so every page showing it, stays. */
export async function renameTable(deps: StoreDeps, principal: Principal, input: TableRef & { name: string }): Promise<TableView> {
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const next = await writeDefinition(deps, ws, table, { name: input.name, columns: table.columns });
  return afterSchemaChange(deps, principal, ws, next, "collection.renamed");
}

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

/**
 * Adds a column; every row gets it empty. A required column can only be added to a table
 * without rows (the rows would have nothing in it).
 */
export async function addColumn(deps: StoreDeps, principal: Principal, input: TableRef & { column: ColumnInput }): Promise<TableView> {
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const checked = checkColumns([...table.columns, input.column]);
  if (!checked.ok) {
    const at = `columns.${table.columns.length}`;
    throw invalidInput(checked.issues.map((i) => ({ ...i, path: i.path.startsWith(at) ? `column${i.path.slice(at.length)}` : i.path })));
  }
  if (input.column.required && table.rowCount > 0) {
    throw invalidField("column.required", "not_allowed", "a column added to a table with rows cannot be required: its rows would have no value", {
      rows: table.rowCount,
    });
  }
  const next = await writeDefinition(deps, ws, table, { name: table.name, columns: checked.columns });
  await deps.database.c.rows.updateMany({ collectionId: table._id }, { $set: { [`values.${input.column.name}`]: null } });
  return afterSchemaChange(deps, principal, ws, next, "column.added", `${table.name}: ${input.column.name}`);
}

/**
 * Renames a column and carries every row's value over. The definition changes first (so
 * writes from then on use the new name), then the values move, one distinct value at a
 * time; each move matches only rows that still hold the old name with that value, so it
 * never overwrites a row written meanwhile. History keeps the names a version was saved with.
 */
export async function renameColumn(deps: StoreDeps, principal: Principal, input: TableRef & { column: string; name: string }): Promise<TableView> {
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const col = findColumn(table, input.column);
  if (input.name === col.name) return tableView(table);
  const columns = table.columns.map((c) => (c.name === col.name ? { ...c, name: input.name } : c));
  const checked = checkColumns(columns);
  if (!checked.ok) {
    const at = `columns.${table.columns.indexOf(col)}.name`;
    throw invalidInput(checked.issues.map((i) => ({ ...i, path: i.path === at ? "name" : i.path })));
  }
  const next = await writeDefinition(deps, ws, table, { name: table.name, columns: checked.columns });
  const from = `values.${col.name}`;
  const to = `values.${input.name}`;
  for (let pass = 0; pass < 3; pass++) {
    const held = await deps.database.c.rows.find({ collectionId: table._id, $or: notNull(col.type, from) }, { projection: { [from]: 1 } }).toArray();
    if (held.length === 0) break;
    const values = new Set(held.map((r) => r.values[col.name]).filter((v): v is string | number | boolean => v !== null && v !== undefined));
    for (const v of values) await deps.database.c.rows.updateMany({ collectionId: table._id, [from]: v }, { $set: { [to]: v }, $unset: { [from]: "" } });
  }
  // What is left under the old name is empty: the new name is empty there too (never
  // touching a row that already has a value under the new name).
  await deps.database.c.rows.updateMany({ collectionId: table._id, [from]: null, [to]: null }, { $set: { [to]: null }, $unset: { [from]: "" } });
  await tableChanged(deps, table);
  return afterSchemaChange(deps, principal, ws, next, "column.renamed", `${table.name}: ${col.name} → ${input.name}`);
}

/**
 * Removes a column and drops its values. `expectedValues` is the count the person was shown
 * when confirming: if more rows have a value by now, nothing is removed (`conflict`, with the
 * count), so a confirmation never drops more than it said.
 */
export async function removeColumn(
  deps: StoreDeps,
  principal: Principal,
  input: TableRef & { column: string; expectedValues?: number | undefined },
): Promise<TableView> {
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const col = findColumn(table, input.column);
  if (table.columns.length === 1) throw invalidField("column", "too_few", "a table keeps at least one column; delete the table instead", { min: 1 });
  const count = await valueCount(deps, table, col);
  if (input.expectedValues !== undefined && count > input.expectedValues) {
    throw new AppError("conflict", `${count} rows have a value in "${col.name}" now, not ${input.expectedValues}; confirm again.`, {
      details: { rows_with_values: count },
    });
  }
  const next = await writeDefinition(deps, ws, table, { name: table.name, columns: table.columns.filter((c) => c.name !== col.name) });
  await markUsageChanging(deps, ws._id);
  await deps.database.c.rows.updateMany({ collectionId: table._id }, { $unset: { [`values.${col.name}`]: "" } });
  return afterSchemaChange(deps, principal, ws, next, "column.removed", `${table.name}: ${col.name}`);
}

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

/**
 * Deletes a table with its rows and their history, giving their bytes back. Pages that
 * showed it say it no longer exists. Usage is marked first, so a stop in between is recounted.
 */
export async function deleteTable(deps: StoreDeps, principal: Principal, input: TableRef): Promise<{ slug: string }> {
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const { database } = deps;
  await markUsageChanging(deps, ws._id);
  const r = await database.c.collections.deleteOne({ _id: table._id });
  if (r.deletedCount !== 1) throw new AppError("not_found", `No table "${input.collection}" in this workspace.`);
  let freed = table.bytes;
  for await (const row of database.c.rows.find({ collectionId: table._id }, { projection: { bytes: 1 } })) freed += RECORD_OVERHEAD_BYTES + row.bytes;
  for await (const rev of database.c.rowRevisions.find({ collectionId: table._id }, { projection: { bytes: 1 } })) freed += rev.bytes;
  await database.c.rows.deleteMany({ collectionId: table._id });
  await database.c.rowRevisions.deleteMany({ collectionId: table._id });
  await database.c.rowChanges.deleteMany({ collectionId: table._id });
  await releaseUsage(deps, ws._id, { pages: 0, bytes: freed });
  await recordEvent(deps, {
    workspaceId: ws._id,
    type: "collection.deleted",
    actor: actorOf(principal),
    target: { kind: "collection", id: table._id, label: table.name },
  });
  await refreshTableViews(deps, ws, table.slug);
  return { slug: table.slug };
}
