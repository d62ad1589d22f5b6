import { z } from "zod";

/** An e-mail address, trimmed and lower-cased (one account per address). */
export const EmailSchema = z
  .string()
  .trim()
  .max(254, "must be at most 254 characters")
  .toLowerCase()
  .pipe(z.email({ error: "must be an e-mail address" }));

export const SixDigitCodeSchema = z.string().trim().regex(/^\d{6}$/, "must be six digits");

/** Workspace and page slugs (DESIGN §3): lower-case letters, digits and inner hyphens. */
export const SlugSchema = z
  .string()
  .min(1, "must not be empty")
  .max(64, "must be at most 64 characters")
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, "must be lower-case letters, digits and hyphens, not starting or ending with a hyphen");

export const UserViewSchema = z.object({
  id: z.string(),
  email: z.string(),
  defaultWorkspace: z.string().nullable(),
});
export type UserView = z.infer<typeof UserViewSchema>;
