import { createPage as createPageInDomain } from "@atelier/shared/domain/pages/create-page";
import { CreatePageInputSchema } from "@atelier/shared/schemas/pages";
import { z } from "zod";
import { defineTool } from "./define";
import { PageViewSchema } from "./views";

export const createPage = defineTool({
  name: "create_page",
  input: CreatePageInputSchema,
  output: z.object({ page: PageViewSchema }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    return { page: (await createPageInDomain(ctx, ctx.principal, input)).page };
  },
});
