// The OAuth 2.1 authorization server for MCP clients (docs/ARCHITECTURE.md#oauth), built on panva's
// oidc-provider and mounted on this origin under /oauth. Its issuer is BASE_URL; its one
// resource is BASE_URL/mcp; its clients are public (PKCE S256, no secret), identified by a
// client ID metadata document (a URL) or by dynamic registration. Everything it keeps goes
// through the adapter in shared (hashes only, expiry by the sweeper); every key it uses is
// derived from SECRET_KEY, so any number of server processes agree without sharing memory.
import { createECDH, createHmac } from "node:crypto";
import type { Deps } from "@atelier/shared/domain/deps";
import { mcpResource, OAUTH_SCOPES } from "@atelier/shared/domain/oauth-access";
import { ClientDocumentError, clientMetadataProblem, fetchClientDocument, isClientDocumentUrl, redirectUriProblem } from "@atelier/shared/domain/oauth-clients";
import { endOAuthGrant, oauthAccount, oauthGrantIsLive, unknownScopes } from "@atelier/shared/domain/oauth-grants";
import { oauthAdapter, type OAuthPayload } from "@atelier/shared/domain/oauth-store";
import { OAUTH_PATHS } from "@atelier/shared/domain/discovery";
import { newSecret } from "@atelier/shared/ids";
import type { Logger } from "@atelier/shared/logger";
import { refusalPage } from "./oauth-pages";
import Provider, { errors, interactionPolicy, type Configuration, type KoaContextWithOIDC } from "oidc-provider";

export type OAuthProvider = Provider;

type ProviderDeps = Pick<Deps, "config" | "database" | "cache"> & { logger: Logger };

/** How long a client metadata document that could not be used is not fetched again. */
export const CLIENT_DOCUMENT_FAILURE_SECONDS = 30;

const derive = (secret: string, purpose: string) => createHmac("sha256", secret).update(`atelier:${purpose}`).digest();

/** An ES256 signing key derived from SECRET_KEY: the same in every process, nothing in the repository. */
function signingJwk(secret: string) {
  const d = derive(secret, "oauth-signing-key-v1");
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(d);
  const pub = ecdh.getPublicKey(null, "uncompressed");
  return {
    kty: "EC",
    crv: "P-256",
    d: d.toString("base64url"),
    x: pub.subarray(1, 33).toString("base64url"),
    y: pub.subarray(33, 65).toString("base64url"),
    use: "sig",
    alg: "ES256",
    kid: derive(secret, "oauth-signing-kid-v1").subarray(0, 8).toString("hex"),
  };
}

const GRANT_TYPES = new Set(["authorization_code", "refresh_token"]);

/** What of a fetched client metadata document the provider is given: only what this server supports. */
function supportedMetadata(m: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...m, token_endpoint_auth_method: "none" };
  if (Array.isArray(m.grant_types)) out.grant_types = m.grant_types.filter((g) => GRANT_TYPES.has(String(g)));
  if (Array.isArray(m.response_types)) out.response_types = m.response_types.filter((r) => r === "code");
  for (const k of ["jwks", "id_token_signed_response_alg", "userinfo_signed_response_alg"]) delete out[k];
  return out;
}

/**
 * The adapter oidc-provider keeps its models with (shared/src/domain/oauth-store.ts), and
 * what this server adds to it:
 * - a client id that is a URL is resolved from its metadata document (fetched, cached for
 *   every process; a failure is remembered for CLIENT_DOCUMENT_FAILURE_SECONDS, so a bad URL
 *   is fetched once, not once per lookup);
 * - a dynamic registration expires OAUTH_UNUSED_CLIENT_TTL_SECONDS after it was made (an
 *   Allow keeps it as long as its grant, and that period after);
 * - a grant is alive only while its connected agent's token document is active, and a grant
 *   the provider revokes (reuse of a refresh token, a replayed code) ends that token document.
 */
function adapterFor(deps: ProviderDeps) {
  const { config } = deps;
  const Base = oauthAdapter(deps);
  return class AtelierOAuthAdapter extends Base {
    override async upsert(id: string, payload: OAuthPayload, expiresIn?: number): Promise<void> {
      if (this.name === "Client" && !expiresIn) return super.upsert(id, payload, config.OAUTH_UNUSED_CLIENT_TTL_SECONDS);
      return super.upsert(id, payload, expiresIn);
    }

    override async find(id: string): Promise<OAuthPayload | undefined> {
      if (this.name === "Grant") {
        const grant = await super.find(id);
        return grant && (await oauthGrantIsLive(deps, id)) ? grant : undefined;
      }
      if (this.name !== "Client" || !isClientDocumentUrl(config, id)) return super.find(id);
      // A metadata document fetched shortly before (by any process) is reused until it expires.
      const cached = await new Base("ClientDocument").find(id);
      if (cached) return cached;
      const failed = await new Base("ClientDocumentFailure").find(id);
      if (failed)
        throw providerError(new ClientDocumentError(failed.error === "invalid_client" ? "invalid_client" : "invalid_client_metadata", String(failed.message)));
      let fetched: Awaited<ReturnType<typeof fetchClientDocument>>;
      try {
        fetched = await fetchClientDocument(config, id);
      } catch (err) {
        if (err instanceof ClientDocumentError) {
          await new Base("ClientDocumentFailure").upsert(id, { error: err.error, message: err.message }, CLIENT_DOCUMENT_FAILURE_SECONDS);
          throw providerError(err);
        }
        throw err;
      }
      const metadata = { ...supportedMetadata(fetched.metadata), atelier_via: "metadata_document" } as OAuthPayload;
      await new Base("ClientDocument").upsert(id, metadata, fetched.maxAgeSeconds);
      return metadata;
    }

    override async destroy(id: string): Promise<void> {
      await super.destroy(id);
      // Only the provider's revocation destroys a grant (the app's own revocation deletes the records itself).
      if (this.name === "Grant") await endOAuthGrant(deps, id);
    }
  };
}

function providerError(err: ClientDocumentError): Error {
  return err.error === "invalid_client" ? new errors.InvalidClient(err.message) : new errors.InvalidClientMetadata(err.message);
}

export function createOAuthProvider(deps: ProviderDeps): OAuthProvider {
  const { config, logger } = deps;
  const resource = mcpResource(config.BASE_URL);
  const scope = OAUTH_SCOPES.join(" ");

  // Every authorization is confirmed by the person signed in to the app, in this browser, now:
  // a provider session left from earlier (perhaps another person's) never skips the screen.
  const policy = interactionPolicy.base();
  policy
    .get("login")
    ?.checks.add(
      new interactionPolicy.Check("atelier_confirm", "the signed-in person confirms this authorization", (ctx) =>
        ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );

  const configuration: Configuration = {
    adapter: adapterFor(deps),
    clients: [],
    jwks: { keys: [signingJwk(config.SECRET_KEY)] },
    cookies: {
      keys: [derive(config.SECRET_KEY, "oauth-cookie-key-v1").toString("base64url")],
      names: { session: "atelier_oauth_session", interaction: "atelier_oauth_interaction", resume: "atelier_oauth_resume" },
      long: { httpOnly: true, sameSite: "lax", signed: true },
      short: { httpOnly: true, sameSite: "lax", signed: true },
    },
    routes: {
      authorization: OAUTH_PATHS.authorization,
      token: OAUTH_PATHS.token,
      registration: OAUTH_PATHS.registration,
      revocation: OAUTH_PATHS.revocation,
      jwks: OAUTH_PATHS.jwks,
      end_session: "/oauth/session/end",
      userinfo: "/oauth/userinfo",
      introspection: "/oauth/introspect",
      code_verification: "/oauth/device",
      device_authorization: "/oauth/device/auth",
      backchannel_authentication: "/oauth/backchannel",
      pushed_authorization_request: "/oauth/par",
    },
    interactions: {
      policy,
      url: (_ctx, interaction) => `/oauth/interaction/${interaction.uid}`,
    },
    features: {
      devInteractions: { enabled: false },
      registration: {
        enabled: true,
        issueRegistrationAccessToken: false,
        idFactory: () => `dcr_${newSecret(18)}`,
      },
      // Not in the discovery document, so not offered: authorization requests come by the front channel only.
      pushedAuthorizationRequests: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: false },
      introspection: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`The only resource here is ${resource}.`);
          return { scope, audience: resource, accessTokenFormat: "opaque", accessTokenTTL: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS };
        },
      },
    },
    responseTypes: ["code"],
    clientAuthMethods: ["none"],
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: "ES256",
    },
    enabledJWA: { idTokenSigningAlgValues: ["ES256"] },
    allowOmittingSingleRegisteredRedirectUri: false,
    // Checked on every authorization request, present or not: what discovery does not offer is refused
    // (and, with every other error at /oauth/authorize, shown on our own page: see the error handling below).
    extraParams: {
      scope: (_ctx, value) => {
        const unknown = unknownScopes(value);
        if (unknown.length > 0) {
          throw new errors.InvalidScope(`This server offers only the scopes ${scope}; not ${unknown.join(" ").slice(0, 200)}.`, unknown.join(" "));
        }
      },
      response_mode: (_ctx, value) => {
        if (value !== undefined && value !== "query") {
          throw new errors.UnsupportedResponseMode(`Only response_mode=query is supported here.`);
        }
      },
    },
    extraClientMetadata: {
      properties: ["software_id", "software_version", "atelier_via"],
      validator: (ctx, key, _value, metadata) => {
        if (key === "atelier_via") {
          const m = metadata as Record<string, unknown>;
          if (ctx) {
            // A registration (the one case with a ctx): public clients only, no URL this server would fetch.
            const problem = clientMetadataProblem((ctx.oidc.body ?? {}) as Record<string, unknown>);
            if (problem) throw new errors.InvalidClientMetadata(problem);
            // The provider prepares a secret for a registration that names no auth method; a public client gets none.
            delete m.client_secret;
            delete m.client_secret_expires_at;
            // Set by this server on fetched documents only; a registration cannot claim it.
            delete m[key];
          }
          // A client's `scope` metadata (the MCP SDK sends mcp:read mcp:write) would be checked
          // against OpenID scopes; ours are the resource's, granted per authorization instead.
          delete m.scope;
          const uris = (metadata as { redirect_uris?: unknown }).redirect_uris;
          if (Array.isArray(uris)) {
            for (const uri of uris) {
              const problem = redirectUriProblem(uri);
              if (problem) {
                const err = new errors.InvalidRedirectUri();
                err.error_description = `redirect_uris: ${String(uri).slice(0, 200)} ${problem}`;
                throw err;
              }
            }
          }
        }
      },
    },
    pkce: { required: () => true },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    ttl: {
      AccessToken: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      RefreshToken: config.OAUTH_REFRESH_TOKEN_TTL_SECONDS,
      Interaction: 900,
      Session: 14 * 86_400,
      Grant: 14 * 86_400,
      IdToken: 3600,
    },
    findAccount: async (_ctx, sub) => {
      const account = await oauthAccount(deps, sub);
      return account ? { accountId: account.accountId, claims: () => ({ sub: account.accountId }) } : undefined;
    },
    renderError: (ctx: KoaContextWithOIDC, out, err) => {
      // Every error of an authorization request (see keepErrorsHome below), and any other the provider renders.
      // An error after the provider began a redirect (prompt=none) keeps neither its status nor its Location.
      const status = (err as { statusCode?: unknown } | undefined)?.statusCode;
      ctx.status = typeof status === "number" && status >= 400 ? status : 400;
      ctx.remove("Location");
      const error = String(out.error ?? "invalid_request");
      const description = String(out.error_description ?? "The authorization request was refused.");
      if (ctx.accepts("html", "json") === "json") {
        ctx.type = "json";
        ctx.body = { error, error_description: description };
        return;
      }
      ctx.type = "html";
      ctx.body = refusalPage({
        title: "Sign-in request refused",
        heading: "This sign-in request was refused",
        message: `${description} Atelier shows this here rather than sending you on to the app, so that a link can never use Atelier to take you somewhere you did not choose.`,
        error,
      });
    },
  };

  const provider = new Provider(config.BASE_URL, configuration);
  // Public URLs are BASE_URL's, whatever Host a request came with (see oauthRoutes).
  provider.proxy = true;
  // RFC 9700 §4.11.2: the authorization server must not become a way to send a person to a
  // site a stranger chose. No client here is vouched for (anyone can register one, and a
  // metadata document proves only who controls its host), so an authorization request that
  // fails is shown on our own page, never sent to the client's redirect URI. The one answer
  // that goes back is the person's own Deny, whose destination the consent screen showed.
  // The provider reads `allow_redirect` after emitting these events (authorization_error_handler.js).
  const keepErrorsHome = (ctx: KoaContextWithOIDC, err: unknown) => {
    const route = ctx.oidc?.route;
    if (typeof err !== "object" || err === null || (route !== "authorization" && route !== "resume")) return;
    if (route === "resume" && (err as { error?: unknown }).error === "access_denied") return;
    (err as { allow_redirect?: boolean }).allow_redirect = false;
  };
  provider.on("authorization.error", keepErrorsHome);
  provider.on("server_error", (ctx: KoaContextWithOIDC, err: Error) => {
    keepErrorsHome(ctx, err);
    logger.error({ err: { message: err.message, name: err.name } }, "oauth server error");
  });
  // Routes the provider does not know answer like every other unknown path here.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      ctx.status = 404;
      ctx.body = { error: "not_found", error_description: "Nothing here." };
    }
  });
  return provider;
}
