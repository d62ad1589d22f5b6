// The database `pnpm backup` and `pnpm restore` work on: MONGODB_URI, else the running
// service's embedded database, else the embedded database started here for the command
// (the service stopped: an exact copy, and the way a restore should be done).
import path from "node:path";
import { instanceUri, type OpenDb } from "../backup/cli";
import { startEmbeddedDb } from "./embedded-db";

export const openOrStartDb: OpenDb = async (config) => {
  const uri = await instanceUri(config);
  if (uri) return { uri, exclusive: false, stop: async () => {} };
  const db = await startEmbeddedDb({ dataDir: path.join(config.DATA_DIR, "db") });
  return { uri: db.uri, exclusive: true, stop: () => db.stop() };
};
