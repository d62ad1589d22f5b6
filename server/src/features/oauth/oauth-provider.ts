// The OAuth 2.1 authorization server for MCP clients (DESIGN §11), built on panva's
// oidc-provider and mounted on this origin under /oauth. Its issuer is BASE_URL; its one
// resource is BASE_URL/mcp; its clients are public (PKCE S256, no secret), identified by a
// client ID metadata document (a URL) or by dynamic registration. Everything it keeps goes
// through the adapter in shared (hashes only, expiry by the sweeper); every key it uses is
// derived from SECRET_KEY, so any number of server processes agree without sharing memory.
import { createECDH, createHmac } from "node:crypto";
import type { Deps } from "@atelier/shared/domain/deps";
import { mcpResource, OAUTH_SCOPES } from "@atelier/shared/domain/oauth-access";
import { ClientDocumentError, fetchClientDocument, isClientDocumentUrl, redirectUriProblem } from "@atelier/shared/domain/oauth-clients";
import { oauthAdapter, type OAuthPayload } from "@atelier/shared/domain/oauth-store";
import { OAUTH_PATHS } from "@atelier/shared/domain/discovery";
import { newSecret } from "@atelier/shared/ids";
import type { Logger } from "@atelier/shared/logger";
import Provider, { errors, interactionPolicy, type Configuration, type KoaContextWithOIDC } from "oidc-provider";

export type OAuthProvider = Provider;

type ProviderDeps = Pick<Deps, "config" | "database"> & { logger: Logger };

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
  for (const k of ["jwks", "jwks_uri", "id_token_signed_response_alg", "userinfo_signed_response_alg"]) delete out[k];
  return out;
}

/** Which model names the adapter keeps; a client id that is a URL is resolved from its metadata document. */
function adapterFor({ config, database }: ProviderDeps) {
  const Base = oauthAdapter({ database });
  return class AtelierOAuthAdapter extends Base {
    override async find(id: string): Promise<OAuthPayload | undefined> {
      if (this.name !== "Client" || !isClientDocumentUrl(config, id)) return super.find(id);
      // A metadata document fetched shortly before (by any process) is reused until it expires.
      const cached = await new Base("ClientDocument").find(id);
      if (cached) return cached;
      let fetched: Awaited<ReturnType<typeof fetchClientDocument>>;
      try {
        fetched = await fetchClientDocument(config, id);
      } catch (err) {
        if (err instanceof ClientDocumentError) {
          throw err.error === "invalid_client" ? new errors.InvalidClient(err.message) : new errors.InvalidClientMetadata(err.message);
        }
        throw err;
      }
      const metadata = { ...supportedMetadata(fetched.metadata), atelier_via: "metadata_document" } as OAuthPayload;
      await new Base("ClientDocument").upsert(id, metadata, fetched.maxAgeSeconds);
      return metadata;
    }
  };
}

export function createOAuthProvider(deps: ProviderDeps): OAuthProvider {
  const { config, database, logger } = deps;
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
    extraClientMetadata: {
      properties: ["software_id", "software_version", "atelier_via"],
      validator: (ctx, key, _value, metadata) => {
        if (key === "atelier_via") {
          // Set by this server on fetched documents only; a registration (the one case with a ctx) cannot claim it.
          const m = metadata as Record<string, unknown>;
          if (ctx) delete m[key];
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
      const user = await database.c.users.findOne({ _id: sub }, { projection: { _id: 1 } });
      return user ? { accountId: user._id, claims: () => ({ sub: user._id }) } : undefined;
    },
    renderError: (ctx: KoaContextWithOIDC, out) => {
      // Errors that cannot go back to the client (unknown client, a redirect_uri not registered).
      const error = String(out.error ?? "invalid_request");
      const description = String(out.error_description ?? "The authorization request was refused.");
      if (ctx.accepts("html", "json") === "json") {
        ctx.type = "json";
        ctx.body = { error, error_description: description };
        return;
      }
      ctx.type = "html";
      const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign-in request refused · Atelier</title>
<style>body{font:16px/1.6 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1.25rem;color:#1c1d21;background:#fffefb}@media (prefers-color-scheme:dark){body{color:#e8e8eb;background:#141518}}code{font:14px ui-monospace,monospace}</style></head>
<body><main><h1>This sign-in request was refused</h1><p>${esc(description)}</p><p>Error: <code>${esc(error)}</code></p><p>Go back to the app that sent you here and connect again. The guide: <a href="/docs/connect/agents">connecting an agent</a>.</p></main></body></html>`;
    },
  };

  const provider = new Provider(config.BASE_URL, configuration);
  // Public URLs are BASE_URL's, whatever Host a request came with (see oauthRoutes).
  provider.proxy = true;
  provider.on("server_error", (_ctx: unknown, err: Error) => logger.error({ err: { message: err.message, name: err.name } }, "oauth server error"));
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
