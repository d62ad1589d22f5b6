import {
  createPage,
  deletePage,
  getReadablePage,
  listPages,
  pageHistory,
  revisionView,
  updatePage,
  viewOf,
} from "@atelier/shared/domain/pages";
import { getReadableWorkspace } from "@atelier/shared/domain/workspaces";
import { SlugSchema } from "@atelier/shared/schemas/common";
import {
  CreatePageInputSchema,
  PageSummaryViewSchema,
  PageViewSchema,
  RevisionViewSchema,
  UpdatePageInputSchema,
} from "@atelier/shared/schemas/pages";
import { z } from "zod";
import { protectedProcedure, publicProcedure, router } from "../../trpc";

export const pagesRouter = router({
  list: publicProcedure
    .input(z.object({ workspace: SlugSchema, collection: SlugSchema.optional(), cursor: z.string().max(400).optional(), limit: z.number().int().min(1).max(200).optional() }))
    .output(z.object({ pages: z.array(PageSummaryViewSchema), next_cursor: z.string().nullable() }))
    .query(async ({ ctx, input }) => {
      const workspace = await getReadableWorkspace(ctx.database, ctx.principal, input.workspace);
      const { pages, nextCursor } = await listPages(ctx.database, ctx.principal, { ...input, workspace });
      const views = await Promise.all(pages.map((p) => viewOf(ctx, p, workspace)));
      return { pages: views.map(({ parts: _parts, ...rest }) => rest), next_cursor: nextCursor };
    }),

  get: publicProcedure
    .input(z.object({ slug: SlugSchema }))
    .output(PageViewSchema)
    .query(async ({ ctx, input }) => {
      const { page, workspace } = await getReadablePage(ctx.database, ctx.principal, { slug: input.slug });
      return viewOf(ctx, page, workspace);
    }),

  create: protectedProcedure
    .input(CreatePageInputSchema)
    .output(PageViewSchema)
    .mutation(async ({ ctx, input }) => {
      const { page, workspace } = await createPage(ctx, ctx.principal, input);
      return viewOf(ctx, page, workspace);
    }),

  update: protectedProcedure
    .input(UpdatePageInputSchema)
    .output(PageViewSchema)
    .mutation(async ({ ctx, input }) => {
      const page = await updatePage(ctx, ctx.principal, input);
      const { workspace } = await getReadablePage(ctx.database, ctx.principal, { pageId: page._id });
      return viewOf(ctx, page, workspace);
    }),

  delete: protectedProcedure
    .input(z.object({ slug: SlugSchema }))
    .output(z.object({ page_id: z.string(), slug: z.string() }))
    .mutation(({ ctx, input }) => deletePage(ctx, ctx.principal, input.slug)),

  history: publicProcedure
    .input(z.object({ slug: SlugSchema }))
    .output(z.array(RevisionViewSchema))
    .query(async ({ ctx, input }) => (await pageHistory(ctx.database, ctx.principal, input.slug)).map(revisionView)),
});
