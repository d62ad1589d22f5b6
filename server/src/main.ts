import { connectWithRetry } from "@atelier/shared/boot";
import { loadConfigOrExit } from "@atelier/shared/config";
import { createLogger } from "@atelier/shared/logger";
import { shutdownOnSignals } from "@atelier/shared/process";
import { createApp } from "./app";

const config = loadConfigOrExit();
const logger = createLogger({ name: "server", level: config.LOG_LEVEL });
const database = await connectWithRetry(config, logger, "atelier-server");
const server = createApp({ config, database, logger }).listen(config.SERVER_PORT, config.LISTEN_HOST, () => {
  logger.info({ port: config.SERVER_PORT, baseUrl: config.BASE_URL }, "server listening");
});
shutdownOnSignals({ server, logger, onClosed: () => database.client.close() });
