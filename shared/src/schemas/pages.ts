import { z } from "zod";
import { utf8Bytes } from "./cells";
import { ActorViewSchema, CursorSchema, limitSchema, SlugSchema, type ListLimit } from "./common";
import { refineCode } from "./parse";

export const MAX_BODY_BYTES = 1024 * 1024;

const body = (name: string) => z.string().refine((s) => utf8Bytes(s) <= MAX_BODY_BYTES, refineCode("too_large", `${name} must be at most 1 MiB`));
const noNul = (s: string) => !s.includes("\u0000");

export const TitleSchema = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters").refine(noNul, "must not contain NUL");
export const SummarySchema = z.string().trim().max(500, "must be at most 500 characters").refine(noNul, "must not contain NUL");

export const TableViewSpecSchema = z
  .object({
    collection: SlugSchema.describe("Slug of a table in the same workspace"),
    columns: z.array(z.string().max(63)).max(50).optional().describe("Columns to show (default: all)"),
    sort: z.object({ column: z.string().max(63), direction: z.enum(["asc", "desc"]) }).optional(),
    limit: z.number().int().min(1).max(500).optional(),
  })
  .strict();

/** A table shows at most once on a page: a second view of it is refused, naming the repeat. */
const tables = z
  .array(TableViewSpecSchema)
  .max(10)
  .superRefine((specs, ctx) => {
    const seen = new Set<string>();
    specs.forEach((spec, i) => {
      if (seen.has(spec.collection)) {
        ctx.addIssue({
          code: "custom",
          path: [i, "collection"],
          message: `the table "${spec.collection}" is already on this page`,
          params: { code: "duplicate" },
        });
      }
      seen.add(spec.collection);
    });
  })
  .describe("Tables of the workspace shown under the body as HTML tables (table_view parts), each table at most once");

export const CreatePageInputSchema = z
  .object({
    slug: SlugSchema,
    title: TitleSchema,
    summary: SummarySchema.optional(),
    body_markdown: body("body_markdown").optional(),
    body_html: body("body_html").optional(),
    tables: tables.optional(),
    workspace: SlugSchema.optional(),
    collection: SlugSchema.optional(),
  })
  .strict()
  .refine((v) => (v.body_markdown === undefined) !== (v.body_html === undefined), {
    message: "give exactly one of body_markdown or body_html",
    path: ["body_markdown"],
  });
export type CreatePageInput = z.infer<typeof CreatePageInputSchema>;

export const UpdatePageInputSchema = z
  .object({
    slug: SlugSchema,
    title: TitleSchema.optional(),
    summary: SummarySchema.optional(),
    body_markdown: body("body_markdown").optional(),
    body_html: body("body_html").optional(),
    tables: tables.optional(),
    expected_version: z.number().int().min(1).optional(),
  })
  .strict()
  .refine((v) => v.body_markdown === undefined || v.body_html === undefined, {
    message: "give at most one of body_markdown or body_html",
    path: ["body_markdown"],
  });
export type UpdatePageInput = z.infer<typeof UpdatePageInputSchema>;

export const PartViewSchema = z.object({
  id: z.string(),
  kind: z.enum(["markdown", "html", "table_view"]),
  body: z.string(),
  position: z.number(),
});

export const CollectionViewSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  kind: z.enum(["pages", "table"]),
});

export const PageViewSchema = z.object({
  page_id: z.string(),
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  version: z.number(),
  workspace: z.string(),
  collection: z.string(),
  parts: z.array(PartViewSchema),
  created_by: ActorViewSchema,
  updated_by: ActorViewSchema,
  created_at: z.string(),
  updated_at: z.string(),
  artifact_url: z.string(),
});
export type PageView = z.infer<typeof PageViewSchema>;

export const PageSummaryViewSchema = PageViewSchema.omit({ parts: true });
export type PageSummaryView = z.infer<typeof PageSummaryViewSchema>;

export const RevisionViewSchema = z.object({
  version: z.number(),
  title: z.string(),
  summary: z.string(),
  actor: ActorViewSchema,
  created_at: z.string(),
  /** The version this one brought back, when it was a restore. */
  restored_from: z.number().nullable(),
  /** What changed from the version before, in short ("title, text"). */
  changes: z.array(z.enum(["created", "title", "summary", "text", "tables", "restored"])),
  /** Lines of text added and removed from the version before (null when not counted: older versions, very long texts). */
  lines_added: z.number().nullable(),
  lines_removed: z.number().nullable(),
  /** The change in short words: "+3 −1 lines, title changed", "restored from version 2", "created". */
  change_summary: z.string(),
});
export type RevisionView = z.infer<typeof RevisionViewSchema>;

export const RevisionWithPartsViewSchema = RevisionViewSchema.extend({ parts: z.array(PartViewSchema) });

export const PageListViewSchema = z.object({ pages: z.array(PageSummaryViewSchema), next_cursor: z.string().nullable() });
export type PageListView = z.infer<typeof PageListViewSchema>;

export const CreatedPageViewSchema = z.object({ page: PageViewSchema, part: PartViewSchema, collection: CollectionViewSchema });

export const DeletedPageViewSchema = z.object({ page_id: z.string(), slug: z.string() });

// ---- inputs of the page use cases (tRPC takes them as they are, MCP tools .strict()) -------

/** A page's version number. */
export const VersionSchema = z.number().int().min(1);

/** Pages one list call returns. */
export const PAGE_LIST_LIMIT: ListLimit = { min: 1, max: 200, default: 50 };

export const ListPagesInputSchema = z.object({
  workspace: SlugSchema,
  collection: SlugSchema.optional(),
  cursor: CursorSchema.optional(),
  limit: limitSchema(PAGE_LIST_LIMIT).optional(),
});
export type ListPagesInput = z.infer<typeof ListPagesInputSchema>;

export const PageRefInputSchema = z.object({ slug: SlugSchema });

export const MovePageInputSchema = z.object({ slug: SlugSchema, new_slug: SlugSchema });

export const RevisionRefInputSchema = z.object({ slug: SlugSchema, version: VersionSchema });

export const RestoreRevisionInputSchema = RevisionRefInputSchema.extend({ expected_version: VersionSchema.optional() });
