// A grant is a connected agent (DESIGN §11). When a person allows an OAuth client, a token
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
import { OAUTH_SCOPES } from "./oauth-access";
import { issueToken, restrictionFor } from "./tokens";

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
}

/** The scopes an authorization request asks for; none named means both. Unknown ones are ignored. */
export function requestedScopes(scope: unknown): Scope[] {
  const asked = typeof scope === "string" ? scope.split(" ").filter((s): s is Scope => (OAUTH_SCOPES as readonly string[]).includes(s)) : [];
  return asked.length > 0 ? [...new Set(asked)].sort() : [...OAUTH_SCOPES];
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

/** The name a person sees for a client: its own name, else the host of its metadata document, else a plain phrase. */
export function clientDisplayName(client: Pick<OAuthClientInfo, "name" | "clientId" | "via">): string {
  // Control characters are exactly what is dropped.
  // eslint-disable-next-line no-control-regex
  const CONTROL = /[\u0000-\u001f\u007f]/g;
  const name = client.name?.replace(CONTROL, "").trim().slice(0, 100);
  if (name) return name;
  if (client.via === "metadata_document") return hostOf(client.clientId) ?? "An unnamed app";
  return "An unnamed app";
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
    client: {
      client_id: client.clientId,
      name: clientDisplayName(client),
      name_verified: false,
      home_page: webUrl(client.homePage),
      logo_uri: webUrl(client.logoUri),
      document_host: client.via === "metadata_document" ? hostOf(client.clientId) : null,
      via: client.via,
      redirect_host: hostOf(client.redirectUri) ?? client.redirectUri.slice(0, 100),
    },
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
  const { token } = await issueToken(deps, {
    ownerId: user._id,
    kind: "oauth",
    scopes,
    workspaceIds,
    label: name,
    agentLabel: name,
    expiresAt: addSeconds(now(), decision.duration_days * 86_400),
  });
  const oauth: TokenOAuthLink = { grantId: token._id, clientId: client.clientId, clientName: name, clientUri: webUrl(client.homePage), via: client.via };
  await deps.database.c.tokens.updateOne({ _id: token._id }, { $set: { oauth } });
  return { ...token, oauth };
}
