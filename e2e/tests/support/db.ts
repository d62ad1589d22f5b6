// Read-only checks against the database after the fact ("is every acknowledged write there,
// exactly once?"). Data is only ever seeded through the public surface.
import { MongoClient, type Db } from "mongodb";
import { stack } from "./stack";

export async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const client = new MongoClient(stack.mongodbUri, { serverSelectionTimeoutMS: 10_000 });
  try {
    await client.connect();
    return await fn(client.db(stack.mongodbDb));
  } finally {
    await client.close();
  }
}

export const CONTENT_COLLECTIONS = [
  "users",
  "sessions",
  "loginCodes",
  "workspaces",
  "collections",
  "pages",
  "revisions",
  "rows",
  "tokens",
  "registrations",
  "events",
] as const;

/** Document counts of every collection that holds content or identities. */
export function countAll(db: Db): Promise<Record<string, number>> {
  return Promise.all(CONTENT_COLLECTIONS.map(async (c) => [c, await db.collection(c).countDocuments({})] as const)).then(Object.fromEntries);
}
