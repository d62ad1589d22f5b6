import { searchEverything } from "@atelier/shared/domain/search";
import { SearchInputSchema, SearchResultsViewSchema } from "@atelier/shared/schemas/search";
import { protectedProcedure, router } from "../../trpc";

export const searchRouter = router({
  /** The ⌘K palette: workspaces, pages and tables the person can read, by title or slug. */
  everything: protectedProcedure
    .input(SearchInputSchema)
    .output(SearchResultsViewSchema)
    .query(({ ctx, input }) => searchEverything(ctx, ctx.principal, input)),
});
