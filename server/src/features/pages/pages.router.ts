import { createPage } from "@atelier/shared/domain/pages/create-page";
import { deletePage } from "@atelier/shared/domain/pages/delete-page";
import { getPage } from "@atelier/shared/domain/pages/get-page";
import { getRevision } from "@atelier/shared/domain/pages/get-revision";
import { listPages } from "@atelier/shared/domain/pages/list-pages";
import { movePage } from "@atelier/shared/domain/pages/move-page";
import { pageHistory } from "@atelier/shared/domain/pages/page-history";
import { restoreRevision } from "@atelier/shared/domain/pages/restore-revision";
import { updatePage } from "@atelier/shared/domain/pages/update-page";
import { editPage } from "@atelier/shared/domain/pages/edit-page";
import { diffPageVersions } from "@atelier/shared/domain/pages/diff-page-versions";
import {
  CreatePageInputSchema,
  DeletedPageViewSchema,
  ListPagesInputSchema,
  MovePageInputSchema,
  PageListViewSchema,
  PageRefInputSchema,
  PageViewSchema,
  RevisionViewSchema,
  RevisionRefInputSchema,
  RevisionWithPartsViewSchema,
  RestoreRevisionInputSchema,
  UpdatePageInputSchema,
  EditPageInputSchema,
  EditedPageViewSchema,
  DiffPageVersionsInputSchema,
  PageDiffViewSchema,
} from "@atelier/shared/schemas/pages";
import { z } from "zod";
import { protectedProcedure, publicProcedure, router } from "../../trpc";

export const pagesRouter = router({
  list: publicProcedure
    .input(ListPagesInputSchema)
    .output(PageListViewSchema)
    .query(({ ctx, input }) => listPages(ctx, ctx.principal, input)),

  get: publicProcedure
    .input(PageRefInputSchema)
    .output(PageViewSchema)
    .query(({ ctx, input }) => getPage(ctx, ctx.principal, { slug: input.slug })),

  create: protectedProcedure
    .input(CreatePageInputSchema)
    .output(PageViewSchema)
    .mutation(async ({ ctx, input }) => (await createPage(ctx, ctx.principal, input)).page),

  update: protectedProcedure
    .input(UpdatePageInputSchema)
    .output(PageViewSchema)
    .mutation(({ ctx, input }) => updatePage(ctx, ctx.principal, input)),

  delete: protectedProcedure
    .input(PageRefInputSchema)
    .output(DeletedPageViewSchema)
    .mutation(({ ctx, input }) => deletePage(ctx, ctx.principal, input.slug)),

  /** A new address; the old one redirects to it for a while (SLUG_REDIRECT_DAYS). */
  move: protectedProcedure
    .input(MovePageInputSchema)
    .output(PageViewSchema)
    .mutation(({ ctx, input }) => movePage(ctx, ctx.principal, { slug: input.slug, newSlug: input.new_slug })),

  revision: publicProcedure
    .input(RevisionRefInputSchema)
    .output(RevisionWithPartsViewSchema)
    .query(({ ctx, input }) => getRevision(ctx, ctx.principal, input.slug, input.version)),

  restore: protectedProcedure
    .input(RestoreRevisionInputSchema)
    .output(PageViewSchema)
    .mutation(({ ctx, input }) => restoreRevision(ctx, ctx.principal, input)),

  history: publicProcedure
    .input(PageRefInputSchema)
    .output(z.array(RevisionViewSchema))
    .query(({ ctx, input }) => pageHistory(ctx, ctx.principal, input.slug)),

  /** Small edits of the body on the version read (edit_page). */
  edit: protectedProcedure
    .input(EditPageInputSchema)
    .output(EditedPageViewSchema)
    .mutation(({ ctx, input }) => editPage(ctx, ctx.principal, input)),

  /** The unified diff between two versions (diff_page_versions). */
  diff: publicProcedure
    .input(DiffPageVersionsInputSchema)
    .output(PageDiffViewSchema)
    .query(({ ctx, input }) => diffPageVersions(ctx, ctx.principal, input)),
});
