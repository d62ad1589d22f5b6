import { createShareLink as createShareLinkInDomain } from "@atelier/shared/domain/share-links";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { ShareLinkExpirySchema } from "@atelier/shared/schemas/workspaces";
import { z } from "zod";
import { defineTool } from "./define";

export const createShareLink = defineTool({
  name: "create_share_link",
  input: z
    .object({
      workspace: SlugSchema,
      page: SlugSchema.optional(),
      expires_in_days: ShareLinkExpirySchema.optional().describe(
        "Days until the link stops working; null for no end date; omitted: the server's default (30 days).",
      ),
    })
    .strict(),
  output: z.object({ url: z.string(), link_id: z.string(), page: z.string().nullable(), expires_at: z.string().nullable() }),
  // Destructive: anyone holding the link can read what it points to.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    const link = await createShareLinkInDomain(ctx, ctx.principal, { workspace: input.workspace, page: input.page, expiresInDays: input.expires_in_days });
    return { url: link.url, link_id: link.link_id, page: link.page_slug, expires_at: link.expires_at };
  },
});
