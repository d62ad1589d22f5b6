// The receiving end of nginx's view log (docs/ARCHITECTURE.md#reading-figures): syslog lines
// over UDP, one per read of a published page, at ANALYTICS_NGINX_LOG. The address nginx
// names is the one nginx sends to, so one process per machine receives; the others on the
// same address find it taken and try again every few seconds, taking over when the one
// receiving stops. Lines are counted in memory like any view (ViewCounter); the raw
// address in a line is hashed and dropped, never logged or stored.
import dgram from "node:dgram";
import type { ViewCounter } from "@atelier/shared/domain/analytics/counter";
import { countLoggedRead, parseViewLine, publicPageLookup } from "@atelier/shared/domain/analytics/views";
import type { StoreDeps } from "@atelier/shared/domain/deps";
import type { Logger } from "@atelier/shared/logger";

export interface ViewLog {
  /** Lines received and counted as views since start (tests and the bench read them). */
  readonly received: number;
  readonly counted: number;
  /** Lines still being looked up (tests wait for 0). */
  readonly pending: number;
  /** Resolves once this process receives (tests wait for it). */
  readonly listening: Promise<void>;
  close(): Promise<void>;
}

const RETRY_MS = 5000;

export function startViewLog(deps: StoreDeps & { views?: ViewCounter; logger: Logger }, listen: string, retryMs = RETRY_MS): ViewLog {
  const i = listen.lastIndexOf(":");
  const host = listen.slice(0, i).replace(/^\[|\]$/g, "");
  const port = Number(listen.slice(i + 1));
  const lookup = publicPageLookup(deps);
  let socket: dgram.Socket | null = null;
  let retry: NodeJS.Timeout | null = null;
  let closed = false;
  let received = 0;
  let counted = 0;
  let pending = 0;
  let ready: () => void = () => {};
  const listening = new Promise<void>((resolve) => (ready = resolve));

  const open = (): void => {
    if (closed) return;
    const s = dgram.createSocket({ type: host.includes(":") ? "udp6" : "udp4", recvBufferSize: 4 * 1024 * 1024 });
    socket = s;
    s.on("message", (msg) => {
      received++;
      const read = parseViewLine(msg.toString("latin1"));
      if (!read) return;
      pending++;
      countLoggedRead(deps.views, lookup, read)
        .then(
          (yes) => {
            if (yes) counted++;
          },
          (err: unknown) => deps.logger.warn({ err }, "counting a logged view failed"),
        )
        .finally(() => pending--);
    });
    s.on("error", (err: NodeJS.ErrnoException) => {
      s.close();
      if (socket === s) socket = null;
      if (closed) return;
      // Another process on this machine receives: stand by and try again.
      if (err.code !== "EADDRINUSE") deps.logger.warn({ err, listen }, "the view log socket failed; trying again");
      retry = setTimeout(open, retryMs);
      retry.unref();
    });
    s.on("listening", () => {
      deps.logger.info({ listen }, "receiving nginx's view log");
      ready();
    });
    s.bind(port, host);
    s.unref();
  };
  open();

  return {
    get received() {
      return received;
    },
    get counted() {
      return counted;
    },
    get pending() {
      return pending;
    },
    listening,
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      const s = socket;
      socket = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}
