// Inputs of the file tools and routes (docs/security.md#files).
import { z } from "zod";
import { ActorViewSchema, CursorSchema, limitSchema, type ListLimit, SlugSchema } from "./common";

/** base64 of at most 5 MB (PUSH_IMAGE_MAX_BYTES): 4/3 of it, rounded up to whole groups. */
const MAX_BASE64_CHARS = Math.ceil((5 * 1024 * 1024) / 3) * 4;

const AltSchema = z
  .string()
  .trim()
  .min(1, "must not be empty: say what the image shows")
  .max(500, "must be at most 500 characters")
  .refine((s) => !s.includes("\u0000"), "must not contain NUL");
const NameSchema = z
  .string()
  .trim()
  .max(200, "must be at most 200 characters")
  .refine((s) => ![...s].some((c) => c.charCodeAt(0) < 32 || c === "/" || c === "\\"), "must be a plain file name");

export const PushImageInputSchema = z
  .object({
    workspace: SlugSchema.optional().describe("Workspace slug (default: your default workspace, or the sandbox of a sandbox token)"),
    data: z
      .string()
      .max(MAX_BASE64_CHARS, "must be at most 5 MB of image (base64); use create_upload_url for larger files")
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, "must be base64 (standard alphabet, no data: prefix, no line breaks)")
      .min(1, "must not be empty")
      .describe("The image's bytes in base64 (PNG, JPEG, GIF, WebP or AVIF), at most 5 MB"),
    alt: AltSchema.describe("What the image shows, for those who cannot see it (required)"),
    name: NameSchema.optional().describe("A file name to remember it by (optional)"),
  })
  .strict();
export type PushImageInput = z.infer<typeof PushImageInputSchema>;

export const CreateUploadUrlInputSchema = z
  .object({
    workspace: SlugSchema.optional().describe("Workspace slug (default: your default workspace)"),
    name: NameSchema.optional().describe("A file name to remember it by (optional)"),
  })
  .strict();

export const FinishUploadInputSchema = z
  .object({
    upload_id: z.string().min(1).max(100).describe("The upload_id create_upload_url answered"),
    alt: AltSchema.optional().describe("For an image: what it shows (required for images)"),
  })
  .strict();

export const Sha256Schema = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, "must be a SHA-256 in hex (64 characters)")
  .transform((s) => s.toLowerCase());

/** Files one list call returns. */
export const FILE_LIST_LIMIT: ListLimit = { min: 1, max: 200, default: 50 };

export const ListFilesInputSchema = z
  .object({
    workspace: SlugSchema.describe("Workspace slug"),
    cursor: CursorSchema.optional(),
    limit: limitSchema(FILE_LIST_LIMIT).optional(),
  })
  .strict();
export const DeleteFileInputSchema = z
  .object({ workspace: SlugSchema.describe("Workspace slug"), sha256: Sha256Schema.describe("The file's sha256") })
  .strict();

export const FileViewSchema = z.object({
  id: z.string(),
  sha256: z.string(),
  url: z.string(),
  type: z.string(),
  size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  name: z.string(),
  created_at: z.string(),
  added_by: ActorViewSchema,
});

/** What list_files (and the files panel) answer: newest first, with the pages that use each; `next_cursor` for more. */
export const FileListViewSchema = z.object({
  workspace: z.string(),
  files: z.array(FileViewSchema.extend({ used_in: z.array(z.string()).describe("Slugs of the pages whose text names the file's URL") })),
  next_cursor: z.string().nullable(),
});
