// The rules of table columns and cells, in one place for the domain and the browser: what a
// column may be called and hold, and whether a value fits a column. Problems are issue codes
// (with what explains them in `params`), so each side words them its own way.
import type { FieldIssue, IssueCode } from "../errors";

export const COLUMN_TYPES = ["text", "number", "boolean", "date", "url", "select"] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];
export type CellValue = string | number | boolean | null;

export interface ColumnRule {
  name: string;
  type: ColumnType;
  required: boolean;
  options?: string[] | undefined;
}

export const LIMITS = {
  columns: 50,
  columnName: 63,
  options: 100,
  optionLength: 100,
  text: 10_000,
  url: 2_000,
} as const;

const COLUMN_NAME = /^[A-Za-z_][A-Za-z0-9_ -]{0,62}$/;
/**
 * Names a row's values object cannot safely hold as keys, whatever the store: `_id` is the
 * database's, the rest are JavaScript's object machinery.
 */
export const RESERVED_COLUMN_NAMES: readonly string[] = ["_id", "__proto__", "constructor", "prototype", "hasOwnProperty", "toString", "valueOf"];

export interface Problem {
  code: IssueCode;
  message: string;
  params?: FieldIssue["params"];
}

/** What is wrong with a column name, or null. */
export function columnNameProblem(name: string): Problem | null {
  if (name.length === 0) return { code: "required", message: "must not be empty" };
  if (name.length > LIMITS.columnName)
    return { code: "too_long", message: `must be at most ${LIMITS.columnName} characters`, params: { max: LIMITS.columnName } };
  if (RESERVED_COLUMN_NAMES.includes(name)) return { code: "reserved_name", message: `"${name}" is reserved`, params: { name } };
  if (!COLUMN_NAME.test(name)) return { code: "invalid_name", message: "must start with a letter or _, then letters, digits, spaces, _ or -" };
  return null;
}

export interface ColumnInput {
  name: string;
  type: ColumnType;
  required?: boolean | undefined;
  options?: string[] | undefined;
}

/** A table's columns checked as a whole: the clean definitions, or every problem with its path. */
export function checkColumns(columns: readonly ColumnInput[]): { ok: true; columns: ColumnRule[] } | { ok: false; issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  if (columns.length === 0) issues.push({ path: "columns", code: "too_few", message: "a table needs at least one column", params: { min: 1 } });
  if (columns.length > LIMITS.columns)
    issues.push({ path: "columns", code: "too_many", message: `a table has at most ${LIMITS.columns} columns`, params: { max: LIMITS.columns } });
  const seen = new Set<string>();
  const out: ColumnRule[] = [];
  columns.forEach((c, i) => {
    const nameProblem = columnNameProblem(c.name);
    if (nameProblem) issues.push({ path: `columns.${i}.name`, ...nameProblem });
    else if (seen.has(c.name)) issues.push({ path: `columns.${i}.name`, code: "duplicate", message: `"${c.name}" appears twice`, params: { name: c.name } });
    seen.add(c.name);
    if (c.type === "select") {
      const opts = [...new Set(c.options ?? [])];
      if (opts.length === 0)
        issues.push({ path: `columns.${i}.options`, code: "too_few", message: "a select column needs at least one option", params: { min: 1 } });
      else if (opts.length > LIMITS.options)
        issues.push({
          path: `columns.${i}.options`,
          code: "too_many",
          message: `a select column has at most ${LIMITS.options} options`,
          params: { max: LIMITS.options },
        });
      else if (opts.some((o) => o.length === 0 || o.length > LIMITS.optionLength)) {
        issues.push({
          path: `columns.${i}.options`,
          code: "too_long",
          message: `each option must be 1 to ${LIMITS.optionLength} characters`,
          params: { max: LIMITS.optionLength },
        });
      }
      out.push({ name: c.name, type: c.type, required: c.required ?? false, options: opts });
    } else {
      if (c.options !== undefined) issues.push({ path: `columns.${i}.options`, code: "not_allowed", message: "only select columns have options" });
      out.push({ name: c.name, type: c.type, required: c.required ?? false });
    }
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, columns: out };
}

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * Whether `value` fits `col`, and the value as stored (dates as ISO strings, so ranges
 * compare correctly). Empty (null, undefined or "") is null, or `required` when the column is.
 */
export function checkCell(col: ColumnRule, value: unknown): { ok: true; value: CellValue } | { ok: false; problem: Problem } {
  const fail = (code: IssueCode, message: string, params?: FieldIssue["params"]) => ({
    ok: false as const,
    problem: params ? { code, message, params } : { code, message },
  });
  if (value === null || value === undefined || value === "") {
    return col.required ? fail("required", "is required", { column: col.name }) : { ok: true, value: null };
  }
  switch (col.type) {
    case "text":
      if (typeof value !== "string") return fail("not_text", "must be text");
      if (value.length > LIMITS.text || value.includes("\u0000"))
        return fail("too_long", `must be at most ${LIMITS.text} characters without NUL`, { max: LIMITS.text });
      return { ok: true, value };
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return fail("not_number", "must be a finite number");
      return { ok: true, value };
    case "boolean":
      if (typeof value !== "boolean") return fail("not_boolean", "must be true or false");
      return { ok: true, value };
    case "date":
      if (typeof value !== "string" || !DATE.test(value) || Number.isNaN(Date.parse(value)))
        return fail("not_date", "must be a date like 2026-11-21 or an ISO timestamp");
      return { ok: true, value: value.length === 10 ? value : new Date(value).toISOString() };
    case "url": {
      if (typeof value !== "string") return fail("not_url", "must be an http(s) URL");
      if (value.length > LIMITS.url) return fail("too_long", `must be a URL of at most ${LIMITS.url} characters`, { max: LIMITS.url });
      let u: URL;
      try {
        u = new URL(value);
      } catch {
        return fail("not_url", "must be an http(s) URL");
      }
      if (u.protocol !== "http:" && u.protocol !== "https:") return fail("not_url", "must be an http(s) URL");
      return { ok: true, value };
    }
    case "select": {
      const options = col.options ?? [];
      if (typeof value !== "string" || !options.includes(value)) return fail("not_option", `must be one of ${options.join(", ")}`, { options });
      return { ok: true, value };
    }
  }
}

const encoder = new TextEncoder();

/** UTF-8 size of a string, without Node's Buffer (this module also runs in the browser). */
export function utf8Bytes(s: string): number {
  return encoder.encode(s).length;
}
