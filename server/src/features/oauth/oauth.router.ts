// The consent screen's procedures: what an authorization request asks (oauth.interaction) and
// the person's answer (oauth.decide), which returns where the browser goes next: back into
// the authorization server, which then redirects to the client with a code or access_denied.
import { mcpResource } from "@atelier/shared/domain/oauth-access";
import { grantOAuthAccess, oauthConsentView, requestedScopes, type OAuthClientInfo } from "@atelier/shared/domain/oauth-grants";
import { AppError } from "@atelier/shared/errors";
import { OAuthConsentViewSchema, OAuthDecideInputSchema, OAuthDecisionSchema, OAuthInteractionInputSchema } from "@atelier/shared/schemas/oauth";
import type { Context } from "../../context";
import { protectedProcedure, router } from "../../trpc";

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
  const info: OAuthClientInfo = {
    clientId,
    name: typeof meta.client_name === "string" ? meta.client_name : null,
    homePage: typeof meta.client_uri === "string" ? meta.client_uri : null,
    logoUri: typeof meta.logo_uri === "string" ? meta.logo_uri : null,
    via: meta.atelier_via === "metadata_document" ? "metadata_document" : "registration",
    redirectUri: String(interaction.params.redirect_uri ?? ""),
  };
  const resource = typeof interaction.params.resource === "string" ? interaction.params.resource : mcpResource(ctx.config.BASE_URL);
  return { provider, interaction, client: info, resource };
}

export const oauthRouter = router({
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
      if (!input.allow) {
        interaction.result = { error: "access_denied", error_description: "The person declined to connect this app." };
      } else {
        const scopes = requestedScopes(interaction.params.scope);
        const token = await grantOAuthAccess(ctx, user, client, scopes, input);
        // The grant takes the token document's id, so an access token leads straight to it.
        const grant = new provider.Grant({ jti: token._id, accountId: user._id, clientId: client.clientId, expiresIn: input.duration_days * 86_400 } as never);
        grant.addResourceScope(resource, scopes.join(" "));
        const grantId = await grant.save();
        interaction.result = { login: { accountId: user._id, remember: false }, consent: { grantId } };
      }
      await interaction.save(remaining);
      return { redirect_to: interaction.returnTo };
    }),
});
