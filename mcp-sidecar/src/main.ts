import { connectWithRetry } from "@atelier/shared/boot";
import { loadConfigOrExit } from "@atelier/shared/config";
import { createLogger } from "@atelier/shared/logger";
import { keepAliveLongerThanPeers, shutdownOnSignals } from "@atelier/shared/process";
import { createSidecarApp } from "./app";

const config = loadConfigOrExit();
const logger = createLogger({ name: "mcp-sidecar", level: config.LOG_LEVEL });
const database = await connectWithRetry(config, logger, "atelier-mcp-sidecar");
const server = createSidecarApp({ config, database, logger }).listen(config.SIDECAR_PORT, config.LISTEN_HOST, () => {
  logger.info({ port: config.SIDECAR_PORT }, "mcp sidecar listening");
});
keepAliveLongerThanPeers(server);
shutdownOnSignals({ server, logger, onClosed: () => database.client.close() });
