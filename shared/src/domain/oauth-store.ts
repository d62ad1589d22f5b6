// Storage for the OAuth authorization server (docs/ARCHITECTURE.md#oauth): the adapter oidc-provider asks to
// keep its models (clients, grants, codes, tokens, sessions, interactions). It runs on the
// embedded FerretDB and on MongoDB alike: single-document operations only, every lookup on
// the hot path by `_id`, no TTL index (the sweeper deletes records past `expiresAt`), no
// transaction. Nothing secret is kept in clear: a model whose id is a credential is stored
// under sha256(model:id) and its payload loses the `jti` that repeats the id.
import type { OAuthRecordDoc } from "../db/index";
import { sha256 } from "../ids";
import { addSeconds, now } from "./clock";
import type { Deps } from "./deps";

/** Models whose id is not a secret: kept under `model:id` so they can be listed and read back. */
const CLEAR_ID_MODELS = new Set(["Client", "Grant"]);

export type OAuthPayload = Record<string, unknown> & { jti?: string; grantId?: string; uid?: string; consumed?: number };

export function oauthRecordId(model: string, id: string): string {
  return CLEAR_ID_MODELS.has(model) ? `${model}:${id}` : sha256(`${model}:${id}`);
}

function decode(doc: OAuthRecordDoc, id: string | null): OAuthPayload | undefined {
  if (doc.expiresAt && doc.expiresAt <= now()) return undefined;
  let payload: OAuthPayload;
  try {
    payload = JSON.parse(doc.payload) as OAuthPayload;
  } catch {
    return undefined;
  }
  if (id !== null && !CLEAR_ID_MODELS.has(doc.model)) payload.jti = id;
  if (doc.consumed !== null) payload.consumed = doc.consumed;
  return payload;
}

/** Reads one record the way the adapter would, for code outside oidc-provider (the /mcp check). */
export async function findOAuthRecord({ database }: Pick<Deps, "database">, model: string, id: string): Promise<OAuthPayload | undefined> {
  const doc = await database.c.oauth.findOne({ _id: oauthRecordId(model, id) });
  return doc ? decode(doc, id) : undefined;
}

/** Everything issued under a grant, and the grant itself: gone at once (an app revocation). */
export async function deleteOAuthGrant({ database }: Pick<Deps, "database">, grantId: string): Promise<void> {
  await database.c.oauth.deleteMany({ grantId });
  await database.c.oauth.deleteOne({ _id: oauthRecordId("Grant", grantId) });
}

/**
 * Keeps a dynamically registered client at least until `until` (its last grant's end plus the
 * unused period): a client that someone connected is not deleted under them. Never shortens.
 */
export async function keepOAuthClientUntil({ database }: Pick<Deps, "database">, clientId: string, until: Date): Promise<void> {
  await database.c.oauth.updateOne(
    { _id: oauthRecordId("Client", clientId), $or: [{ expiresAt: null }, { expiresAt: { $lt: until } }] },
    { $set: { expiresAt: until } },
  );
}

/** Deletes records past their expiry (run by the sweeper). */
export async function clearExpiredOAuthRecords({ database }: Pick<Deps, "database">): Promise<number> {
  return (await database.c.oauth.deleteMany({ expiresAt: { $lte: now() } })).deletedCount;
}

/** The adapter class oidc-provider instantiates once per model name. */
export function oauthAdapter(deps: Pick<Deps, "database">) {
  const { database } = deps;
  return class OAuthStoreAdapter {
    constructor(readonly name: string) {}

    async upsert(id: string, payload: OAuthPayload, expiresIn?: number): Promise<void> {
      const { jti: _jti, consumed, ...rest } = payload;
      const t = now();
      const doc: Omit<OAuthRecordDoc, "_id" | "createdAt"> = {
        model: this.name,
        payload: JSON.stringify(CLEAR_ID_MODELS.has(this.name) ? { ...rest, jti: id } : rest),
        consumed: typeof consumed === "number" ? consumed : null,
        grantId: typeof payload.grantId === "string" ? payload.grantId : this.name === "Grant" ? id : null,
        uid: typeof payload.uid === "string" ? payload.uid : null,
        expiresAt: expiresIn ? addSeconds(t, expiresIn) : null,
      };
      await database.c.oauth.updateOne({ _id: oauthRecordId(this.name, id) }, { $set: doc, $setOnInsert: { createdAt: t } }, { upsert: true });
    }

    async find(id: string): Promise<OAuthPayload | undefined> {
      if (typeof id !== "string" || id.length === 0 || id.length > 2048) return undefined;
      return findOAuthRecord(deps, this.name, id);
    }

    async findByUid(uid: string): Promise<OAuthPayload | undefined> {
      // Sessions only; a scan on the embedded database, off the per-request path of /mcp.
      const doc = await database.c.oauth.findOne({ model: this.name, uid });
      if (!doc) return undefined;
      return decode(doc, null);
    }

    async findByUserCode(): Promise<undefined> {
      // The device flow is switched off.
      return undefined;
    }

    async consume(id: string): Promise<void> {
      await database.c.oauth.updateOne({ _id: oauthRecordId(this.name, id) }, { $set: { consumed: Math.floor(now().getTime() / 1000) } });
    }

    async destroy(id: string): Promise<void> {
      await database.c.oauth.deleteOne({ _id: oauthRecordId(this.name, id) });
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await database.c.oauth.deleteMany({ model: this.name, grantId });
    }
  };
}
