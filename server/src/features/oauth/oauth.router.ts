// The consent screen's procedures: who asks (oauth.signInContext, for the sign-in step of a
// person not signed in yet), what an authorization request asks (oauth.interaction) and the
// person's answer (oauth.decide), which returns where the browser goes next: back into the
// authorization server, which then redirects to the client with a code or access_denied.
import { mcpResource } from "@atelier/shared/domain/oauth-access";
import {
  discardOAuthGrant,
  grantOAuthAccess,
  oauthClientView,
  oauthConsentView,
  redirectDestination,
  requestedScopes,
  unknownScopes,
  type OAuthClientInfo,
} from "@atelier/shared/domain/oauth-grants";
import { AppError } from "@atelier/shared/errors";
import {
  OAuthConsentViewSchema,
  OAuthDecideInputSchema,
  OAuthDecisionSchema,
  OAuthInteractionInputSchema,
  OAuthSignInContextSchema,
} from "@atelier/shared/schemas/oauth";
import type { Context } from "../../context";
import { protectedProcedure, publicProcedure, router } from "../../trpc";

const gone = () =>
  new AppError(
    "not_found",
    "This sign-in request has expired, was already answered, or was started in another browser. Go back to your app and connect again.",
  );

/** The pending authorization request behind `uid`, if this browser started it and nobody answered it yet. */
async function pendingInteraction(ctx: Context, uid: string) {
  const provider = ctx.oauth;
  if (!provider) throw new AppError("unavailable", "The authorization server is not running in this process.");
  if (ctx.oauthRequest !== uid) throw gone();
  const interaction = await provider.Interaction.find(uid);
  if (!interaction || interaction.result) throw gone();
  const clientId = String(interaction.params.client_id ?? "");
  const client = await provider.Client.find(clientId).catch(() => undefined);
  if (!client) throw gone();
  const meta = client.metadata() as Record<string, unknown>;
  const via = meta.atelier_via === "metadata_document" ? "metadata_document" : "registration";
  const info: OAuthClientInfo = {
    clientId,
    name: typeof meta.client_name === "string" ? meta.client_name : null,
    homePage: typeof meta.client_uri === "string" ? meta.client_uri : null,
    logoUri: typeof meta.logo_uri === "string" ? meta.logo_uri : null,
    via,
    redirectUri: String(interaction.params.redirect_uri ?? ""),
    registeredAt: via === "registration" && typeof meta.client_id_issued_at === "number" ? new Date(meta.client_id_issued_at * 1000) : null,
  };
  const resource = typeof interaction.params.resource === "string" ? interaction.params.resource : mcpResource(ctx.config.BASE_URL);
  return { provider, interaction, client: info, resource };
}

export const oauthRouter = router({
  // Bound to the browser that started the request (its cookie), so it names the client to no one else.
  signInContext: publicProcedure
    .input(OAuthInteractionInputSchema)
    .output(OAuthSignInContextSchema)
    .query(async ({ ctx, input }) => {
      const { client } = await pendingInteraction(ctx, input.uid);
      const { name, identity, document_host, logo_uri } = oauthClientView(client);
      return { client: { name, identity, document_host, logo_uri } };
    }),

  interaction: protectedProcedure
    .input(OAuthInteractionInputSchema)
    .output(OAuthConsentViewSchema)
    .query(async ({ ctx, input }) => {
      const { interaction, client, resource } = await pendingInteraction(ctx, input.uid);
      return oauthConsentView(ctx, ctx.principal.user, { uid: input.uid, client, scope: interaction.params.scope, resource });
    }),

  decide: protectedProcedure
    .input(OAuthDecideInputSchema)
    .output(OAuthDecisionSchema)
    .mutation(async ({ ctx, input }) => {
      const { provider, interaction, client, resource } = await pendingInteraction(ctx, input.uid);
      const user = ctx.principal.user;
      const remaining = Math.max(1, (interaction.exp ?? 0) - Math.floor(Date.now() / 1000));
      const unknown = unknownScopes(interaction.params.scope);
      let automatic = true;
      if (!input.allow) {
        interaction.result = { error: "access_denied", error_description: "The person declined to connect this app." };
        // Declined: only a program on this computer, which is waiting for the answer, is sent it at once.
        automatic = redirectDestination(client.redirectUri).kind === "this_computer";
      } else if (unknown.length > 0) {
        // The authorization endpoint refuses these already; nothing is granted for a request the person could answer only in part.
        interaction.result = { error: "invalid_scope", error_description: `Not offered here: ${unknown.join(" ").slice(0, 200)}.` };
      } else {
        const scopes = requestedScopes(interaction.params.scope);
        const token = await grantOAuthAccess(ctx, user, client, scopes, input);
        try {
          // The grant takes the token document's id, so an access token leads straight to it.
          const grant = new provider.Grant({
            jti: token._id,
            accountId: user._id,
            clientId: client.clientId,
            expiresIn: input.duration_days * 86_400,
          } as never);
          grant.addResourceScope(resource, scopes.join(" "));
          const grantId = await grant.save();
          interaction.result = { login: { accountId: user._id, remember: false }, consent: { grantId } };
          await interaction.save(remaining);
        } catch (err) {
          await discardOAuthGrant(ctx, token._id);
          throw err;
        }
        return { redirect_to: interaction.returnTo, automatic };
      }
      await interaction.save(remaining);
      return { redirect_to: interaction.returnTo, automatic };
    }),
});
