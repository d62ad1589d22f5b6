// Webhook endpoints of a workspace, for its owners (docs/events.md#webhooks). Thin: every rule is in
// shared/src/domain/webhooks.
import {
  addWebhook,
  listDeliveries,
  listWebhooks,
  removeWebhook,
  resendDelivery,
  rotateWebhookSecret,
  updateWebhook,
} from "@atelier/shared/domain/webhooks/endpoints";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { OkSchema } from "@atelier/shared/schemas/workspaces";
import {
  AddWebhookInputSchema,
  DeliveryIdSchema,
  DeliveryViewSchema,
  UpdateWebhookInputSchema,
  WebhookRefSchema,
  WebhookViewSchema,
  WebhookWithSecretViewSchema,
} from "@atelier/shared/schemas/webhooks";
import { z } from "zod";
import { protectedProcedure, router } from "../../trpc";

export const webhooksRouter = router({
  list: protectedProcedure
    .input(z.object({ slug: SlugSchema }))
    .output(z.array(WebhookViewSchema))
    .query(({ ctx, input }) => listWebhooks(ctx, ctx.principal, input.slug)),

  /** The signing secret is in this answer only; it is never shown again. */
  add: protectedProcedure
    .input(AddWebhookInputSchema)
    .output(WebhookWithSecretViewSchema)
    .mutation(({ ctx, input }) => addWebhook(ctx, ctx.principal, input)),

  update: protectedProcedure
    .input(UpdateWebhookInputSchema)
    .output(WebhookViewSchema)
    .mutation(({ ctx, input }) => updateWebhook(ctx, ctx.principal, input)),

  /** A new secret, shown once; the previous one keeps signing too for a day. */
  rotate: protectedProcedure
    .input(WebhookRefSchema)
    .output(WebhookWithSecretViewSchema)
    .mutation(({ ctx, input }) => rotateWebhookSecret(ctx, ctx.principal, input)),

  remove: protectedProcedure
    .input(WebhookRefSchema)
    .output(OkSchema)
    .mutation(async ({ ctx, input }) => {
      await removeWebhook(ctx, ctx.principal, input);
      return { ok: true as const };
    }),

  deliveries: protectedProcedure
    .input(WebhookRefSchema)
    .output(z.array(DeliveryViewSchema))
    .query(({ ctx, input }) => listDeliveries(ctx, ctx.principal, input)),

  /** Sends a delivery again, with the same webhook-id. */
  resend: protectedProcedure
    .input(z.object({ workspace: SlugSchema, delivery_id: DeliveryIdSchema }).strict())
    .output(DeliveryViewSchema)
    .mutation(({ ctx, input }) => resendDelivery(ctx, ctx.principal, input)),
});
