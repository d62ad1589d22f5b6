import type { z } from "zod";
import { invalidInput, type FieldIssue } from "../errors";

/**
 * Zod's issues as our field issues. A refinement names its code with `params: {code}`
 * (see `refineCode`); zod's own codes (`too_small`, `invalid_format`, …) pass through, with
 * the bound a client needs to explain them.
 */
export function fieldIssuesOf(issues: readonly z.core.$ZodIssue[]): FieldIssue[] {
  return issues.map((i) => {
    const path = i.path.map(String).join(".");
    const own = i.code === "custom" ? (i.params as { code?: unknown } | undefined)?.code : undefined;
    const params: FieldIssue["params"] = {};
    if ("maximum" in i && (typeof i.maximum === "number" || typeof i.maximum === "bigint")) params.max = Number(i.maximum);
    if ("minimum" in i && (typeof i.minimum === "number" || typeof i.minimum === "bigint")) params.min = Number(i.minimum);
    if (i.code === "unrecognized_keys") params.keys = i.keys;
    if (i.code === "invalid_value") params.options = i.values.map(String);
    const issue: FieldIssue = { path, code: typeof own === "string" ? own : i.code, message: i.message };
    if (Object.keys(params).length > 0) issue.params = params;
    return issue;
  });
}

/** Validates input at a boundary; a failure is `invalid_request` naming each field at fault. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw invalidInput(fieldIssuesOf(r.error.issues));
}

/** Options for a zod refinement that reports one of our issue codes. */
export function refineCode(code: string, message: string): { message: string; params: { code: string } } {
  return { message, params: { code } };
}
