import { connectWithRetry } from "@atelier/shared/boot";
import { loadConfigOrExit } from "@atelier/shared/config";
import { ReadCache } from "@atelier/shared/domain/cache";
import { createMailer } from "@atelier/shared/domain/mail";
import { createLogger } from "@atelier/shared/logger";
import { keepAliveLongerThanPeers, shutdownOnSignals } from "@atelier/shared/process";
import { createSidecarApp } from "./app";

const config = loadConfigOrExit();
const logger = createLogger({ name: "mcp-sidecar", level: config.LOG_LEVEL });
const database = await connectWithRetry(config, logger, "atelier-mcp-sidecar");
const mailer = createMailer(config);
const cache = new ReadCache(config.CACHE_TTL_MS, config.CACHE_MAX_BYTES);
const server = createSidecarApp({ config, database, logger, mailer, cache }).listen(config.SIDECAR_PORT, config.LISTEN_HOST, () => {
  logger.info({ port: config.SIDECAR_PORT }, "mcp sidecar listening");
});
keepAliveLongerThanPeers(server);
shutdownOnSignals({
  server,
  logger,
  onClosed: async () => {
    mailer.close();
    await database.client.close();
  },
});
