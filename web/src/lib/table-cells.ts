// Data tables, cell by cell: how each column type reads on screen, what a person types into
// it and what that becomes, what the server said was wrong with a row (field by field, in
// plain words), filters and sort kept in the address, and the columns of a new table.
// Pure functions, so they are unit-tested (table-cells.test.ts).
import type { FieldIssue } from "@atelier/shared/errors";
import { checkCell, checkColumns, columnNameProblem as columnNameRule, type Problem } from "@atelier/shared/schemas/cells";
import { fieldIssuesOf } from "./errors";
import type { RouterInputs, RouterOutputs } from "../trpc";

export type TableInfo = RouterOutputs["collections"]["list"][number];
export type Column = TableInfo["columns"][number];
export type ColumnType = Column["type"];
export type Cell = string | number | boolean | null;
export type RowValues = Record<string, Cell>;
export type Row = RouterOutputs["rows"]["list"]["rows"][number];
export type RowRevision = RouterOutputs["rows"]["history"][number];
export type ServerFilter = NonNullable<RouterInputs["rows"]["list"]["filter"]>;

export const COLUMN_TYPES: { type: ColumnType; label: string; hint: string }[] = [
  { type: "text", label: "Text", hint: "Any words" },
  { type: "number", label: "Number", hint: "42, 3.5, -1" },
  { type: "boolean", label: "Yes / no", hint: "A checkbox" },
  { type: "date", label: "Date", hint: "2026-11-21" },
  { type: "url", label: "Link", hint: "https://…" },
  { type: "select", label: "Choice", hint: "One of a list" },
];

export function typeLabel(type: ColumnType): string {
  return COLUMN_TYPES.find((t) => t.type === type)?.label ?? type;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function sentence(s: string): string {
  const t = s.trim();
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}

// ---------- Showing a value ----------

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const numberFormat = new Intl.NumberFormat("en", { maximumFractionDigits: 20 });

/** A date column holds a calendar date ("2026-11-21") or a moment (a full ISO timestamp). */
export function isDateOnly(value: string): boolean {
  return DATE_ONLY.test(value);
}

/**
 * A date as the browser's own date input shows it, so what a cell reads and what its input
 * holds look alike: the reader's numeric form ("11/21/2026" in the US, "21/11/2026" in the
 * UK, "21.11.2026" in Germany). A calendar date is the same day everywhere; a moment also
 * has its time, in the reader's zone, as a datetime input shows it.
 */
export function formatDateCell(value: string, locale?: string): string {
  const t = Date.parse(value);
  if (Number.isNaN(t)) return value;
  const day = { year: "numeric", month: "2-digit", day: "2-digit" } as const;
  if (isDateOnly(value)) return new Intl.DateTimeFormat(locale, { ...day, timeZone: "UTC" }).format(t);
  return new Intl.DateTimeFormat(locale, { ...day, hour: "2-digit", minute: "2-digit" }).format(t);
}

/** A value as words: what a cell reads as, for titles, screen readers and comparisons. */
export function cellText(col: Pick<Column, "type">, value: Cell | undefined): string {
  if (value === null || value === undefined) return "";
  switch (col.type) {
    case "number":
      return typeof value === "number" ? numberFormat.format(value) : String(value);
    case "boolean":
      return value === true ? "Yes" : value === false ? "No" : String(value);
    case "date":
      return typeof value === "string" ? formatDateCell(value) : String(value);
    case "text":
    case "url":
    case "select":
      return String(value);
  }
}

/** A short, readable link text: "example.com/docs/…" for a long address. */
export function shortUrl(value: string, max = 40): string {
  const bare = value.replace(/^https?:\/\//, "").replace(/\/$/, "");
  return bare.length > max ? `${bare.slice(0, max - 1)}…` : bare;
}

// ---------- Typing a value ----------

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

// ---------- What the server refused ----------

/** Advice to a person for a cell's problem, worded from its code (never from our sentences). */
export function cellAdvice(problem: Pick<Problem, "code" | "message" | "params">, column: string): string {
  const max = problem.params?.max;
  switch (problem.code) {
    case "required":
      return `Fill this in: “${column}” is required.`;
    case "not_number":
      return "Enter a number, like 42 or 3.5.";
    case "not_boolean":
      return "Choose yes or no.";
    case "not_date":
      return "Enter a date, like 2026-11-21.";
    case "not_url":
      return "Enter a web address that starts with http:// or https://.";
    case "not_option": {
      const options = problem.params?.options;
      return Array.isArray(options) ? `Choose one of: ${options.join(", ")}.` : "Choose one of the column’s choices.";
    }
    case "not_text":
      return "Enter text.";
    case "too_long":
      return typeof max === "number" ? `Keep it to ${numberFormat.format(max)} characters or fewer.` : "That’s too long.";
    case "unknown_column":
      return "This column isn’t in the table any more. Reload to see its columns.";
    default:
      return problem.message ? sentence(capitalize(problem.message)) : "This value isn’t accepted.";
  }
}

/** The field-by-field problems of a refused request (the server's issues: path, code, params). */
export function serverProblems(err: unknown): FieldIssue[] {
  return fieldIssuesOf(err);
}

export interface RowProblems {
  fields: Record<string, string>;
  /** A problem with the row as a whole (its size), or null. */
  other: string | null;
}

/** Which cells the server refused, and why, for a row edit (`values.x`) or insert (`rows.0.x`). */
export function rowProblemsOf(err: unknown, columns: Column[]): RowProblems {
  const fields: Record<string, string> = {};
  let other: string | null = null;
  for (const p of serverProblems(err)) {
    const m = /^(?:values|rows\.\d+)(?:\.(.+))?$/s.exec(p.path);
    if (!m) continue;
    const column = m[1];
    if (column && columns.some((c) => c.name === column)) fields[column] = cellAdvice(p, column);
    else if (p.code === "too_large" && typeof p.params?.max === "number") {
      other = `The row is too large: keep it under ${numberFormat.format(p.params.max)} bytes.`;
    } else other = cellAdvice(p, column ?? "");
  }
  return { fields, other };
}

// ---------- Sort and filters, kept in the address ----------

export interface SortState {
  column: string;
  direction: "asc" | "desc";
}

export interface ColumnFilter {
  eq?: string;
  gte?: string;
  lte?: string;
  /** Text that holds this, in any case (text and link columns). */
  has?: string;
}

export type FilterState = Record<string, ColumnFilter>;

export interface GridState {
  sort: SortState | null;
  filters: FilterState;
}

const FILTER_OPS = ["eq", "gte", "lte", "has"] as const;

export function gridStateOf(search: URLSearchParams): GridState {
  const column = search.get("sort");
  const sort: SortState | null = column ? { column, direction: search.get("dir") === "desc" ? "desc" : "asc" } : null;
  const filters: FilterState = {};
  for (const [key, value] of search) {
    const dot = key.indexOf(".");
    const op = key.slice(0, dot) as (typeof FILTER_OPS)[number];
    if (dot < 1 || !FILTER_OPS.includes(op) || value === "") continue;
    const name = key.slice(dot + 1);
    filters[name] = { ...filters[name], [op]: value };
  }
  return { sort, filters };
}

/** The address for a grid state; other parameters (a dialog, a flag) are kept. */
export function searchOf(prev: URLSearchParams, state: GridState): URLSearchParams {
  const next = new URLSearchParams();
  for (const [key, value] of prev) {
    if (key === "sort" || key === "dir" || FILTER_OPS.some((op) => key.startsWith(`${op}.`))) continue;
    next.append(key, value);
  }
  if (state.sort) {
    next.set("sort", state.sort.column);
    next.set("dir", state.sort.direction);
  }
  for (const [name, f] of Object.entries(state.filters)) {
    for (const op of FILTER_OPS) {
      const v = f[op];
      if (v !== undefined && v !== "") next.set(`${op}.${name}`, v);
    }
  }
  return next;
}

/** Clicking a header: ascending, then descending, then back to the table's own order. */
export function nextSort(current: SortState | null, column: string): SortState | null {
  if (current?.column !== column) return { column, direction: "asc" };
  return current.direction === "asc" ? { column, direction: "desc" } : null;
}

export function activeFilters(columns: Column[], filters: FilterState): [Column, ColumnFilter][] {
  return columns.flatMap((c): [Column, ColumnFilter][] => {
    const f = filters[c.name];
    return f && (f.eq || f.gte || f.lte || (f.has && canContain(c))) ? [[c, f]] : [];
  });
}

/** Whether a column can be filtered by part of its text (the server's `contains`). */
export function canContain(col: Pick<Column, "type">): boolean {
  return col.type === "text" || col.type === "url";
}

/** The filters as rows.list takes them, typed by column, or what is wrong with each. */
export function serverFilterOf(columns: Column[], filters: FilterState): { filter: ServerFilter | undefined; problems: Record<string, string> } {
  const filter: ServerFilter = {};
  const problems: Record<string, string> = {};
  for (const [col, f] of activeFilters(columns, filters)) {
    const parse = (raw: string) => parseInput({ ...col, required: false, type: col.type }, raw);
    const wholeDayEnd = (d: string) => (col.type === "date" && isDateOnly(d) ? `${d}T23:59:59.999Z` : d);
    if (f.has && canContain(col)) {
      filter[col.name] = { contains: f.has };
      continue;
    }
    if (f.eq) {
      const p = parse(f.eq);
      if (!p.ok) problems[col.name] = p.problem;
      // A date matches the whole day, whether the cells hold dates or moments.
      else if (col.type === "date" && typeof p.value === "string" && isDateOnly(p.value)) filter[col.name] = { gte: p.value, lte: wholeDayEnd(p.value) };
      else filter[col.name] = p.value;
      continue;
    }
    const range: { gte?: Cell; lte?: Cell } = {};
    for (const op of ["gte", "lte"] as const) {
      const raw = f[op];
      if (!raw) continue;
      const p = parse(raw);
      if (!p.ok) problems[col.name] = p.problem;
      else range[op] = op === "lte" && typeof p.value === "string" ? wholeDayEnd(p.value) : p.value;
    }
    if (!problems[col.name]) filter[col.name] = range;
  }
  return { filter: Object.keys(filter).length > 0 ? filter : undefined, problems };
}

/** "score ≥ 3", "due from 1 Nov 2026 to 30 Nov 2026", "done is Yes". */
export function filterSummary(col: Column, f: ColumnFilter): string {
  const show = (raw: string) => {
    const p = parseInput({ ...col, required: false }, raw);
    return p.ok ? cellText(col, p.value) : raw;
  };
  if (f.has) return `${col.name} contains “${f.has}”`;
  if (f.eq) return `${col.name} is ${show(f.eq)}`;
  if (f.gte && f.lte) return `${col.name} from ${show(f.gte)} to ${show(f.lte)}`;
  if (f.gte) return `${col.name} ${col.type === "date" ? "from" : "≥"} ${show(f.gte)}`;
  if (f.lte) return `${col.name} ${col.type === "date" ? "until" : "≤"} ${show(f.lte)}`;
  return col.name;
}

// ---------- Conflicts ----------

export interface CellComparison {
  column: Column;
  base: Cell;
  mine: Cell;
  theirs: Cell;
  iChanged: boolean;
  theyChanged: boolean;
}

/** Column by column: what the person started from, what they typed, what is there now. */
export function compareRow(columns: Column[], base: RowValues, mine: RowValues, theirs: RowValues): CellComparison[] {
  return columns.map((column) => {
    const b = base[column.name] ?? null;
    const iChanged = column.name in mine && !sameCell(mine[column.name], b);
    const t = theirs[column.name] ?? null;
    return { column, base: b, mine: iChanged ? (mine[column.name] ?? null) : b, theirs: t, iChanged, theyChanged: !sameCell(t, b) };
  });
}

/** "score", "score and title", "score, title and done". */
export function nameList(names: string[]): string {
  const quoted = names.map((n) => `“${n}”`);
  if (quoted.length <= 1) return quoted[0] ?? "nothing";
  return `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1] ?? ""}`;
}

/** One row as plain text ("title: Milk · done: Yes"), to copy or to read in a sentence. */
export function rowText(columns: Column[], values: RowValues): string {
  return columns
    .filter((c) => values[c.name] !== null && values[c.name] !== undefined)
    .map((c) => `${c.name}: ${cellText(c, values[c.name])}`)
    .join(" · ");
}

/** A row's name in a sentence: its first filled cell, else its position. */
export function rowLabel(columns: Column[], values: RowValues, fallback: string): string {
  for (const c of columns) {
    const text = cellText(c, values[c.name]);
    if (text) return text.length > 40 ? `${text.slice(0, 39)}…` : text;
  }
  return fallback;
}

// ---------- The columns of a new table ----------

export interface ColumnDraft {
  /** Stable key for the list (names change while typing). */
  key: string;
  name: string;
  type: ColumnType;
  required: boolean;
  /** A select column's options, one a line. */
  options: string;
}

export function optionsOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split("\n")
        .map((o) => o.trim())
        .filter(Boolean),
    ),
  ];
}

/** Advice for a column's problem (its name or its choices), worded from its code. */
function columnAdvice(p: Pick<Problem, "code" | "message" | "params">, field: "name" | "options", name: string): string {
  const max = p.params?.max;
  if (field === "options") {
    if (p.code === "too_few") return "Give at least one choice, one a line.";
    if (p.code === "too_many") return `At most ${String(max)} choices.`;
    if (p.code === "too_long") return `Keep each choice to ${String(max)} characters or fewer.`;
    return sentence(capitalize(p.message));
  }
  switch (p.code) {
    case "required":
      return "Name the column.";
    case "too_long":
      return `Keep it to ${String(max)} characters or fewer (this one has ${name.length}).`;
    case "reserved_name":
      return `“${name}” is reserved; choose another name.`;
    case "invalid_name":
      return /^[A-Za-z_]/.test(name) ? "Use letters a–z, digits, spaces, _ and - only." : "Start with a letter (a–z) or _.";
    case "duplicate":
      return `Another column is already called “${name}”.`;
    default:
      return sentence(capitalize(p.message));
  }
}

export function columnNameProblem(name: string): string | null {
  const n = name.trim();
  const p = columnNameRule(n);
  return p ? columnAdvice(p, "name", n) : null;
}

export interface ColumnProblems {
  byKey: Record<string, { name?: string; options?: string }>;
  overall: string | null;
}

/** Problems (by column key, and for the table as a whole) from issues about `columns.i.…`. */
function columnIssuesByKey(issues: FieldIssue[], columns: ColumnDraft[]): { byKey: ColumnProblems["byKey"]; rest: FieldIssue[] } {
  const byKey: ColumnProblems["byKey"] = {};
  const rest: FieldIssue[] = [];
  for (const p of issues) {
    const m = /^columns\.(\d+)\.(name|options|type|required)/.exec(p.path);
    const col = m ? columns[Number(m[1])] : undefined;
    if (m && col) {
      const field = m[2] === "options" ? "options" : "name";
      byKey[col.key] = { ...byKey[col.key], [field]: columnAdvice(p, field, col.name.trim()) };
    } else rest.push(p);
  }
  return { byKey, rest };
}

/** The new table's columns checked by the server's own rules, before sending. */
export function columnProblems(columns: ColumnDraft[]): ColumnProblems {
  const r = checkColumns(columnsInput(columns));
  if (r.ok) return { byKey: {}, overall: null };
  const { byKey, rest } = columnIssuesByKey(r.issues, columns);
  const whole = rest.find((p) => p.path === "columns");
  const overall = whole ? (whole.code === "too_few" ? "Add at least one column." : `A table has at most ${String(whole.params?.max)} columns.`) : null;
  return { byKey, overall };
}

export function hasColumnProblems(p: ColumnProblems): boolean {
  return p.overall !== null || Object.keys(p.byKey).length > 0;
}

export type ColumnInput = NonNullable<RouterInputs["collections"]["create"]["columns"]>[number];

export function columnsInput(columns: ColumnDraft[]): ColumnInput[] {
  return columns.map((c) => ({
    name: c.name.trim(),
    type: c.type,
    required: c.required,
    ...(c.type === "select" ? { options: optionsOf(c.options) } : {}),
  }));
}

/** The server's problems with the columns, by the key of the column they are about. */
export function columnServerProblems(err: unknown, columns: ColumnDraft[]): { byKey: ColumnProblems["byKey"]; rest: FieldIssue[] } {
  return columnIssuesByKey(serverProblems(err), columns);
}

// ---------- Table views on a page ----------

export type TableViewSpec = NonNullable<RouterInputs["pages"]["update"]["tables"]>[number];

/** A spec with its keys in one order and nothing empty, so two specs compare as strings. */
export function canonicalSpec(spec: TableViewSpec): TableViewSpec {
  return {
    collection: spec.collection,
    ...(spec.columns && spec.columns.length > 0 ? { columns: [...spec.columns] } : {}),
    ...(spec.sort ? { sort: { column: spec.sort.column, direction: spec.sort.direction } } : {}),
    ...(spec.limit !== undefined ? { limit: spec.limit } : {}),
  };
}

/** The table_view parts of a page, in order, as specs. */
export function tableSpecsOf(parts: { kind: string; body: string; position: number }[]): TableViewSpec[] {
  return [...parts]
    .sort((a, b) => a.position - b.position)
    .filter((p) => p.kind === "table_view")
    .flatMap((p) => {
      try {
        const v = JSON.parse(p.body) as Partial<TableViewSpec>;
        return typeof v.collection === "string" ? [canonicalSpec(v as TableViewSpec)] : [];
      } catch {
        return [];
      }
    });
}
