import { z } from "zod";
import { SlugSchema } from "./common";

/** The largest archive that goes through a tool call: base64 makes it a third larger, in a JSON-RPC body capped at 4 MB. */
export const ARCHIVE_TOOL_MAX_BYTES = 2 * 1024 * 1024;

export const ExportWorkspaceInputSchema = z.object({ workspace: SlugSchema }).strict();
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
  skipped: z.array(z.string()),
});
