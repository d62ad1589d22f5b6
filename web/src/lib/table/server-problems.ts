// What the server refused, field by field, in plain words next to the cell.
import type { FieldIssue } from "@atelier/shared/errors";
import type { Problem } from "@atelier/shared/schemas/cells";
import { numberFormat } from "./show-value";
import { fieldIssuesOf } from "../errors";
import { type Column, capitalize, sentence } from "./types";

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
