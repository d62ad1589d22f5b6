// Running an HTTP server until a signal: stop accepting, let in-flight requests finish,
// close what the process holds (the database), then exit.
import type { Server } from "node:http";
import type { Logger } from "./logger";

/** Whether a process with this pid is running on this machine (one we may not signal counts). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Idle keep-alive connections are closed by the client or proxy, never by us first: a server
 * that closes an idle socket just as the peer reuses it turns that request into a reset
 * (nginx keeps upstream connections 4 s, Node's fetch 4 s; Node's own default is 5 s).
 */
export function keepAliveLongerThanPeers(server: Server): Server {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}

export interface ServeOptions {
  server: Server;
  logger: Logger;
  /** Closed after the HTTP server has drained (the database, timers). */
  onClosed: () => Promise<void>;
  /** How long in-flight requests may take before their connections are cut. */
  graceMs?: number;
  /** Called as shutting down starts: ends what never finishes by itself (the live streams). */
  onStopping?: () => void;
}

export function shutdownOnSignals({ server, logger, onClosed, graceMs = 10_000, onStopping }: ServeOptions): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: no new connections, finishing in-flight requests");
    const force = setTimeout(() => {
      logger.warn("grace period over; closing remaining connections");
      server.closeAllConnections();
    }, graceMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      onClosed()
        .catch((err: unknown) => logger.error({ err }, "error while closing"))
        .finally(() => {
          logger.info("stopped");
          process.exit(0);
        });
    });
    // Idle keep-alive sockets would hold close() open; busy ones finish their request first.
    // Streams never finish: they end now, and their browsers reconnect to another process.
    onStopping?.();
    server.closeIdleConnections();
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

/**
 * The node flags every production process runs with (`pnpm start`, deploy/README.md, the e2e
 * suite's production topology, the benchmarks). A heap limit of 512 MB: V8 lets the old
 * generation grow to a multiple of what survived the last full collection before it collects
 * again, and that multiple scales with the heap limit, from 1.3 at 256 MB up to 4 at 2 GB and
 * beyond; by default the limit is a quarter of the machine's memory (4 GB here), so a process
 * whose live heap is 50–60 MB under load sat at 300–340 MB resident. With 512 MB the multiple
 * is about 1.4 and the same load stays under 200 MB, at no measured cost in throughput
 * (docs/performance.md). Request bodies are buffers outside this heap. A NODE_OPTIONS that
 * sets its own limit wins.
 */
export function productionNodeFlags(env: Record<string, string | undefined>): string[] {
  return /--max-old-space-size\b/.test(env.NODE_OPTIONS ?? "") ? [] : ["--max-old-space-size=512"];
}
