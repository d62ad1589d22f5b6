// A row's values checked against its table's columns (the rules in shared/src/schemas/cells.ts).
import type { CellValue, CollectionDoc } from "../../db/index";
import { invalidField } from "../../errors";
import { newSecret } from "../../ids";
import { checkCell, utf8Bytes, type ColumnRule } from "../../schemas/cells";

let rowSeq = 0;

/**
 * Row ids sort in creation order (time, then a per-process sequence, then randomness), so
 * the default order is the order rows were added, and stays stable under inserts.
 */
export function newRowId(): string {
  rowSeq = (rowSeq + 1) % 1_679_616;
  return `row_${Date.now().toString(36).padStart(9, "0")}${rowSeq.toString(36).padStart(4, "0")}${newSecret(9).replace(/[^A-Za-z0-9]/g, "x")}`;
}

/** One cell checked against its column; a problem is an `invalid_request` naming `path`. */
export function cell(col: ColumnRule, value: unknown, path: string): CellValue {
  const r = checkCell(col, value);
  if (!r.ok) throw invalidField(path, r.problem.code, r.problem.message, r.problem.params);
  return r.value;
}

/** A whole row checked against the table: every column present (null when empty), no others. */
export function checkRow(table: CollectionDoc, values: unknown, where: string, base?: Record<string, CellValue>): Record<string, CellValue> {
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

/** Bytes of a row's values as stored. */
export function rowBytes(values: Record<string, CellValue>): number {
  return utf8Bytes(JSON.stringify(values));
}

/** Refuses a row over ROW_MAX_BYTES, naming `path`. */
export function assertRowSize(bytes: number, max: number, path: string, what: string): void {
  if (bytes > max) throw invalidField(path, "too_large", `${what} ${bytes} bytes; a row holds at most ${max}`, { max, size: bytes });
}
