// Typing a value: what a person types into a cell and what that becomes (the server's own rules).
import { checkCell } from "@atelier/shared/schemas/cells";
import { cellAdvice } from "./server-problems";
import { isDateOnly } from "./show-value";
import type { Cell, Column, RowValues } from "./types";

/** What each cell's input holds: text, always (booleans as "true"/"false", empty as ""). */
export type RowInputs = Record<string, string>;

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** "2026-11-21T14:05" in this device's time zone, for a datetime-local input. */
function localDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Which input a date cell needs: a date picker, or date and time for a stored moment. */
export function dateInputType(value: string): "date" | "datetime-local" {
  return value === "" || isDateOnly(value) ? "date" : "datetime-local";
}

export function inputOf(col: Pick<Column, "type">, value: Cell | undefined): string {
  if (value === null || value === undefined) return "";
  if (col.type === "boolean") return value === true ? "true" : value === false ? "false" : "";
  if (col.type === "date" && typeof value === "string" && !isDateOnly(value)) return localDateTime(value);
  return String(value);
}

export function inputsOf(columns: Column[], values: RowValues): RowInputs {
  return Object.fromEntries(columns.map((c) => [c.name, inputOf(c, values[c.name])]));
}

/** A fresh row: everything empty, checkboxes unticked (false). */
export function emptyInputs(columns: Column[]): RowInputs {
  return Object.fromEntries(columns.map((c) => [c.name, c.type === "boolean" ? "false" : ""]));
}

export type Parsed = { ok: true; value: Cell } | { ok: false; problem: string };

/** What a person typed, as the value it means for this column's type (not yet checked). */
function typedValue(col: Pick<Column, "type">, raw: string): unknown {
  const s = raw.trim();
  switch (col.type) {
    case "text":
      return raw;
    case "number":
      return /^[+-]?(\d[\d_ ]*)?(\.\d+)?(e[+-]?\d+)?$/i.test(s) ? Number(s.replace(/[_ ]/g, "")) : Number.NaN;
    case "boolean":
      return s === "true" ? true : s === "false" ? false : s;
    case "date":
      // A datetime-local input gives a local time without a zone: stored as UTC.
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(s) && !Number.isNaN(Date.parse(s)) ? new Date(s).toISOString() : s;
    case "url":
    case "select":
      return s;
  }
}

/** What a typed value means for this column, or what is wrong with it, in words (the server's own rules). */
export function parseInput(col: Column, raw: string): Parsed {
  if (raw.trim() === "") return col.required ? { ok: false, problem: cellAdvice({ code: "required", message: "" }, col.name) } : { ok: true, value: null };
  const r = checkCell(col, typedValue(col, raw));
  return r.ok ? { ok: true, value: r.value } : { ok: false, problem: cellAdvice(r.problem, col.name) };
}

export function sameCell(a: Cell | undefined, b: Cell | undefined): boolean {
  return (a ?? null) === (b ?? null);
}

export interface RowDraftResult {
  /** The values to send (for an edit, only the changed columns). */
  values: RowValues;
  /** column → what is wrong, in words. */
  problems: Record<string, string>;
}

/**
 * An edit: only the columns whose input differs from the version it started from are sent
 * (the server keeps the rest), so a change made meanwhile to another column is not undone.
 */
export function rowChanges(columns: Column[], base: RowValues, inputs: RowInputs): RowDraftResult {
  const values: RowValues = {};
  const problems: Record<string, string> = {};
  for (const col of columns) {
    const raw = inputs[col.name] ?? "";
    if (raw === inputOf(col, base[col.name])) continue;
    const parsed = parseInput(col, raw);
    if (!parsed.ok) problems[col.name] = parsed.problem;
    else if (!sameCell(parsed.value, base[col.name])) values[col.name] = parsed.value;
  }
  return { values, problems };
}

/** A new row: every column checked; empty ones are left out (the server stores null). */
export function newRowValues(columns: Column[], inputs: RowInputs): RowDraftResult {
  const values: RowValues = {};
  const problems: Record<string, string> = {};
  for (const col of columns) {
    const parsed = parseInput(col, inputs[col.name] ?? "");
    if (!parsed.ok) problems[col.name] = parsed.problem;
    else if (parsed.value !== null) values[col.name] = parsed.value;
  }
  return { values, problems };
}
