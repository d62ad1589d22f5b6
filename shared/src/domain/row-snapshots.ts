// A table's rows held in process memory, labelled with the table's rowsVersion (issue 15):
// every change to a table's rows or columns bumps that number once it has written
// (tableChanged), and every list_rows reads the table document anyway, so a copy whose label
// equals the table's current rowsVersion is exact. Filtered and sorted pages are then cut
// from memory, in MongoDB's order, without reading any row. A copy that is behind catches up
// by reading only what changed, by `_id` (which every store answers from an index): a change
// to some rows writes down the version it took and the rows' ids (recordRowChange), and the
// copy reads those notes and those rows. When a note is missing (a change to every row, one
// not yet written down, one pruned) or too much changed, the copy is loaded again whole (one
// query on the table's own rows). Rows are read after the label, so a copy is never older
// than it says.
import type { CellValue, CollectionDoc, RowDoc } from "../db/index";
import type { StoreDeps } from "./deps";
import { insertOnce } from "../db";

/** One condition of a row filter, as listRows checked it. */
export type RowCondition =
  | { column: string; kind: "eq"; value: CellValue }
  | { column: string; kind: "range"; ops: { op: "gt" | "gte" | "lt" | "lte"; value: CellValue }[] }
  | { column: string; kind: "contains"; text: string };

export interface RowPageQuery {
  conditions: RowCondition[];
  sort: { column: string; desc: boolean } | undefined;
  /** Only rows after this one in the sort order (keyset paging). */
  after: { v: CellValue; id: string } | undefined;
  /** How many rows to return (the caller asks for one more to know whether there is a next page). */
  take: number;
}

interface Snapshot {
  version: number;
  /** In _id order (creation order). */
  rows: RowDoc[];
  /** The rows in each sort order asked for so far ("col:a" / "col:d"). */
  sorted: Map<string, RowDoc[]>;
}

const snapshotKey = (tableId: string) => `rows:${tableId}`;
const ROW_OVERHEAD = 400;
const loading = new Map<string, Promise<Snapshot>>();

/**
 * The table's rows as of its rowsVersion, from memory when this process holds them, or
 * null when the cache keeps no such copies (then the caller asks the database).
 */
export async function rowSnapshot(deps: StoreDeps, table: Pick<CollectionDoc, "_id" | "rowsVersion">): Promise<Snapshot | null> {
  if (!deps.cache.keepsChecked) return null;
  const version = table.rowsVersion ?? 0;
  const key = snapshotKey(table._id);
  const held = deps.cache.getChecked<Snapshot>(key);
  if (held && held.version === version) return held;
  const loadKey = `${key}@${version}`;
  let pending = loading.get(loadKey);
  if (!pending) {
    pending = (async () => {
      const caught = held && held.version < version ? await caughtUp(deps, table._id, held, version) : null;
      const rows = caught?.rows ?? (await deps.database.c.rows.find({ collectionId: table._id }).sort({ _id: 1 }).toArray());
      const snap: Snapshot = { version, rows, sorted: caught?.sorted ?? new Map() };
      // Never replace a copy another load has already brought further.
      if ((deps.cache.getChecked<Snapshot>(key)?.version ?? -1) < version) {
        deps.cache.setChecked(
          key,
          snap,
          rows.reduce((n, r) => n + r.bytes + ROW_OVERHEAD, 0),
        );
      }
      return snap;
    })().finally(() => loading.delete(loadKey));
    loading.set(loadKey, pending);
  }
  return pending;
}

/** How many changes of a table are written down (older notes are deleted as new ones come). */
export const ROW_CHANGES_KEPT = 64;
/** Past this many changed rows, reading the table again whole is cheaper than row by row. */
const MAX_ROWS_CAUGHT_UP = 500;

const changeId = (tableId: string, version: number) => `${tableId}:${version}`;

/**
 * Writes down that the change which took `version` touched `rowIds`, and deletes the note
 * ROW_CHANGES_KEPT versions older. Called by tableChanged right after the version was taken.
 */
export async function recordRowChange(
  deps: Pick<StoreDeps, "database">,
  table: Pick<CollectionDoc, "_id" | "workspaceId">,
  version: number,
  rowIds: readonly string[],
): Promise<void> {
  const { rowChanges } = deps.database.c;
  // A retried call: the note is already there.
  await insertOnce(rowChanges, { _id: changeId(table._id, version), workspaceId: table.workspaceId, collectionId: table._id, version, rowIds: [...rowIds] });
  if (version > ROW_CHANGES_KEPT) await rowChanges.deleteOne({ _id: changeId(table._id, version - ROW_CHANGES_KEPT) });
}

/**
 * `held` brought up to `version` by reading the notes of the changes after it and the rows
 * they name, all by `_id`; null when that cannot be done exactly (then the caller reads the
 * table whole). The sort orders `held` had built are carried over too (the changed rows taken
 * out, the fresh ones merged in), so a sorted page right after a write does not sort the
 * whole table again.
 */
async function caughtUp(deps: StoreDeps, tableId: string, held: Snapshot, version: number): Promise<Pick<Snapshot, "rows" | "sorted"> | null> {
  if (version - held.version > ROW_CHANGES_KEPT) return null;
  const versions = Array.from({ length: version - held.version }, (_, i) => held.version + 1 + i);
  const notes = await Promise.all(versions.map((v) => deps.database.c.rowChanges.findOne({ _id: changeId(tableId, v) })));
  const ids = new Set<string>();
  for (const note of notes) {
    if (!note) return null;
    for (const id of note.rowIds) ids.add(id);
  }
  if (ids.size > MAX_ROWS_CAUGHT_UP) return null;
  const fresh = (await Promise.all([...ids].map((id) => deps.database.c.rows.findOne({ _id: id })))).filter(
    (r): r is RowDoc => r !== null && r.collectionId === tableId, // absent: deleted (or never this table's)
  );
  const sorted = new Map<string, RowDoc[]>();
  for (const [key, order] of held.sorted) {
    const compare = comparer({ column: key.slice(0, -2), desc: key.endsWith(":d") });
    sorted.set(key, mergeChanged(order, ids, [...fresh].sort(compare), compare));
  }
  const byId = comparer(undefined);
  return { rows: mergeChanged(held.rows, ids, [...fresh].sort(byId), byId), sorted };
}

/** `order` without the rows in `changed`, merged with `fresh` (both in `compare`'s order). */
function mergeChanged(order: RowDoc[], changed: Set<string>, fresh: RowDoc[], compare: (a: RowDoc, b: RowDoc) => number): RowDoc[] {
  const out: RowDoc[] = [];
  let j = 0;
  for (const r of order) {
    if (changed.has(r._id)) continue;
    while (j < fresh.length && compare(fresh[j] as RowDoc, r) < 0) out.push(fresh[j++] as RowDoc);
    out.push(r);
  }
  while (j < fresh.length) out.push(fresh[j++] as RowDoc);
  return out;
}

/** Strings in code point order, as MongoDB and FerretDB compare them (UTF-16 units differ above U+FFFF). */
function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

// BSON's order between types: null, numbers, strings, booleans.
function typeRank(v: CellValue): number {
  if (v === null) return 0;
  if (typeof v === "number") return 1;
  if (typeof v === "string") return 2;
  return 3;
}

/** MongoDB's sort order for two cell values. */
export function compareCells(a: CellValue, b: CellValue): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (a === null || b === null) return 0;
  if (typeof a === "number") return a === b ? 0 : a < (b as number) ? -1 : 1;
  if (typeof a === "string") return compareStrings(a, b as string);
  return a === b ? 0 : a ? 1 : -1;
}

const valueOf = (r: RowDoc, column: string): CellValue => r.values[column] ?? null;

function matches(r: RowDoc, c: RowCondition, regexes: Map<RowCondition, RegExp>): boolean {
  const v = valueOf(r, c.column);
  switch (c.kind) {
    case "eq":
      return c.value === null ? v === null : v === c.value;
    case "range":
      // A range compares within one type only, as MongoDB's does (null matches no range).
      return c.ops.every(({ op, value }) => {
        if (v === null || value === null || typeRank(v) !== typeRank(value)) return false;
        const d = compareCells(v, value);
        return op === "gt" ? d > 0 : op === "gte" ? d >= 0 : op === "lt" ? d < 0 : d <= 0;
      });
    case "contains":
      return typeof v === "string" && (regexes.get(c) as RegExp).test(v);
  }
}

/** The order of a sort (the column's values, then _id), or _id order. */
function comparer(sort: { column: string; desc: boolean } | undefined): (a: RowDoc, b: RowDoc) => number {
  return sort
    ? (a: RowDoc, b: RowDoc) => {
        const d = compareCells(valueOf(a, sort.column), valueOf(b, sort.column));
        if (d !== 0) return sort.desc ? -d : d;
        return a._id < b._id ? -1 : a._id > b._id ? 1 : 0;
      }
    : (a: RowDoc, b: RowDoc) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
}

/** One page of rows, as listRows would get it from the database with the same query. */
export function rowPage(snap: Snapshot, q: RowPageQuery): RowDoc[] {
  let order = snap.rows;
  const sort = q.sort;
  const compare = comparer(sort);
  if (sort) {
    const key = `${sort.column}:${sort.desc ? "d" : "a"}`;
    let sorted = snap.sorted.get(key);
    if (!sorted) {
      sorted = [...snap.rows].sort(compare);
      snap.sorted.set(key, sorted);
    }
    order = sorted;
  }
  let start = 0;
  if (q.after) {
    const after = q.after;
    const probe = { _id: after.id, values: sort ? { [sort.column]: after.v } : {} } as unknown as RowDoc;
    // The first row strictly after the cursor's position.
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(order[mid] as RowDoc, probe) <= 0) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const regexes = new Map<RowCondition, RegExp>();
  for (const c of q.conditions) if (c.kind === "contains") regexes.set(c, new RegExp(c.text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "iu"));
  const out: RowDoc[] = [];
  for (let i = start; i < order.length && out.length < q.take; i++) {
    const r = order[i] as RowDoc;
    if (q.conditions.every((c) => matches(r, c, regexes))) out.push(r);
  }
  return out;
}
