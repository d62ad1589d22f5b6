import { z } from "zod";
import { SlugSchema } from "./common";

/** The largest archive that goes through a tool call: base64 makes it a third larger, and the zip is held in memory whole. */
export const ARCHIVE_TOOL_MAX_BYTES = 2 * 1024 * 1024;

export const ExportWorkspaceInputSchema = z
  .object({
    workspace: SlugSchema,
    history: z
      .boolean()
      .optional()
      .describe("With full history: every kept version of each page as history/<slug>/<version>.md (or .html), with who wrote it and when (default false)"),
  })
  .strict();

/** The query of GET /api/workspaces/:slug/export: `?history=1` for full history. */
export const ExportWorkspaceQuerySchema = z
  .object({ history: z.enum(["0", "1", "true", "false"]).optional() })
  .strip()
  .transform((q) => ({ history: q.history === "1" || q.history === "true" }));
export const ExportedWorkspaceViewSchema = z.object({
  workspace: z.string(),
  filename: z.string(),
  bytes: z.number(),
  archive_base64: z.string(),
});

export const ImportWorkspaceInputSchema = z
  .object({
    workspace: SlugSchema,
    archive_base64: z
      .string()
      .max(Math.ceil(ARCHIVE_TOOL_MAX_BYTES / 3) * 4, "is larger than 2 MB; import larger archives from the workspace's Settings in the app")
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, "is not base64")
      .describe("The zip, base64-encoded (standard alphabet)"),
  })
  .strict();

export const ImportedWorkspaceViewSchema = z.object({
  pages: z.array(z.object({ file: z.string(), slug: z.string() })),
  tables: z.array(z.object({ file: z.string(), slug: z.string(), rows: z.number() })),
  files: z.array(z.object({ file: z.string(), sha256: z.string() })),
  comments: z.number(),
  versions: z.number(),
  skipped: z.array(z.string()),
});
