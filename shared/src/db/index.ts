import { MongoClient, type Db } from "mongodb";
import { collections, ensureIndexes, type Collections } from "./collections";
import { migrate } from "./migrations";

export type * from "./documents";
export { COLLECTION_NAMES, collections, ensureIndexes, type CollectionName, type Collections } from "./collections";
export { contractViolations, watchContract, type ContractViolation } from "./contract";
export { insertOnce } from "./insert-once";

/** A connected database: what every domain function receives. */
export interface Database {
  client: MongoClient;
  db: Db;
  c: Collections;
}

export interface ConnectOptions {
  /** How long an operation may wait for a reachable server before failing (ms). */
  serverSelectionTimeoutMS?: number;
  appName?: string;
  /** Emit command events (tests check every command against the storage contract). */
  monitorCommands?: boolean;
}

/** Connects, checks the server answers, and makes sure every index exists. */
export async function connectDatabase(uri: string, dbName: string, opts: ConnectOptions = {}): Promise<Database> {
  const client = new MongoClient(uri, {
    serverSelectionTimeoutMS: opts.serverSelectionTimeoutMS ?? 5_000,
    appName: opts.appName ?? "atelier",
    monitorCommands: opts.monitorCommands ?? false,
  });
  await client.connect();
  const db = client.db(dbName);
  await ensureIndexes(db);
  await migrate(db);
  return { client, db, c: collections(db) };
}

/** True when the database answers a ping within `timeoutMS`. */
export async function pingDatabase(database: Database, timeoutMS = 1_500): Promise<boolean> {
  try {
    await Promise.race([
      database.db.command({ ping: 1 }),
      new Promise((_, reject) => setTimeout(() => reject(new Error("ping timed out")), timeoutMS).unref()),
    ]);
    return true;
  } catch {
    return false;
  }
}
