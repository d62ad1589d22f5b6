import {
  createPage,
  deletePage,
  getReadablePage,
  listPages,
  getRevision,
  pageHistory,
  restoreRevision,
  revisionView,
  updatePage,
  viewOf,
} from "@atelier/shared/domain/pages";
import { getReadableWorkspace } from "@atelier/shared/domain/workspaces";
import { SlugSchema } from "@atelier/shared/schemas/common";
import {
  CreatePageInputSchema,
  PageSummaryViewSchema,
  PartViewSchema,
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

  revision: publicProcedure
    .input(z.object({ slug: SlugSchema, version: z.number().int().min(1) }))
    .output(RevisionViewSchema.extend({ parts: z.array(PartViewSchema) }))
    .query(async ({ ctx, input }) => {
      const rev = await getRevision(ctx.database, ctx.principal, input.slug, input.version);
      return { ...revisionView(rev, rev.insider), parts: rev.parts.map((p) => ({ id: p.id, kind: p.kind, body: p.body, position: p.position })) };
    }),

  restore: protectedProcedure
    .input(z.object({ slug: SlugSchema, version: z.number().int().min(1), expected_version: z.number().int().min(1).optional() }))
    .output(PageViewSchema)
    .mutation(async ({ ctx, input }) => {
      const page = await restoreRevision(ctx, ctx.principal, input);
      const { workspace } = await getReadablePage(ctx.database, ctx.principal, { pageId: page._id });
      return viewOf(ctx, page, workspace);
    }),

  history: publicProcedure
    .input(z.object({ slug: SlugSchema }))
    .output(z.array(RevisionViewSchema))
    .query(({ ctx, input }) => pageHistory(ctx.database, ctx.principal, input.slug)),
});
