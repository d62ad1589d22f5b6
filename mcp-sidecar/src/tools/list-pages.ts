import { listPages as listPagesInDomain } from "@atelier/shared/domain/pages/list-pages";
import { ListPagesInputSchema, PageListViewSchema } from "@atelier/shared/schemas/pages";
import { defineTool, READ } from "./define";

export const listPages = defineTool({
  name: "list_pages",
  input: ListPagesInputSchema.strict(),
  output: PageListViewSchema,
  annotations: READ,
  run(ctx, input) {
    return listPagesInDomain(ctx, ctx.principal, input);
  },
});
