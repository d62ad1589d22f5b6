import { searchPages as searchPagesInDomain } from "@atelier/shared/domain/pages/search-pages";
import { SearchPagesInputSchema } from "@atelier/shared/schemas/search";
import { z } from "zod";
import { defineTool, READ } from "./define";
import { PageSummaryViewSchema } from "./views";

export const searchPages = defineTool({
  name: "search_pages",
  input: SearchPagesInputSchema,
  output: z.object({ pages: z.array(PageSummaryViewSchema) }),
  annotations: READ,
  run(ctx, input) {
    return searchPagesInDomain(ctx, ctx.principal, input);
  },
});
