import type { Collection } from "mongodb";
import { isDuplicateKey } from "../errors";

/** Inserts a document whose `_id` another call may have inserted already (a retry, a racing writer): whether this call inserted it. */
export async function insertOnce<T extends { _id: string }>(collection: Collection<T>, doc: T): Promise<boolean> {
  try {
    await collection.insertOne(doc as never);
    return true;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return false;
  }
}
