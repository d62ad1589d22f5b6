import { connectWithRetry } from "@atelier/shared/boot";
import { loadConfigOrExit } from "@atelier/shared/config";
import { ReadCache } from "@atelier/shared/domain/cache";
import { ViewCounter } from "@atelier/shared/domain/analytics/counter";
import { ChangeFollower } from "@atelier/shared/domain/changes/follower";
import { createMailer } from "@atelier/shared/domain/mail";
import { bufferedStdout, createLogger } from "@atelier/shared/logger";
import { createServer } from "node:http";
import { awaitWritesSettled } from "@atelier/shared/domain/versioned-write";
import { keepAliveLongerThanPeers, shutdownOnSignals } from "@atelier/shared/process";
import { createSidecarApp } from "./app";

const config = loadConfigOrExit();
const logger = createLogger({ name: "mcp-sidecar", level: config.LOG_LEVEL });
const database = await connectWithRetry(config, logger, "atelier-mcp-sidecar");
const mailer = createMailer(config);
const cache = new ReadCache(config.CACHE_TTL_MS, config.CACHE_MAX_BYTES);
// Follows the change feed: drops what other processes changed from this process's cache and
// tells the resource subscriptions (subscriptions.ts).
const follower = await new ChangeFollower({ database, config, cache }, (err) => logger.warn({ err }, "following the change feed failed; retrying")).start();
// Request lines are buffered (written in blocks); everything else is written at once.
const requestLogger = createLogger({ name: "mcp-sidecar", level: config.LOG_LEVEL, destination: bufferedStdout(), redact: false });
// Agent reads (get_page, resources/read) are counted in memory and written as increments (docs/ARCHITECTURE.md#reading-figures).
const views = new ViewCounter({ database, config }).start((err) => logger.warn({ err }, "writing reading figures failed; kept for the next flush"));
const app = createSidecarApp({ config, database, logger, requestLogger, mailer, cache, follower, views });
const server = createServer(app).listen(config.SIDECAR_PORT, config.LISTEN_HOST, () => {
  logger.info({ port: config.SIDECAR_PORT }, "mcp sidecar listening");
});
keepAliveLongerThanPeers(server);
shutdownOnSignals({
  server,
  logger,
  onStopping: () => void app.closeStreams(),
  onClosed: async () => {
    // Versions this process answered for and is still finishing (late steps; WRITE_FINISH=after_answer).
    await awaitWritesSettled();
    await views.stop().catch((err: unknown) => logger.error({ err }, "writing the last reading figures failed"));
    await follower.stop();
    mailer.close();
    await database.client.close();
  },
});
