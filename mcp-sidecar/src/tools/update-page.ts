import { updatePage as updatePageInDomain } from "@atelier/shared/domain/pages/update-page";
import { UpdatePageInputSchema } from "@atelier/shared/schemas/pages";
import { z } from "zod";
import { defineTool } from "./define";
import { PageViewSchema } from "./views";

export const updatePage = defineTool({
  name: "update_page",
  input: UpdatePageInputSchema,
  output: z.object({ page: PageViewSchema }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    return { page: await updatePageInDomain(ctx, ctx.principal, input) };
  },
});
