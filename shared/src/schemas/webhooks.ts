// Webhook endpoints as owners manage them (docs/events.md#webhooks). Browser-safe: the app's
// settings screen imports the event types and the schemas.
import { z } from "zod";
import { LabelSchema, SlugSchema } from "./common";

/** Every change type a webhook can subscribe to (docs/events.md#event-types). */
export const WEBHOOK_EVENT_TYPES = [
  "page.created",
  "page.updated",
  "page.restored",
  "page.moved",
  "page.deleted",
  "rows.inserted",
  "row.updated",
  "row.deleted",
  "collection.created",
  "collection.deleted",
  "collection.renamed",
  "column.added",
  "column.renamed",
  "column.removed",
  "column.changed",
  "workspace.created",
  "workspace.renamed",
  "workspace.public",
  "workspace.private",
  "member.added",
  "member.role_changed",
  "member.removed",
  "member.invitation_withdrawn",
  "share_link.created",
  "share_link.revoked",
  "agent.blocked",
  "agent.unblocked",
  "webhook.created",
  "webhook.removed",
  "webhook.disabled",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_MAX_PER_WORKSPACE = 10;

export const WebhookIdSchema = z.string().regex(/^whk_[A-Za-z0-9_-]{10,40}$/, "is not a webhook id");

/** An endpoint's address: http(s), no user info or fragment; where it may point is checked by the domain. */
export const WebhookUrlSchema = z
  .string()
  .trim()
  .max(2000, "must be at most 2000 characters")
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "https:" || u.protocol === "http:") && !u.username && !u.password && !v.includes("#");
    } catch {
      return false;
    }
  }, "must be an http(s) URL without user name, password or fragment");

export const WebhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: "is not an event type" }))
  .max(WEBHOOK_EVENT_TYPES.length)
  .describe("The event types to receive; empty or omitted: every type.");

export const AddWebhookInputSchema = z
  .object({
    workspace: SlugSchema,
    url: WebhookUrlSchema.describe("Where deliveries are POSTed (https; never a private or loopback address)."),
    events: WebhookEventsSchema.optional(),
    description: z.union([LabelSchema(200), z.literal("")]).optional(),
  })
  .strict();
export type AddWebhookInput = z.infer<typeof AddWebhookInputSchema>;

export const WebhookRefSchema = z.object({ workspace: SlugSchema, webhook_id: WebhookIdSchema }).strict();

export const WebhookViewSchema = z.object({
  webhook_id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string(),
  status: z.enum(["active", "disabled"]),
  disabled_reason: z.enum(["failing"]).nullable(),
  /** Since when every attempt has failed (null: the last one succeeded or none was made). */
  failing_since: z.string().nullable(),
  /** Whether a rotated-out secret still signs too (until then). */
  previous_secret_until: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookView = z.infer<typeof WebhookViewSchema>;

/** An endpoint with its signing secret: in this answer only, never shown again. */
export const WebhookWithSecretViewSchema = z.object({ webhook: WebhookViewSchema, secret: z.string() });

export const DeliveryViewSchema = z.object({
  delivery_id: z.string(),
  message_id: z.string(),
  seq: z.number().int(),
  type: z.string(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  /** The last attempt's HTTP status (null: no answer, see `last_error`). */
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  log: z.array(z.object({ at: z.string(), status: z.number().int().nullable(), error: z.string().nullable() })),
  created_at: z.string(),
});
export type DeliveryView = z.infer<typeof DeliveryViewSchema>;

export const DeliveryIdSchema = z.string().regex(/^whk_[A-Za-z0-9_-]{10,40}:\d{1,15}$/, "is not a delivery id");

export const UpdateWebhookInputSchema = z
  .object({
    workspace: SlugSchema,
    webhook_id: WebhookIdSchema,
    events: WebhookEventsSchema.optional(),
    /** true: back on after it was disabled (deliveries start from the newest change). */
    enabled: z.boolean().optional(),
  })
  .strict();
