// The change feed as clients see it (docs/events.md): ids, types and versions, never content.
import { z } from "zod";

export const ListChangesInputSchema = z.object({
  workspace: z.string().min(1).max(64).describe("The workspace's slug."),
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, "a position: the next_cursor of an earlier answer, or 0 for the oldest kept")
    .optional()
    .describe("Where to continue: the next_cursor of your last call. Omit it (or send 0) to start from the oldest change kept."),
  limit: z.number().int().min(1).max(500).optional().describe("At most this many changes (default 100)."),
});
export type ListChangesInput = z.infer<typeof ListChangesInputSchema>;

export const ChangeViewSchema = z.object({
  seq: z.number().int(),
  type: z.string(),
  actor: z.object({ kind: z.enum(["user", "agent"]), user_id: z.string().nullable(), token_id: z.string().nullable() }),
  target: z.object({ kind: z.string(), id: z.string() }),
  version: z.number().int().nullable(),
  at: z.string(),
});
export type ChangeView = z.infer<typeof ChangeViewSchema>;

export const ChangesViewSchema = z.object({
  changes: z.array(ChangeViewSchema),
  next_cursor: z.string(),
  /** Whether more are known to be there now (call again at once). */
  more: z.boolean(),
});
export type ChangesView = z.infer<typeof ChangesViewSchema>;
