import { z } from "zod";

/** An e-mail address, trimmed and lower-cased (one account per address). */
export const EmailSchema = z
  .string()
  .trim()
  .max(254, "must be at most 254 characters")
  .toLowerCase()
  .pipe(z.email({ error: "must be an e-mail address" }));

export const SixDigitCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, "must be six digits");

export const SLUG_MAX = 64;
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Workspace and page slugs (docs/contract.md#resources-and-identifiers): lower-case letters, digits and inner hyphens. */
export const SlugSchema = z
  .string()
  .min(1, "must not be empty")
  .max(SLUG_MAX, `must be at most ${SLUG_MAX} characters`)
  .regex(SLUG_PATTERN, "must be lower-case letters, digits and hyphens, not starting or ending with a hyphen");

export const UserViewSchema = z.object({
  id: z.string(),
  email: z.string(),
  defaultWorkspace: z.string().nullable(),
});
export type UserView = z.infer<typeof UserViewSchema>;

/** A short line of text people give things (names, labels): trimmed, no control characters. */
export const LabelSchema = (max = 100) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "must not contain control characters");

/** Who did something, as a reader may see it (outsiders get people's identities withheld). */
export const ActorViewSchema = z.object({
  kind: z.enum(["user", "agent"]),
  user_id: z.string().nullable(),
  token_id: z.string().nullable(),
  label: z.string(),
  /** The reader is not a member: who the person is (or whom an agent acts for) is withheld. */
  withheld: z.boolean(),
  /** An agent of an anonymous sandbox nobody has claimed yet: it acts for no one. */
  unclaimed: z.boolean(),
});
export type ActorView = z.infer<typeof ActorViewSchema>;

/** A page of results and where the next one starts (null at the end). */
/** A page size: `min` to `max` results a call, `default` when not said; the domain clamps to the same numbers. */
export interface ListLimit {
  min: number;
  max: number;
  default: number;
}

/** The `limit` argument of a list for `limit` (the one place its bounds are written for tRPC and MCP). */
export function limitSchema(limit: ListLimit) {
  return z.number().int().min(limit.min).max(limit.max).describe(`How many results at most (${limit.min} to ${limit.max}, default ${limit.default}).`);
}

/** `requested` within the limit's bounds, its default when not given. */
export function clampLimit(limit: ListLimit, requested: number | undefined): number {
  return Math.min(Math.max(requested ?? limit.default, limit.min), limit.max);
}

export const CursorSchema = z.string().max(1000).describe("The next_cursor of the previous call, to get the following results.");
