// `pnpm db`: only the embedded database, in the foreground, for tools like mongosh.
import path from "node:path";
import { loadConfigOrExit } from "../config";
import { startEmbeddedDb } from "./embedded-db";

const config = loadConfigOrExit();
const db = await startEmbeddedDb({
  mongodbUri: config.MONGODB_URI,
  dataDir: path.join(config.DATA_DIR, "db"),
  port: 27017,
  log: (l) => console.log(l),
});
console.log(`MONGODB_URI=${db.uri}`);
const stop = () => void db.stop().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
