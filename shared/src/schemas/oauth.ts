import { z } from "zod";
import { ScopeSchema } from "./tokens";
import { SlugSchema } from "./common";

/** An interaction id of oidc-provider (its nanoid), as it appears in /oauth/interaction/:uid. */
export const InteractionUidSchema = z.string().regex(/^[A-Za-z0-9_-]{10,64}$/, "is not a sign-in request id");

export const OAUTH_DURATION_DAYS = [1, 7, 30, 90, 365] as const;

export const OAuthInteractionInputSchema = z.object({ uid: InteractionUidSchema }).strict();

export const OAuthDecideInputSchema = z
  .object({
    uid: InteractionUidSchema,
    allow: z.boolean(),
    workspaces: z.union([z.literal("all"), z.array(SlugSchema).min(1, "choose at least one workspace").max(50)]).default("all"),
    duration_days: z
      .number()
      .int()
      .refine((d) => (OAUTH_DURATION_DAYS as readonly number[]).includes(d), `must be one of ${OAUTH_DURATION_DAYS.join(", ")}`)
      .default(90),
  })
  .strict();
export type OAuthDecideInput = z.infer<typeof OAuthDecideInputSchema>;

export const OAuthConsentViewSchema = z.object({
  uid: z.string(),
  client: z.object({
    client_id: z.string(),
    name: z.string(),
    /** Names, logos and home pages are what the client says of itself: never verified here. */
    name_verified: z.literal(false),
    home_page: z.string().nullable(),
    logo_uri: z.string().nullable(),
    /** For a metadata document: the host it was fetched from (that much is certain). */
    document_host: z.string().nullable(),
    via: z.enum(["metadata_document", "registration"]),
    redirect_host: z.string(),
  }),
  scopes: z.array(z.object({ scope: ScopeSchema, description: z.string() })),
  resource: z.string(),
  workspaces: z.array(z.object({ slug: z.string(), name: z.string(), can_write: z.boolean() })),
  durations_days: z.array(z.number()),
  default_duration_days: z.number(),
});
export type OAuthConsentView = z.infer<typeof OAuthConsentViewSchema>;

export const OAuthDecisionSchema = z.object({ redirect_to: z.string() });
