import { connectWithRetry } from "@atelier/shared/boot";
import { loadConfigOrExit } from "@atelier/shared/config";
import { ReadCache } from "@atelier/shared/domain/cache";
import { ViewCounter } from "@atelier/shared/domain/analytics/counter";
import { ChangeFollower } from "@atelier/shared/domain/changes/follower";
import { createMailer } from "@atelier/shared/domain/mail";
import { startMentionMailer } from "@atelier/shared/domain/comments/mentions";
import { startSweeper } from "@atelier/shared/domain/sweeper";
import { startWebhookWorker } from "@atelier/shared/domain/webhooks/delivery";
import { bufferedStdout, createLogger } from "@atelier/shared/logger";
import { awaitWritesSettled } from "@atelier/shared/domain/versioned-write";
import { keepAliveLongerThanPeers, shutdownOnSignals } from "@atelier/shared/process";
import { createServer } from "node:http";
import { createApp } from "./app";
import { endAllStreams } from "./features/events/sse";
import { leanArtifactFront } from "./http/lean-artifacts";
import { startViewLog } from "./features/analytics/view-log";

const config = loadConfigOrExit();
const logger = createLogger({ name: "server", level: config.LOG_LEVEL });
const database = await connectWithRetry(config, logger, "atelier-server");
const mailer = createMailer(config);
if (!config.SMTP_URL) logger.warn("SMTP_URL is not set: mail goes to the development outbox in DATA_DIR/outbox and the console");
const cache = new ReadCache(config.CACHE_TTL_MS, config.CACHE_MAX_BYTES);
// Follows the change feed: drops what other processes changed from this process's cache and
// hands each change to this process's live streams.
const follower = await new ChangeFollower({ database, config, cache }, (err) => logger.warn({ err }, "following the change feed failed; retrying")).start();
// Reading figures: counted in memory, written as increments every ANALYTICS_FLUSH_SECONDS and at shutdown.
const views = new ViewCounter({ database, config }).start((err) => logger.warn({ err }, "writing reading figures failed; kept for the next flush"));
const app = createApp({ config, database, logger, mailer, cache, follower, views });
// Reads nginx counted (its view log), when nginx is in front: docs/ARCHITECTURE.md#reading-figures.
const viewLog = config.ANALYTICS_NGINX_LOG ? startViewLog({ database, config, cache, views, logger }, config.ANALYTICS_NGINX_LOG) : null;
// Public pages this process holds answer before Express, with their request lines buffered.
const front = leanArtifactFront(
  { cache, views, logger: createLogger({ name: "server", level: config.LOG_LEVEL, destination: bufferedStdout(), redact: false }) },
  app,
);
const server = createServer(front.listener).listen(config.SERVER_PORT, config.LISTEN_HOST, () => {
  logger.info({ port: config.SERVER_PORT, baseUrl: config.BASE_URL }, "server listening");
});
// Sends webhook deliveries (any number of processes may: each takes a delivery with a lease); at once when a workspace changed.
const webhooks = startWebhookWorker({ database, config, mailer }, 1000, (err) => logger.error({ err }, "webhook pass failed"));
follower.subscribe((s) => {
  if (s.kind === "workspace") webhooks.kick();
});
// Sends mention mails once due (docs/comments.md#mentions); any number of processes may: each person's mail is taken with a lease.
const mentionMailer = startMentionMailer({ database, config, mailer }, 10_000, (err) => logger.error({ err }, "mention mail pass failed"));
const sweeper = startSweeper({ database, config, cache }, config.SWEEP_INTERVAL_SECONDS, (err) => logger.error({ err }, "sweep failed"));
keepAliveLongerThanPeers(server);
shutdownOnSignals({
  server,
  logger,
  onStopping: endAllStreams,
  onClosed: async () => {
    // Versions this process answered for and is still finishing (late steps; WRITE_FINISH=after_answer).
    await awaitWritesSettled();
    await sweeper.stop();
    await mentionMailer.stop();
    await webhooks.stop();
    // After the last request has finished: every view counted is written before the database closes.
    await viewLog?.close();
    await views.stop().catch((err: unknown) => logger.error({ err }, "writing the last reading figures failed"));
    await follower.stop();
    mailer.close();
    await database.client.close();
  },
});
