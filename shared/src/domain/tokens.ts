// MCP write tokens (docs/contract.md#resources-and-identifiers): `service_mcp_` + 32 random bytes, stored only as
// a SHA-256 hash, shown once. Owners create, rotate and revoke them. The hash is also the
// `_id` of a small key document, so the lookup every /mcp call makes is a primary-key one.
import type { Config } from "../config";
import type { Database, Scope, TokenDoc, TokenKind, UserDoc } from "../db/index";
import { AppError, invalidField } from "../errors";
import { newId, newSecret, sha256 } from "../ids";
import type { TokenViewSchema, WhoamiView } from "../schemas/tokens";
import type { z } from "zod";
import { roleOf, type Principal } from "./access";
import { signal } from "./changes/feed";
import { addSeconds, now } from "./clock";
import type { StoreDeps } from "./deps";
import { findOAuthAccessTokenOwner } from "./oauth-access";
import { deleteOAuthGrant } from "./oauth-store";

export const DEFAULT_TOKEN_DAYS = 90;
export const MAX_TOKEN_DAYS = 365;
const TOUCH_EVERY_MS = 60_000;

type TokenView = z.infer<typeof TokenViewSchema>;

const tokenKey = (hash: string) => `tok:${hash}`;
/** Every cached lookup that led to a token carries its tag, so a revocation drops them all. */
const tokenTag = (tokenId: string) => `token:${tokenId}`;

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

/** The low-level issue, shared by the app's token settings, agent registration and OAuth grants. */
export async function issueToken(
  deps: { database: Database; config: Pick<Config, "TOKEN_PREFIX"> },
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
  const { database, config } = deps;
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
  // The token, then its key: a token whose key was never written cannot be used, and its
  // credential was never shown.
  await database.c.tokens.insertOne(token);
  await database.c.tokenKeys.insertOne({ _id: hash, tokenId: token._id, createdAt: token.createdAt });
  return { token, credential };
}

/**
 * The workspace ids a token of `user` may be confined to, by slug. A token acts for its
 * owner: it may be confined only to workspaces the owner belongs to (reading a public
 * workspace is not belonging to it); any other slug is refused, naming it.
 */
export async function restrictionFor(deps: Pick<StoreDeps, "database">, user: Pick<UserDoc, "_id">, slugs: string[]): Promise<string[]> {
  const wanted = [...new Set(slugs)];
  const keys = await deps.database.c.workspaceSlugs.find({ _id: { $in: wanted } }).toArray();
  const found = await deps.database.c.workspaces.find({ _id: { $in: keys.map((k) => k.workspaceId) } }).toArray();
  const mine = found.filter((ws) => roleOf(ws, user._id) !== null && wanted.includes(ws.slug));
  const missing = wanted.filter((s) => !mine.some((ws) => ws.slug === s));
  if (missing.length > 0) throw invalidField("workspaces", "not_member", `you are not a member of ${missing.join(", ")}`, { workspaces: missing });
  return mine.map((ws) => ws._id);
}

/** A token made by a person in the app's connected-agent settings. */
export async function createUserToken(
  deps: StoreDeps,
  user: UserDoc,
  input: { label: string; scopes: Scope[]; expiresInDays?: number | undefined; workspaces?: string[] | undefined },
): Promise<IssuedToken> {
  const days = input.expiresInDays ?? DEFAULT_TOKEN_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_TOKEN_DAYS) {
    throw invalidField("expiresInDays", "too_big", `must be a whole number from 1 to ${MAX_TOKEN_DAYS}`, { min: 1, max: MAX_TOKEN_DAYS });
  }
  if (input.scopes.length === 0) throw invalidField("scopes", "too_few", "choose mcp:read, mcp:write or both", { min: 1 });
  const workspaceIds = input.workspaces && input.workspaces.length > 0 ? await restrictionFor(deps, user, input.workspaces) : null;
  return issueToken(deps, {
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

async function ownedActiveToken(database: Database, userId: string, tokenId: string): Promise<TokenDoc> {
  const t = await database.c.tokens.findOne({ _id: tokenId });
  if (!t || t.ownerId !== userId) throw new AppError("not_found", "No such token.");
  if (t.revokedAt) throw new AppError("conflict", "That token is already revoked.");
  return t;
}

/** A new secret with the same settings; the old secret stops working at once. */
export async function rotateToken(deps: StoreDeps, userId: string, tokenId: string): Promise<IssuedToken> {
  const { database, config } = deps;
  const t = await ownedActiveToken(database, userId, tokenId);
  if (t.kind === "oauth") throw new AppError("conflict", "An agent connected through sign-in has no token to rotate; revoke it and let it sign in again.");
  const { credential, hash, hint } = mint(config.TOKEN_PREFIX);
  await database.c.tokenKeys.insertOne({ _id: hash, tokenId: t._id, createdAt: now() });
  const r = await database.c.tokens.updateOne({ _id: t._id, hash: t.hash, revokedAt: null }, { $set: { hash, hint } });
  if (r.modifiedCount !== 1) {
    await database.c.tokenKeys.deleteOne({ _id: hash });
    throw new AppError("conflict", "The token changed meanwhile; try again.");
  }
  await database.c.tokenKeys.deleteOne({ _id: t.hash });
  deps.cache.delete(tokenKey(t.hash));
  await signal(deps, { kind: "token", id: t._id });
  return { token: { ...t, hash, hint }, credential };
}

/**
 * Revokes a token; for an agent connected through sign-in also its grant, so its access and
 * refresh tokens stop working on their next use. Every process refuses it within one poll of
 * the change feed (changes/follower.ts), and in any case within
 * CACHE_TTL_MS, this one at once.
 */
export async function revokeToken(deps: StoreDeps, userId: string, tokenId: string): Promise<TokenView> {
  const t = await ownedActiveToken(deps.database, userId, tokenId);
  const revokedAt = now();
  await deps.database.c.tokens.updateOne({ _id: t._id, revokedAt: null }, { $set: { revokedAt } });
  if (t.kind === "oauth") await deleteOAuthGrant(deps, t.oauth?.grantId ?? t._id);
  forgetToken(deps, t);
  // Every other process drops the token now, not CACHE_TTL_MS later.
  await signal(deps, { kind: "token", id: t._id });
  return (await tokenViews(deps, [{ ...t, revokedAt }]))[0] as TokenView;
}

/** Drops this process's cached lookups of a token (its key, and every OAuth access token that led to it). */
export function forgetToken(deps: Pick<StoreDeps, "cache">, t: Pick<TokenDoc, "_id" | "hash">): void {
  deps.cache.delete(tokenKey(t.hash));
  deps.cache.deleteTag(tokenTag(t._id));
}

/** Drops every cached lookup of a token known by id only (another process changed it: changes/follower.ts). */
export function forgetTokenById(deps: Pick<StoreDeps, "cache">, tokenId: string): void {
  deps.cache.deleteTag(tokenTag(tokenId));
}

/** The token a credential hash names, read through the cache (at most CACHE_TTL_MS old). */
export function tokenByHash(deps: StoreDeps, hash: string): Promise<TokenDoc | null> {
  return deps.cache.through(
    tokenKey(hash),
    async () => {
      const key = await deps.database.c.tokenKeys.findOne({ _id: hash });
      if (!key) return null;
      const t = await deps.database.c.tokens.findOne({ _id: key.tokenId });
      // A key left behind by a rotation names a token whose hash has moved on.
      return t && t.hash === hash ? t : null;
    },
    { tags: tagsOf },
  );
}

const tagsOf = (t: TokenDoc | null): string[] => (t ? [tokenTag(t._id)] : []);

/**
 * The token behind a bearer credential, if it is known, unrevoked and unexpired; otherwise
 * `invalid_token`. A revocation reaches every process within CACHE_TTL_MS (this one at once).
 */
export async function authenticateBearer(deps: StoreDeps, credential: string): Promise<TokenDoc> {
  if (credential.length > 200) throw invalidToken();
  // A service_mcp_ token by its key document, anything else as an OAuth access token (its
  // grant's token document): one principal either way, read through the cache.
  const t = credential.startsWith(deps.config.TOKEN_PREFIX)
    ? await tokenByHash(deps, sha256(credential))
    : await deps.cache.through(`oat:${sha256(credential)}`, () => findOAuthAccessTokenOwner(deps, credential), { tags: tagsOf });
  if (!t || tokenStatus(t) !== "active") throw invalidToken();
  const at = now();
  if (!t.lastUsedAt || at.getTime() - t.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    // At most one write a minute per token; a lost race only loses a timestamp.
    t.lastUsedAt = at;
    await deps.database.c.tokens.updateOne({ _id: t._id }, { $set: { lastUsedAt: at } });
  }
  return t;
}

export function invalidToken(): AppError {
  return new AppError("invalid_token", "The access token is invalid, expired or revoked.");
}

/** Tokens as their owner sees them (workspace restrictions by slug), one query for all. */
export async function tokenViews(deps: StoreDeps, tokens: TokenDoc[]): Promise<TokenView[]> {
  const ids = [...new Set(tokens.flatMap((t) => t.workspaceIds ?? []))];
  const spaces = ids.length > 0 ? await deps.database.c.workspaces.find({ _id: { $in: ids } }, { projection: { slug: 1 } }).toArray() : [];
  const slugOf = new Map(spaces.map((w) => [w._id, w.slug]));
  return tokens.map((t) => ({
    token_id: t._id,
    label: t.label,
    agent_label: t.agentLabel,
    kind: t.kind,
    hint: t.hint,
    scopes: t.scopes,
    workspaces: t.workspaceIds ? t.workspaceIds.flatMap((id) => slugOf.get(id) ?? []) : null,
    status: tokenStatus(t),
    created_at: t.createdAt.toISOString(),
    expires_at: t.expiresAt.toISOString(),
    last_used_at: t.lastUsedAt ? t.lastUsedAt.toISOString() : null,
    revoked_at: t.revokedAt ? t.revokedAt.toISOString() : null,
    oauth: t.oauth ? { client_id: t.oauth.clientId, client_name: t.oauth.clientName, client_uri: t.oauth.clientUri, via: t.oauth.via } : null,
  }));
}

export async function listTokens(deps: StoreDeps, userId: string): Promise<TokenView[]> {
  const tokens = await deps.database.c.tokens
    .find({ ownerId: userId }, { projection: { hash: 0 } })
    .sort({ createdAt: -1, _id: 1 })
    .limit(500)
    .toArray();
  return tokenViews(deps, tokens as TokenDoc[]);
}

/** The issued-token view: the credential is in this answer only. */
export function issuedView({ token, credential }: IssuedToken) {
  return { token_id: token._id, credential, scopes: token.scopes, expires_at: token.expiresAt.toISOString() };
}

/** Who a connection acts as: its token and the person the token acts for, or nobody. */
export async function whoami(deps: StoreDeps, principal: Principal): Promise<WhoamiView> {
  if (principal.kind !== "token") return { authenticated: false, token: null, acting_for: null };
  const t = principal.token;
  const owner = t.ownerId ? await deps.database.c.users.findOne({ _id: t.ownerId }, { projection: { email: 1 } }) : null;
  const [view] = await tokenViews(deps, [t]);
  return {
    authenticated: true,
    token: {
      token_id: t._id,
      label: t.agentLabel ?? t.label,
      kind: t.kind,
      scopes: t.scopes,
      expires_at: t.expiresAt.toISOString(),
      workspaces: view?.workspaces ?? null,
    },
    acting_for: owner ? { email: owner.email } : null,
  };
}
