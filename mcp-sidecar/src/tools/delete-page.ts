import { deletePage as deletePageInDomain } from "@atelier/shared/domain/pages/delete-page";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { z } from "zod";
import { defineTool } from "./define";

export const deletePage = defineTool({
  name: "delete_page",
  input: z.object({ slug: SlugSchema }).strict(),
  output: z.object({ deleted: z.object({ page_id: z.string(), slug: z.string() }) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    return { deleted: await deletePageInDomain(ctx, ctx.principal, input.slug) };
  },
});
