// The app's reading figures (docs/ARCHITECTURE.md#reading-figures): thin over the domain, like get_page_stats.
import { pageStats, workspaceStats } from "@atelier/shared/domain/analytics/stats";
import { PageStatsInputSchema, PageStatsViewSchema, WorkspaceStatsInputSchema, WorkspaceStatsViewSchema } from "@atelier/shared/schemas/analytics";
import { protectedProcedure, router } from "../../trpc";

export const analyticsRouter = router({
  page: protectedProcedure
    .input(PageStatsInputSchema)
    .output(PageStatsViewSchema)
    .query(({ ctx, input }) => pageStats(ctx, ctx.principal, input)),

  workspace: protectedProcedure
    .input(WorkspaceStatsInputSchema)
    .output(WorkspaceStatsViewSchema)
    .query(({ ctx, input }) => workspaceStats(ctx, ctx.principal, input)),
});
