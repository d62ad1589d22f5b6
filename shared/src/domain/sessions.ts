// App sessions: an opaque random id in an HttpOnly cookie; only its SHA-256 is stored.
import type { Database, UserDoc } from "../db/index";
import { newSecret, sha256 } from "../ids";
import { addSeconds, now } from "./clock";

export const SESSION_TTL_SECONDS = 30 * 86_400;
const TOUCH_EVERY_MS = 60_000;

export async function createSession(database: Database, userId: string): Promise<{ sessionId: string; expiresAt: Date }> {
  const sessionId = newSecret(32);
  const t = now();
  const expiresAt = addSeconds(t, SESSION_TTL_SECONDS);
  await database.c.sessions.insertOne({ _id: sha256(sessionId), userId, createdAt: t, expiresAt, lastSeenAt: t });
  return { sessionId, expiresAt };
}

/** The signed-in user for a session id, or null when it is unknown, ended or expired. */
export async function resolveSession(database: Database, sessionId: string): Promise<UserDoc | null> {
  if (!sessionId || sessionId.length > 100) return null;
  const t = now();
  const session = await database.c.sessions.findOne({ _id: sha256(sessionId), expiresAt: { $gt: t } });
  if (!session) return null;
  if (t.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await database.c.sessions.updateOne({ _id: session._id }, { $set: { lastSeenAt: t } });
  }
  return database.c.users.findOne({ _id: session.userId });
}

export async function endSession(database: Database, sessionId: string): Promise<void> {
  await database.c.sessions.deleteOne({ _id: sha256(sessionId) });
}

export async function endAllSessions(database: Database, userId: string): Promise<number> {
  return (await database.c.sessions.deleteMany({ userId })).deletedCount;
}
