import { removeWebhook as removeWebhookInDomain } from "@atelier/shared/domain/webhooks/endpoints";
import { WebhookRefSchema } from "@atelier/shared/schemas/webhooks";
import { z } from "zod";
import { defineTool } from "./define";

export const removeWebhook = defineTool({
  name: "remove_webhook",
  input: WebhookRefSchema,
  output: z.object({ removed: z.literal(true) }),
  // Destructive: the endpoint and its delivery log are gone; not idempotent: a second call finds nothing (not_found).
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    await removeWebhookInDomain(ctx, ctx.principal, input);
    return { removed: true as const };
  },
});
