// MCP write tokens (SPEC §2.3, DESIGN §3): `service_mcp_` + 32 random bytes, stored only as
// a SHA-256 hash, shown once. Owners create, rotate and revoke them.
import type { Config } from "../config";
import type { Database, Scope, TokenDoc, TokenKind, UserDoc } from "../db/index";
import { AppError } from "../errors";
import { newId, newSecret, sha256 } from "../ids";
import { can } from "./access";
import { addSeconds, now } from "./clock";
import { findOAuthAccessTokenOwner } from "./oauth-access";

export const DEFAULT_TOKEN_DAYS = 90;
export const MAX_TOKEN_DAYS = 365;
const TOUCH_EVERY_MS = 60_000;

export interface IssuedToken {
  token: TokenDoc;
  /** The whole credential, shown to its owner this once. */
  credential: string;
}

function mint(prefix: string): { credential: string; hash: string; hint: string } {
  const secret = newSecret(32);
  const credential = `${prefix}${secret}`;
  return { credential, hash: sha256(credential), hint: `${prefix}${secret.slice(0, 6)}…` };
}

/** The low-level issue, shared by the app's token settings and agent registration. */
export async function issueToken(
  database: Database,
  config: Pick<Config, "TOKEN_PREFIX">,
  input: {
    ownerId: string | null;
    kind: TokenKind;
    scopes: Scope[];
    workspaceIds: string[] | null;
    label: string;
    agentLabel?: string | null;
    expiresAt: Date;
  },
): Promise<IssuedToken> {
  const { credential, hash, hint } = mint(config.TOKEN_PREFIX);
  const token: TokenDoc = {
    _id: newId("tok"),
    hash,
    hint,
    ownerId: input.ownerId,
    kind: input.kind,
    scopes: [...new Set(input.scopes)].sort() as Scope[],
    workspaceIds: input.workspaceIds,
    label: input.label,
    agentLabel: input.agentLabel ?? null,
    createdAt: now(),
    expiresAt: input.expiresAt,
    revokedAt: null,
    lastUsedAt: null,
  };
  await database.c.tokens.insertOne(token);
  return { token, credential };
}

/** A token made by a person in the app's connected-agent settings. */
export async function createUserToken(
  database: Database,
  config: Pick<Config, "TOKEN_PREFIX">,
  user: UserDoc,
  input: { label: string; scopes: Scope[]; expiresInDays?: number; workspaces?: string[] },
): Promise<IssuedToken> {
  const days = input.expiresInDays ?? DEFAULT_TOKEN_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_TOKEN_DAYS) {
    throw new AppError("invalid_request", `expiresInDays: must be a whole number from 1 to ${MAX_TOKEN_DAYS}`);
  }
  if (input.scopes.length === 0) throw new AppError("invalid_request", "scopes: choose mcp:read, mcp:write or both");
  let workspaceIds: string[] | null = null;
  if (input.workspaces && input.workspaces.length > 0) {
    const found = await database.c.workspaces.find({ slug: { $in: input.workspaces } }).toArray();
    const principal = { kind: "user" as const, user };
    const mine = found.filter((ws) => can(principal, ws, "read"));
    const missing = input.workspaces.filter((s) => !mine.some((ws) => ws.slug === s));
    if (missing.length > 0) throw new AppError("invalid_request", `workspaces: you are not a member of ${missing.join(", ")}`);
    workspaceIds = mine.map((ws) => ws._id);
  }
  return issueToken(database, config, {
    ownerId: user._id,
    kind: "user",
    scopes: input.scopes,
    workspaceIds,
    label: input.label,
    expiresAt: addSeconds(now(), days * 86_400),
  });
}

export type TokenStatus = "active" | "revoked" | "expired";

export function tokenStatus(t: Pick<TokenDoc, "revokedAt" | "expiresAt">, at = now()): TokenStatus {
  if (t.revokedAt) return "revoked";
  return t.expiresAt <= at ? "expired" : "active";
}

export async function listUserTokens(database: Database, userId: string): Promise<TokenDoc[]> {
  return database.c.tokens.find({ ownerId: userId }, { projection: { hash: 0 } }).sort({ createdAt: -1 }).limit(500).toArray();
}

async function ownedActiveToken(database: Database, userId: string, tokenId: string): Promise<TokenDoc> {
  const t = await database.c.tokens.findOne({ _id: tokenId, ownerId: userId });
  if (!t) throw new AppError("not_found", "No such token.");
  if (t.revokedAt) throw new AppError("conflict", "That token is already revoked.");
  return t;
}

/** A new secret with the same settings; the old secret stops working at once. */
export async function rotateToken(database: Database, config: Pick<Config, "TOKEN_PREFIX">, userId: string, tokenId: string): Promise<IssuedToken> {
  const t = await ownedActiveToken(database, userId, tokenId);
  if (t.kind === "oauth") throw new AppError("conflict", "An agent connected through sign-in has no token to rotate; revoke it and let it sign in again.");
  const { credential, hash, hint } = mint(config.TOKEN_PREFIX);
  const r = await database.c.tokens.updateOne({ _id: t._id, hash: t.hash, revokedAt: null }, { $set: { hash, hint } });
  if (r.modifiedCount !== 1) throw new AppError("conflict", "The token changed meanwhile; try again.");
  return { token: { ...t, hash, hint }, credential };
}

export async function revokeToken(database: Database, userId: string, tokenId: string): Promise<TokenDoc> {
  const t = await ownedActiveToken(database, userId, tokenId);
  const revokedAt = now();
  await database.c.tokens.updateOne({ _id: t._id, revokedAt: null }, { $set: { revokedAt } });
  return { ...t, revokedAt };
}

/**
 * The token behind a bearer credential, if it is known, unrevoked and unexpired; otherwise
 * `invalid_token`. Looked up on every call, so a revocation takes effect on the next one.
 */
export async function authenticateBearer(database: Database, config: Pick<Config, "TOKEN_PREFIX" | "BASE_URL">, credential: string): Promise<TokenDoc> {
  const invalid = new AppError("invalid_token", "The access token is invalid, expired or revoked.");
  if (credential.length > 200) throw invalid;
  // Anything else is an OAuth access token (oauth-access.ts): its grant's token document.
  const t = credential.startsWith(config.TOKEN_PREFIX)
    ? await database.c.tokens.findOne({ hash: sha256(credential) })
    : await findOAuthAccessTokenOwner(database, config, credential);
  if (!t || tokenStatus(t) !== "active") throw invalid;
  const at = now();
  if (!t.lastUsedAt || at.getTime() - t.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    // At most one write a minute per token; a lost race only loses a timestamp.
    await database.c.tokens.updateOne({ _id: t._id }, { $set: { lastUsedAt: at } });
  }
  return t;
}

export async function tokenView(database: Database, t: TokenDoc) {
  const slugs = t.workspaceIds
    ? (await database.c.workspaces.find({ _id: { $in: t.workspaceIds } }, { projection: { slug: 1 } }).toArray()).map((w) => w.slug)
    : null;
  return {
    token_id: t._id,
    label: t.label,
    agent_label: t.agentLabel,
    kind: t.kind,
    hint: t.hint,
    scopes: t.scopes,
    workspaces: slugs,
    status: tokenStatus(t),
    created_at: t.createdAt.toISOString(),
    expires_at: t.expiresAt.toISOString(),
    last_used_at: t.lastUsedAt ? t.lastUsedAt.toISOString() : null,
    revoked_at: t.revokedAt ? t.revokedAt.toISOString() : null,
    oauth: t.oauth ? { client_id: t.oauth.clientId, client_name: t.oauth.clientName, client_uri: t.oauth.clientUri, via: t.oauth.via } : null,
  };
}
