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

export const OAuthClientViewSchema = z.object({
  client_id: z.string(),
  /** The client's own name, without invisible or reordering characters. Never verified here. */
  name: z.string(),
  name_verified: z.literal(false),
  /**
   * "verified": a client ID metadata document served over https from the URL that is its
   * client_id (its host vouches for it); "self_declared": a dynamic registration, which anyone
   * can make with any name.
   */
  identity: z.enum(["verified", "self_declared"]),
  home_page: z.string().nullable(),
  logo_uri: z.string().nullable(),
  /** For a metadata document: the host it was fetched from (that much is certain). */
  document_host: z.string().nullable(),
  via: z.enum(["metadata_document", "registration"]),
  /** When a dynamic registration was made (ISO 8601); null for a metadata document. */
  registered_at: z.string().nullable(),
  /** Where the browser goes after the answer: a web site's host, a loopback address, or an app's scheme and path. */
  redirect: z.object({ kind: z.enum(["web", "this_computer", "app"]), text: z.string() }),
});

export const OAuthConsentViewSchema = z.object({
  uid: z.string(),
  client: OAuthClientViewSchema,
  scopes: z.array(z.object({ scope: ScopeSchema, description: z.string() })),
  resource: z.string(),
  workspaces: z.array(z.object({ slug: z.string(), name: z.string(), can_write: z.boolean() })),
  durations_days: z.array(z.number()),
  default_duration_days: z.number(),
});
export type OAuthConsentView = z.infer<typeof OAuthConsentViewSchema>;

/**
 * Where the browser goes after the answer (back into the authorization server, which sends it
 * on to the client). `automatic`: go at once. Not automatic: a Deny whose client is not on this
 * computer; the screen says it was declined and offers the way back rather than sending the
 * person to a site they may have just refused to trust (RFC 9700 §4.11.2).
 */
export const OAuthDecisionSchema = z.object({ redirect_to: z.string(), automatic: z.boolean() });

/** What a signed-out person sees on the sign-in step of an authorization request: who asks. */
export const OAuthSignInContextSchema = z.object({ client: OAuthClientViewSchema.pick({ name: true, identity: true, document_host: true, logo_uri: true }) });
