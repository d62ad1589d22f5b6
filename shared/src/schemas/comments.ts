// Comments and review threads (docs/comments.md): on a passage of a page (its exact quote),
// a whole page, or a table row; replies; resolve and reopen. People and agents alike.
import { z } from "zod";
import { ActorViewSchema, SlugSchema } from "./common";

/** At most this many characters in a comment's text. */
export const COMMENT_MAX_CHARS = 10_000;
/** At most this many characters in a quote a comment is anchored on. */
export const QUOTE_MAX_CHARS = 2_000;

const noNul = (s: string) => !s.includes("\u0000");
const CommentIdSchema = z.string().regex(/^cmt_[A-Za-z0-9_-]{10,40}$/, "must be a comment id (cmt_…)");

export const CommentBodySchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(COMMENT_MAX_CHARS, `must be at most ${COMMENT_MAX_CHARS} characters`)
  .refine(noNul, "must not contain NUL")
  .describe("The comment, in Markdown (sanitised like page Markdown).");

export const AddCommentInputSchema = z
  .object({
    page: SlugSchema.optional().describe("The page to comment on (its slug). With `quote`: on that passage; without: on the whole page."),
    quote: z
      .string()
      .min(1, "must not be empty")
      .max(QUOTE_MAX_CHARS, `must be at most ${QUOTE_MAX_CHARS} characters`)
      .refine(noNul, "must not contain NUL")
      .optional()
      .describe("The exact passage of the page's text the comment is about (as in get_page's body)."),
    prefix: z.string().max(200).optional().describe("Text just before the quote, when the quote appears more than once."),
    suffix: z.string().max(200).optional().describe("Text just after the quote, when the quote appears more than once."),
    version: z.number().int().min(1).optional().describe("The page version the quote was read on (default: the current one)."),
    workspace: SlugSchema.optional().describe("For a comment on a table row: the workspace's slug."),
    table: SlugSchema.optional().describe("For a comment on a table row: the table's slug."),
    row_id: z.string().min(1).max(64).optional().describe("For a comment on a table row: the row's id."),
    reply_to: CommentIdSchema.optional().describe("Reply in the thread of this comment instead of starting one."),
    body: CommentBodySchema,
  })
  .strict()
  .superRefine((v, ctx) => {
    const onRow = v.table !== undefined || v.row_id !== undefined;
    const targets = [v.reply_to !== undefined, v.page !== undefined, onRow].filter(Boolean).length;
    if (targets !== 1) {
      ctx.addIssue({ code: "custom", path: [], message: "give exactly one of page (with an optional quote), workspace + table + row_id, or reply_to" });
    }
    if (onRow && (v.workspace === undefined || v.table === undefined || v.row_id === undefined)) {
      ctx.addIssue({ code: "custom", path: ["row_id"], message: "a comment on a row needs workspace, table and row_id" });
    }
    if (v.quote === undefined && (v.prefix !== undefined || v.suffix !== undefined || v.version !== undefined)) {
      ctx.addIssue({ code: "custom", path: ["quote"], message: "prefix, suffix and version go with a quote" });
    }
    if (v.quote !== undefined && v.page === undefined) ctx.addIssue({ code: "custom", path: ["quote"], message: "a quote is a passage of a page: give page" });
  });
export type AddCommentInput = z.infer<typeof AddCommentInputSchema>;

export const ListCommentsInputSchema = z
  .object({
    page: SlugSchema.optional().describe("The page whose comments to list."),
    workspace: SlugSchema.optional().describe("For a table's comments: the workspace's slug."),
    table: SlugSchema.optional().describe("For a table's comments: the table's slug."),
    row_id: z.string().min(1).max(64).optional().describe("Only this row's comments."),
    include_resolved: z.boolean().optional().describe("Also list resolved threads (default: open ones only)."),
    mentioning: z.literal("me").optional().describe('Only threads where a comment mentions you ("me": the caller, a person or this agent).'),
  })
  .strict()
  .refine((v) => (v.page !== undefined) !== (v.table !== undefined), { message: "give page, or workspace and table", path: ["page"] })
  .refine((v) => v.table === undefined || v.workspace !== undefined, { message: "a table is named with its workspace", path: ["workspace"] });
export type ListCommentsInput = z.infer<typeof ListCommentsInputSchema>;

export const ResolveCommentInputSchema = z
  .object({
    comment_id: CommentIdSchema.describe("A comment of the thread (its first comment or any reply)."),
    reopen: z.boolean().optional().describe("Reopen a resolved thread instead."),
  })
  .strict();
export type ResolveCommentInput = z.infer<typeof ResolveCommentInputSchema>;

export const EditCommentInputSchema = z.object({ comment_id: CommentIdSchema, body: CommentBodySchema }).strict();
export type EditCommentInput = z.infer<typeof EditCommentInputSchema>;

export const DeleteCommentInputSchema = z.object({ comment_id: CommentIdSchema }).strict();
export type DeleteCommentInput = z.infer<typeof DeleteCommentInputSchema>;

export const CommentAnchorViewSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("page") }),
  z.object({
    kind: z.literal("quote"),
    /** The passage as it was quoted, and the version it was quoted on. */
    quote: z.string(),
    version: z.number().int(),
    /** Whether it is still found on the current version (else: "on an earlier version"). */
    attached: z.boolean(),
    /** Where it is now in the page's text (UTF-16 offsets), and its text there (reworded, maybe). */
    start: z.number().int().nullable(),
    end: z.number().int().nullable(),
    current_quote: z.string().nullable(),
  }),
  z.object({ kind: z.literal("row"), table: z.string(), row_id: z.string() }),
]);
export type CommentAnchorView = z.infer<typeof CommentAnchorViewSchema>;

export const CommentViewSchema = z.object({
  comment_id: z.string(),
  author: ActorViewSchema,
  /** Empty once deleted (a deleted comment with replies stays as a marker). */
  body: z.string(),
  body_html: z.string(),
  deleted: z.boolean(),
  created_at: z.string(),
  edited_at: z.string().nullable(),
  /** Whether the reader may edit or delete it (their own). */
  mine: z.boolean(),
  /** Who it mentions with `@handle`: members of the workspace and its agents (docs/comments.md#mentions). */
  mentions: z.array(z.object({ kind: z.enum(["member", "agent"]), handle: z.string(), me: z.boolean() })),
});
export type CommentView = z.infer<typeof CommentViewSchema>;

export const ThreadViewSchema = CommentViewSchema.extend({
  anchor: CommentAnchorViewSchema,
  resolved: z.boolean(),
  resolved_by: ActorViewSchema.nullable(),
  resolved_at: z.string().nullable(),
  replies: z.array(CommentViewSchema),
});
export type ThreadView = z.infer<typeof ThreadViewSchema>;

export const CommentsViewSchema = z.object({
  /** In reading order: whole-page threads, then passages by where they are now, then those on an earlier version. */
  threads: z.array(ThreadViewSchema),
  /** The page's current version, which `start`/`end` refer to (null for a table). */
  version: z.number().int().nullable(),
  open: z.number().int(),
  resolved: z.number().int(),
});
export type CommentsView = z.infer<typeof CommentsViewSchema>;

/** Someone the composer offers after "@" (docs/comments.md#mentions). */
export const MentionableViewSchema = z.object({ kind: z.enum(["member", "agent"]), handle: z.string(), label: z.string() });
export type MentionableView = z.infer<typeof MentionableViewSchema>;

export const MentionablesInputSchema = z.object({ workspace: SlugSchema }).strict();

export const RowCommentCountsInputSchema = z.object({ workspace: SlugSchema, table: SlugSchema }).strict();
