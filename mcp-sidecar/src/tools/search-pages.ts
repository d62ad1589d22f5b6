import { searchPages as searchPagesInDomain } from "@atelier/shared/domain/pages/search-pages";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { z } from "zod";
import { defineTool, READ } from "./define";
import { PageSummaryViewSchema } from "./views";

export const searchPages = defineTool({
  name: "search_pages",
  input: z.object({ query: z.string().trim().min(1).max(200), workspace: SlugSchema.optional() }).strict(),
  output: z.object({ pages: z.array(PageSummaryViewSchema) }),
  annotations: READ,
  run(ctx, input) {
    return searchPagesInDomain(ctx, ctx.principal, input);
  },
});
