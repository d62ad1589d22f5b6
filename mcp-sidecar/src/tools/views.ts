import { PageSummaryViewSchema, PageViewSchema, RevisionViewSchema } from "@atelier/shared/schemas/pages";
import { z } from "zod";

export { PageSummaryViewSchema, PageViewSchema, RevisionViewSchema };

export const WorkspaceViewSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  visibility: z.enum(["private", "public"]),
  role: z.enum(["owner", "editor", "viewer"]).nullable(),
  can_write: z.boolean(),
  can_manage: z.boolean(),
  sandbox: z.object({ state: z.enum(["unclaimed", "claimed", "expired"]) }).nullable(),
  usage: z.object({ pages: z.number(), bytes: z.number() }),
  created_at: z.string(),
});

export const CursorSchema = z.string().max(400).describe("The next_cursor of the previous call, to get the following results.");
export const LimitSchema = z.number().int().min(1).max(200).describe("How many results at most (default 50).");
