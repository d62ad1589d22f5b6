import type { z } from "zod";
import { AppError } from "../errors";

/** Validates input at a boundary; a failure is `invalid_request` naming each field at fault. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const message = r.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join(".") || "(body)"}: ${i.message}`)
    .join("; ");
  throw new AppError("invalid_request", message, { details: { issues: r.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })) } });
}
