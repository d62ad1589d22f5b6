// App sessions: an opaque random id in an HttpOnly cookie; only its SHA-256 is stored, as the
// session's `_id`. The session (and its person) is read through the cache, so a sign-out
// reaches other processes within CACHE_TTL_MS (this one at once).
import type { UserDoc } from "../db/index";
import { newSecret, sha256 } from "../ids";
import { addSeconds, now } from "./clock";
import type { StoreDeps } from "./deps";

export const SESSION_TTL_SECONDS = 30 * 86_400;
const TOUCH_EVERY_MS = 60_000;

const sessionKey = (hash: string) => `ses:${hash}`;
const userTag = (userId: string) => `user:${userId}`;

export async function createSession(deps: Pick<StoreDeps, "database">, userId: string): Promise<{ sessionId: string; expiresAt: Date }> {
  const sessionId = newSecret(32);
  const t = now();
  const expiresAt = addSeconds(t, SESSION_TTL_SECONDS);
  await deps.database.c.sessions.insertOne({ _id: sha256(sessionId), userId, createdAt: t, expiresAt, lastSeenAt: t });
  return { sessionId, expiresAt };
}

/** The signed-in user for a session id, or null when it is unknown, ended or expired. */
export async function resolveSession(deps: StoreDeps, sessionId: string): Promise<UserDoc | null> {
  if (!sessionId || sessionId.length > 100) return null;
  const hash = sha256(sessionId);
  const found = await deps.cache.through(
    sessionKey(hash),
    async () => {
      const session = await deps.database.c.sessions.findOne({ _id: hash });
      if (!session) return null;
      const user = await deps.database.c.users.findOne({ _id: session.userId });
      return user ? { session, user } : null;
    },
    { tags: [], bytes: () => 512 },
  );
  if (!found) return null;
  const t = now();
  if (found.session.expiresAt <= t) return null;
  if (t.getTime() - found.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    found.session.lastSeenAt = t;
    await deps.database.c.sessions.updateOne({ _id: hash }, { $set: { lastSeenAt: t } });
  }
  return found.user;
}

export async function endSession(deps: StoreDeps, sessionId: string): Promise<void> {
  const hash = sha256(sessionId);
  await deps.database.c.sessions.deleteOne({ _id: hash });
  deps.cache.delete(sessionKey(hash));
}

export async function endAllSessions(deps: StoreDeps, userId: string): Promise<number> {
  const ended = await deps.database.c.sessions.find({ userId }, { projection: { _id: 1 } }).toArray();
  const n = (await deps.database.c.sessions.deleteMany({ userId })).deletedCount;
  for (const s of ended) deps.cache.delete(sessionKey(s._id));
  deps.cache.deleteTag(userTag(userId));
  return n;
}
