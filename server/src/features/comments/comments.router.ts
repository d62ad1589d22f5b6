// The app's comment routes (docs/comments.md): thin over the domain, like the MCP tools.
import {
  addComment,
  deleteComment,
  editComment,
  listComments,
  openCommentCountsByRow,
  openCommentCountsBySlug,
  openCommentCountsByWorkspace,
  resolveComment,
} from "@atelier/shared/domain/comments/comments";
import { listMentionables } from "@atelier/shared/domain/comments/mentions";
import { SlugSchema } from "@atelier/shared/schemas/common";
import {
  AddCommentInputSchema,
  CommentsViewSchema,
  DeleteCommentInputSchema,
  EditCommentInputSchema,
  ListCommentsInputSchema,
  RowCommentCountsInputSchema,
  MentionablesInputSchema,
  MentionableViewSchema,
  ResolveCommentInputSchema,
  ThreadViewSchema,
} from "@atelier/shared/schemas/comments";
import { z } from "zod";
import { protectedProcedure, router } from "../../trpc";

export const commentsRouter = router({
  list: protectedProcedure
    .input(ListCommentsInputSchema)
    .output(CommentsViewSchema)
    .query(({ ctx, input }) => listComments(ctx, ctx.principal, input)),

  add: protectedProcedure
    .input(AddCommentInputSchema)
    .output(ThreadViewSchema)
    .mutation(({ ctx, input }) => addComment(ctx, ctx.principal, input)),

  resolve: protectedProcedure
    .input(ResolveCommentInputSchema)
    .output(ThreadViewSchema)
    .mutation(({ ctx, input }) => resolveComment(ctx, ctx.principal, input)),

  edit: protectedProcedure
    .input(EditCommentInputSchema)
    .output(ThreadViewSchema)
    .mutation(({ ctx, input }) => editComment(ctx, ctx.principal, input)),

  /** Open threads per page of a workspace (members only; nothing for anyone else). */
  counts: protectedProcedure
    .input(z.object({ workspace: SlugSchema }).strict())
    .output(z.object({ pages: z.record(z.string(), z.number().int()) }))
    .query(({ ctx, input }) => openCommentCountsBySlug(ctx, ctx.principal, input.workspace)),

  /** Open threads per row of a table (members only; nothing for anyone else). */
  rowCounts: protectedProcedure
    .input(RowCommentCountsInputSchema)
    .output(z.object({ rows: z.record(z.string(), z.number().int()) }))
    .query(({ ctx, input }) => openCommentCountsByRow(ctx, ctx.principal, input.workspace, input.table)),

  /** Open threads per workspace the person is a member of, by slug (the dashboard's cards). */
  workspaceCounts: protectedProcedure
    .output(z.object({ workspaces: z.record(z.string(), z.number().int()) }))
    .query(({ ctx }) => openCommentCountsByWorkspace(ctx, ctx.principal)),

  /** Who the composer offers after "@": the workspace's members and agents (insiders only; nobody for anyone else). */
  mentionables: protectedProcedure
    .input(MentionablesInputSchema)
    .output(z.array(MentionableViewSchema))
    .query(({ ctx, input }) => listMentionables(ctx, ctx.principal, input.workspace)),

  delete: protectedProcedure
    .input(DeleteCommentInputSchema)
    .output(z.object({ comment_id: z.string(), deleted: z.literal(true) }))
    .mutation(({ ctx, input }) => deleteComment(ctx, ctx.principal, input)),
});
