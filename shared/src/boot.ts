// What every process does first: read the configuration, make its logger, reach the database.
import type { Config } from "./config";
import { connectDatabase, type Database } from "./db/index";
import type { Logger } from "./logger";

/** Connects to MONGODB_URI, retrying for up to `waitMs` while the database comes up. */
export async function connectWithRetry(config: Config, logger: Logger, appName: string, waitMs = 30_000): Promise<Database> {
  if (!config.MONGODB_URI) {
    logger.fatal(
      "MONGODB_URI is not set. `pnpm dev` and `pnpm start` start the embedded database and set it for you; " + "to run this process alone, set MONGODB_URI.",
    );
    process.exit(1);
  }
  const deadline = Date.now() + waitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await connectDatabase(config.MONGODB_URI, config.MONGODB_DB, { appName });
    } catch (err) {
      if (Date.now() > deadline) throw err;
      logger.warn({ attempt, err: (err as Error).message }, "database not reachable yet; retrying");
      await new Promise((r) => setTimeout(r, Math.min(2_000, 200 * attempt)));
    }
  }
}
