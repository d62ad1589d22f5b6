import { createShareLink as createShareLinkInDomain } from "@atelier/shared/domain/share-links";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { z } from "zod";
import { defineTool } from "./define";

export const createShareLink = defineTool({
  name: "create_share_link",
  input: z.object({ workspace: SlugSchema, page: SlugSchema.optional() }).strict(),
  output: z.object({ url: z.string(), link_id: z.string(), page: z.string().nullable() }),
  // Destructive: anyone holding the link can read what it points to.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    const link = await createShareLinkInDomain(ctx, ctx.principal, input);
    return { url: link.url, link_id: link.link_id, page: link.page_slug };
  },
});
