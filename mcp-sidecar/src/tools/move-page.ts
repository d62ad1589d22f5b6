import { movePage as movePageInDomain } from "@atelier/shared/domain/pages/move-page";
import { MovePageInputSchema } from "@atelier/shared/schemas/pages";
import { z } from "zod";
import { defineTool } from "./define";
import { PageViewSchema } from "./views";

export const movePage = defineTool({
  name: "move_page",
  input: MovePageInputSchema.strict(),
  output: z.object({ page: PageViewSchema }),
  // The old address keeps answering with a redirect, so nothing is lost; moving back is allowed.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    return { page: await movePageInDomain(ctx, ctx.principal, { slug: input.slug, newSlug: input.new_slug }) };
  },
});
