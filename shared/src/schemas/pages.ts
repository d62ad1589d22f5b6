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

// ---- edits and diffs (issue 26: agents send and read little) --------------------------------

const EDIT_TEXT_MAX = 64 * 1024;
const editText = z.string().max(EDIT_TEXT_MAX, `must be at most ${EDIT_TEXT_MAX} characters`);
const heading = z.string().trim().min(1, "must not be empty").max(300, "must be at most 300 characters").describe("The heading's text, with or without its #s");

/** One edit of a page's body: the text is found or the heading located in the body as the previous edits left it. */
export const PageEditSchema = z.discriminatedUnion("op", [
  z
    .object({
      op: z.literal("replace"),
      find: editText.min(1, "must not be empty").describe("Exact text that must occur exactly once in the body"),
      replace: editText.describe("What it becomes (empty to delete it)"),
    })
    .strict(),
  z.object({ op: z.literal("insert_before_heading"), heading, text: editText.min(1, "must not be empty") }).strict(),
  z.object({ op: z.literal("insert_after_heading"), heading, text: editText.min(1, "must not be empty") }).strict(),
  z
    .object({ op: z.literal("append_to_section"), heading, text: editText.min(1, "must not be empty") })
    .strict()
    .describe("Adds the text at the end of the heading's section (before the next heading of the same or a higher level)"),
]);
export type PageEdit = z.infer<typeof PageEditSchema>;

export const EditPageInputSchema = z
  .object({
    slug: SlugSchema,
    expected_version: VersionSchema.describe("The version you read: the edits apply to it or not at all"),
    edits: z.array(PageEditSchema).min(1, "give at least one edit").max(50, "at most 50 edits at once"),
  })
  .strict();
export type EditPageInput = z.infer<typeof EditPageInputSchema>;

export const EditedPageViewSchema = z.object({
  slug: z.string(),
  version: z.number(),
  updated_at: z.string(),
  /** Unified diff of the body from the version edited to the new one (3 lines of context). */
  diff: z.string().nullable(),
  /** True when the diff was too long to return whole (read the page or diff_page_versions instead). */
  diff_truncated: z.boolean(),
});
export type EditedPageView = z.infer<typeof EditedPageViewSchema>;

export const DiffPageVersionsInputSchema = z
  .object({
    slug: SlugSchema,
    from: VersionSchema.describe("The older version"),
    to: VersionSchema.optional().describe("The newer version (default: the current one)"),
  })
  .strict();
export type DiffPageVersionsInput = z.infer<typeof DiffPageVersionsInputSchema>;

export const PageDiffViewSchema = z.object({
  slug: z.string(),
  from: z.number(),
  to: z.number(),
  title_from: z.string(),
  title_to: z.string(),
  /** Unified diff of the page's text (its Markdown and HTML parts); "" when equal; null when too long or too different to compare. */
  diff: z.string().nullable(),
  lines_added: z.number().nullable(),
  lines_removed: z.number().nullable(),
});
export type PageDiffView = z.infer<typeof PageDiffViewSchema>;
