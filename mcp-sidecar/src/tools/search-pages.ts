import { searchPages as searchPagesInDomain } from "@atelier/shared/domain/pages/search-pages";
import { SearchPagesInputSchema, SearchPagesViewSchema } from "@atelier/shared/schemas/search";
import { defineTool, READ } from "./define";

export const searchPages = defineTool({
  name: "search_pages",
  input: SearchPagesInputSchema,
  output: SearchPagesViewSchema,
  annotations: READ,
  run(ctx, input) {
    return searchPagesInDomain(ctx, ctx.principal, input);
  },
});
