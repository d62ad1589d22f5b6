import { connectWithRetry } from "@atelier/shared/boot";
import { loadConfigOrExit } from "@atelier/shared/config";
import { ReadCache } from "@atelier/shared/domain/cache";
import { createMailer } from "@atelier/shared/domain/mail";
import { bufferedStdout, createLogger } from "@atelier/shared/logger";
import { createServer } from "node:http";
import { keepAliveLongerThanPeers, shutdownOnSignals } from "@atelier/shared/process";
import { createSidecarApp } from "./app";

const config = loadConfigOrExit();
const logger = createLogger({ name: "mcp-sidecar", level: config.LOG_LEVEL });
const database = await connectWithRetry(config, logger, "atelier-mcp-sidecar");
const mailer = createMailer(config);
const cache = new ReadCache(config.CACHE_TTL_MS, config.CACHE_MAX_BYTES);
// Request lines are buffered (written in blocks); everything else is written at once.
const requestLogger = createLogger({ name: "mcp-sidecar", level: config.LOG_LEVEL, destination: bufferedStdout(), redact: false });
const server = createServer(createSidecarApp({ config, database, logger, requestLogger, mailer, cache })).listen(
  config.SIDECAR_PORT,
  config.LISTEN_HOST,
  () => {
    logger.info({ port: config.SIDECAR_PORT }, "mcp sidecar listening");
  },
);
keepAliveLongerThanPeers(server);
shutdownOnSignals({
  server,
  logger,
  onClosed: async () => {
    mailer.close();
    await database.client.close();
  },
});
