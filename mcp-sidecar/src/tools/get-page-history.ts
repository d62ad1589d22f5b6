import { pageHistory } from "@atelier/shared/domain/pages/page-history";
import { PageRefInputSchema } from "@atelier/shared/schemas/pages";
import { z } from "zod";
import { defineTool, READ } from "./define";
import { RevisionViewSchema } from "./views";

export const getPageHistory = defineTool({
  name: "get_page_history",
  input: PageRefInputSchema.strict(),
  output: z.object({ versions: z.array(RevisionViewSchema) }),
  annotations: READ,
  async run(ctx, input) {
    return { versions: await pageHistory(ctx, ctx.principal, input.slug) };
  },
});
