// The columns of a new table, checked as they are typed (the server's own rules).
import type { FieldIssue } from "@atelier/shared/errors";
import { checkColumns, columnNameProblem as columnNameRule, type Problem } from "@atelier/shared/schemas/cells";
import type { RouterInputs } from "../../trpc";
import { serverProblems } from "./server-problems";
import { type ColumnType, capitalize, sentence } from "./types";

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
