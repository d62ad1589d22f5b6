import { deletePage as deletePageInDomain } from "@atelier/shared/domain/pages/delete-page";
import { PageRefInputSchema } from "@atelier/shared/schemas/pages";
import { z } from "zod";
import { defineTool } from "./define";

export const deletePage = defineTool({
  name: "delete_page",
  input: PageRefInputSchema.strict(),
  output: z.object({ deleted: z.object({ page_id: z.string(), slug: z.string() }) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    return { deleted: await deletePageInDomain(ctx, ctx.principal, input.slug) };
  },
});
