// An OAuth access token at /mcp (docs/ARCHITECTURE.md#oauth): the same principal as a `service_mcp_` token.
// The access token (stored hashed by oauth-store) names its grant; the grant's id is the id of
// the connected agent's token document, whose status, scopes and workspace restriction then
// decide as for any token. Two lookups by `_id`, so the embedded database answers at once.
import type { Scope, TokenDoc } from "../db/index";
import { nowMs } from "./clock";
import type { Deps } from "./deps";
import { findOAuthRecord } from "./oauth-store";

export const OAUTH_SCOPES: readonly Scope[] = ["mcp:read", "mcp:write"];

/** The one resource (RFC 8707) this authorization server issues tokens for. */
export function mcpResource(baseUrl: string): string {
  return `${baseUrl}/mcp`;
}

const OPAQUE = /^[A-Za-z0-9_-]{20,200}$/;

/**
 * The connected agent's token document behind an OAuth access token, or null when the
 * credential is unknown, expired, consumed, bound to another resource, or its grant is gone.
 * The returned scopes are the grant's, narrowed to the access token's own when it names any.
 */
export async function findOAuthAccessTokenOwner(deps: Pick<Deps, "database" | "config">, credential: string): Promise<TokenDoc | null> {
  if (!OPAQUE.test(credential)) return null;
  const at = await findOAuthRecord(deps, "AccessToken", credential);
  if (!at || at.consumed !== undefined) return null;
  if (typeof at.exp !== "number" || at.exp * 1000 <= nowMs()) return null;
  const aud = Array.isArray(at.aud) ? at.aud : [at.aud];
  if (aud.length !== 1 || aud[0] !== mcpResource(deps.config.BASE_URL)) return null;
  if (typeof at.grantId !== "string") return null;
  const token = await deps.database.c.tokens.findOne({ _id: at.grantId, kind: "oauth" });
  if (!token) return null;
  const asked = typeof at.scope === "string" ? new Set(at.scope.split(" ")) : null;
  const scopes = asked && asked.size > 0 ? token.scopes.filter((s) => asked.has(s)) : token.scopes;
  return { ...token, scopes };
}
