import { addWebhook as addWebhookInDomain } from "@atelier/shared/domain/webhooks/endpoints";
import { AddWebhookInputSchema, WebhookViewSchema } from "@atelier/shared/schemas/webhooks";
import { z } from "zod";
import { defineTool } from "./define";

export const addWebhook = defineTool({
  name: "add_webhook",
  input: AddWebhookInputSchema,
  output: z.object({ webhook: WebhookViewSchema, secret: z.string().describe("The signing secret (whsec_…), shown this once.") }),
  // Destructive: every later change's ids leave for the endpoint named; open world: it is outside Atelier.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async run(ctx, input) {
    return addWebhookInDomain(ctx, ctx.principal, input);
  },
});
