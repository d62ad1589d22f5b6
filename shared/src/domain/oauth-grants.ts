// A grant is a connected agent (docs/ARCHITECTURE.md#oauth). When a person allows an OAuth client, a token
// document of kind "oauth" is issued for them (their scopes, their workspace choice, their
// duration, the client's name as its label) and the oidc-provider Grant takes the token's id
// as its own, so an access token leads to its token document by `_id`. From there on it is a
// token like any other: listed, cut off per workspace, revoked, attributed.
import type { Scope, TokenDoc, TokenOAuthLink, UserDoc } from "../db/index";
import type { OAuthConsentView, OAuthDecideInput } from "../schemas/oauth";
import { OAUTH_DURATION_DAYS } from "../schemas/oauth";
import { can } from "./access";
import { addSeconds, now } from "./clock";
import type { StoreDeps } from "./deps";
import { inertText } from "./display-text";
import { OAUTH_SCOPES } from "./oauth-access";
import { isLoopbackHost } from "./oauth-clients";
import { deleteOAuthGrant, keepOAuthClientUntil } from "./oauth-store";
import { forgetToken, issueToken, restrictionFor, tokenStatus } from "./tokens";

const SCOPE_WORDS: Record<Scope, string> = {
  "mcp:read": "Read the workspaces, pages and tables you can see, and their history.",
  "mcp:write": "Create, change and delete pages and tables, and manage the workspaces you own, in your name.",
};

/** What a client says of itself (from its metadata document or its registration). */
export interface OAuthClientInfo {
  clientId: string;
  name: string | null;
  homePage: string | null;
  logoUri: string | null;
  via: TokenOAuthLink["via"];
  redirectUri: string;
  /** When a dynamic registration was made (its `client_id_issued_at`); null for a metadata document. */
  registeredAt: Date | null;
}

/** The scopes an authorization request asks for; none named means both. */
export function requestedScopes(scope: unknown): Scope[] {
  const asked = typeof scope === "string" ? scope.split(" ").filter((s): s is Scope => (OAUTH_SCOPES as readonly string[]).includes(s)) : [];
  return asked.length > 0 ? [...new Set(asked)].sort() : [...OAUTH_SCOPES];
}

/**
 * The scopes an authorization request names that this server does not offer (`openid`,
 * anything else): such a request is refused before the person is asked, since the person
 * could grant only part of it. `offline_access` is not counted: some clients add it to ask
 * for a refresh token, which every grant here comes with anyway.
 */
export function unknownScopes(scope: unknown): string[] {
  if (typeof scope !== "string") return [];
  return [...new Set(scope.split(" ").filter((s) => s !== "" && s !== "offline_access" && !(OAUTH_SCOPES as readonly string[]).includes(s)))];
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

function webUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const u = new URL(value);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}

/**
 * The name a person sees for a client: its own name without invisible or reordering
 * characters, else the host of its metadata document, else a plain phrase.
 */
export function clientDisplayName(client: Pick<OAuthClientInfo, "name" | "clientId" | "via">): string {
  const name = client.name ? inertText(client.name, 100) : "";
  if (name) return name;
  if (client.via === "metadata_document") return hostOf(client.clientId) ?? "An unnamed app";
  return "An unnamed app";
}

/**
 * Where the browser goes after the person answers, as a person should read it: a web site by
 * its host; a program on this computer (a loopback address) by its address; an app by its
 * own scheme, shown whole, since `com.evil.app://claude.ai/cb` opens com.evil.app, not claude.ai.
 */
export function redirectDestination(uri: string): { kind: "web" | "this_computer" | "app"; text: string } {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { kind: "app", text: inertText(uri, 120) };
  }
  if (url.protocol === "https:") return { kind: "web", text: url.host };
  if (url.protocol === "http:" && isLoopbackHost(url.hostname)) return { kind: "this_computer", text: `${url.protocol}//${url.host}` };
  const rest = `${url.host}${url.pathname}`;
  return { kind: "app", text: inertText(`${url.protocol}//${rest.startsWith("/") ? rest.slice(1) : rest}`, 120) };
}

/**
 * Whether the client's identity is verified: a metadata document fetched over https from the
 * URL that is its client_id, so whoever controls that host vouches for it. Everything a
 * dynamic registration says (and a document fetched over plain http in development) is only
 * what the client declares about itself.
 */
export function clientIdentity(client: Pick<OAuthClientInfo, "clientId" | "via">): "verified" | "self_declared" {
  return client.via === "metadata_document" && client.clientId.startsWith("https://") ? "verified" : "self_declared";
}

/** What the consent screen (and its sign-in step) says of the client. Every string is inert text. */
export function oauthClientView(client: OAuthClientInfo): OAuthConsentView["client"] {
  const home = webUrl(client.homePage);
  return {
    client_id: inertText(client.clientId, 300),
    name: clientDisplayName(client),
    name_verified: false,
    identity: clientIdentity(client),
    home_page: home ? inertText(home, 300) : null,
    logo_uri: webUrl(client.logoUri),
    document_host: client.via === "metadata_document" ? hostOf(client.clientId) : null,
    via: client.via,
    registered_at: client.registeredAt ? client.registeredAt.toISOString() : null,
    redirect: redirectDestination(client.redirectUri),
  };
}

/** What the consent screen shows. */
export async function oauthConsentView(
  deps: Pick<StoreDeps, "database">,
  user: UserDoc,
  input: { uid: string; client: OAuthClientInfo; scope: unknown; resource: string },
): Promise<OAuthConsentView> {
  const workspaces = await deps.database.c.workspaces
    .find({ "members.userId": user._id }, { projection: { slug: 1, name: 1, members: 1, sandbox: 1, visibility: 1, ownerId: 1 } })
    .sort({ slug: 1 })
    .limit(200)
    .toArray();
  const principal = { kind: "user" as const, user };
  const { client } = input;
  return {
    uid: input.uid,
    client: oauthClientView(client),
    scopes: requestedScopes(input.scope).map((scope) => ({ scope, description: SCOPE_WORDS[scope] })),
    resource: input.resource,
    workspaces: workspaces.filter((ws) => can(principal, ws, "read")).map((ws) => ({ slug: ws.slug, name: ws.name, can_write: can(principal, ws, "write") })),
    durations_days: [...OAUTH_DURATION_DAYS],
    default_duration_days: 90,
  };
}

/** The person allowed the client: the connected agent's token document (its `_id` becomes the grant id). */
export async function grantOAuthAccess(
  deps: StoreDeps,
  user: UserDoc,
  client: OAuthClientInfo,
  scopes: Scope[],
  decision: Pick<OAuthDecideInput, "workspaces" | "duration_days">,
): Promise<TokenDoc> {
  const workspaceIds = decision.workspaces === "all" ? null : await restrictionFor(deps, user, decision.workspaces);
  const name = clientDisplayName(client);
  const expiresAt = addSeconds(now(), decision.duration_days * 86_400);
  // A registered client lives at least as long as the grant, and the unused period after it.
  if (client.via === "registration") await keepOAuthClientUntil(deps, client.clientId, addSeconds(expiresAt, deps.config.OAUTH_UNUSED_CLIENT_TTL_SECONDS));
  const { token } = await issueToken(deps, {
    ownerId: user._id,
    kind: "oauth",
    scopes,
    workspaceIds,
    label: name,
    agentLabel: name,
    expiresAt,
  });
  const oauth: TokenOAuthLink = { grantId: token._id, clientId: client.clientId, clientName: name, clientUri: webUrl(client.homePage), via: client.via };
  await deps.database.c.tokens.updateOne({ _id: token._id }, { $set: { oauth } });
  return { ...token, oauth };
}

/**
 * Whether the authorization server may still use a grant: its connected agent's token
 * document is active (not revoked — by the person, by a workspace deletion that left it no
 * workspace — and not expired). The token document is the one record of a grant's state; the
 * provider asks this whenever it loads the grant (code exchange, refresh).
 */
export async function oauthGrantIsLive(deps: Pick<StoreDeps, "database">, grantId: string): Promise<boolean> {
  const t = await deps.database.c.tokens.findOne({ _id: grantId, kind: "oauth" }, { projection: { revokedAt: 1, expiresAt: 1 } });
  return t !== null && tokenStatus(t) === "active";
}

/**
 * The authorization server ended a grant (a refresh token used twice, a code replayed, a
 * refresh token revoked by the client): its connected agent ends with it, so the app shows it
 * revoked and every process refuses it within CACHE_TTL_MS (this one at once).
 */
export async function endOAuthGrant(deps: Pick<StoreDeps, "database" | "cache">, grantId: string): Promise<void> {
  const t = await deps.database.c.tokens.findOne({ _id: grantId, kind: "oauth" });
  if (!t) return;
  if (!t.revokedAt) await deps.database.c.tokens.updateOne({ _id: t._id, revokedAt: null }, { $set: { revokedAt: now() } });
  forgetToken(deps, t);
}

/**
 * An Allow that could not be completed: its connected agent and grant are removed whole (the
 * token was never handed to anyone), so a failed flow leaves nothing behind.
 */
export async function discardOAuthGrant(deps: Pick<StoreDeps, "database" | "cache">, grantId: string): Promise<void> {
  await deleteOAuthGrant(deps, grantId);
  const t = await deps.database.c.tokens.findOneAndDelete({ _id: grantId, kind: "oauth" });
  if (t) {
    await deps.database.c.tokenKeys.deleteOne({ _id: t.hash });
    forgetToken(deps, t);
  }
}

/** The account an OAuth grant acts for (the authorization server's `findAccount`): the person, if they still exist. */
export async function oauthAccount(deps: Pick<StoreDeps, "database">, userId: string): Promise<{ accountId: string } | null> {
  const user = await deps.database.c.users.findOne({ _id: userId }, { projection: { _id: 1 } });
  return user ? { accountId: user._id } : null;
}
