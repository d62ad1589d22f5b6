import { listWebhooks as listWebhooksInDomain } from "@atelier/shared/domain/webhooks/endpoints";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { WebhookViewSchema } from "@atelier/shared/schemas/webhooks";
import { z } from "zod";
import { defineTool, READ } from "./define";

export const listWebhooks = defineTool({
  name: "list_webhooks",
  input: z.object({ workspace: SlugSchema }).strict(),
  output: z.object({ webhooks: z.array(WebhookViewSchema) }),
  annotations: READ,
  async run(ctx, input) {
    return { webhooks: await listWebhooksInDomain(ctx, ctx.principal, input.workspace) };
  },
});
