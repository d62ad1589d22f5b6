// The app's comment routes (docs/comments.md): thin over the domain, like the MCP tools.
import { addComment, deleteComment, editComment, listComments, openCommentCountsBySlug, resolveComment } from "@atelier/shared/domain/comments/comments";
import { SlugSchema } from "@atelier/shared/schemas/common";
import {
  AddCommentInputSchema,
  CommentsViewSchema,
  DeleteCommentInputSchema,
  EditCommentInputSchema,
  ListCommentsInputSchema,
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

  delete: protectedProcedure
    .input(DeleteCommentInputSchema)
    .output(z.object({ comment_id: z.string(), deleted: z.literal(true) }))
    .mutation(({ ctx, input }) => deleteComment(ctx, ctx.principal, input)),
});
