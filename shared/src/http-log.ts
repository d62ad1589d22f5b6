// Request logging for every HTTP process: method, path (never the query), status, time.
// Headers and bodies are not logged, so no credential, cookie or code can leak into a log.
import type { IncomingMessage } from "node:http";
import { pino } from "pino";
import { pinoHttp, type HttpLogger } from "pino-http";
import type { Logger } from "./logger";

/**
 * Path segments that are credentials (a share link's secret, an OAuth interaction id):
 * replaced before anything is logged. Query strings are never logged at all. Matched in any
 * letter case, after any run of slashes and with percent-escapes read, because a client may
 * send `/S/{secret}` or `//s/{secret}` (the server refuses those, but the request line is
 * logged all the same). The one list, also mirrored by deploy/nginx.conf's `$atelier_log_uri` map.
 */
const SECRET_SEGMENTS: [RegExp, string][] = [
  [/^\/+s\/+[^/]+/i, "/s/[redacted]"],
  [/^\/+oauth\/+(interaction|authorize)\/+[^/]+/i, "/oauth/$1/[redacted]"],
  [/^\/+app\/+oauth\/+consent\/+[^/]+/i, "/app/oauth/consent/[redacted]"],
];

/** The path of a request as it may be logged: no query, no credential. */
export function loggablePath(url: string): string {
  const raw = url.split("?")[0] ?? "";
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape: match the path as it came.
  }
  for (const [pattern, replacement] of SECRET_SEGMENTS) {
    if (pattern.test(decoded))
      return decoded.replace(pattern, (_m, g1: string | number) => replacement.replace("$1", typeof g1 === "string" ? g1.toLowerCase() : ""));
  }
  return raw;
}

/**
 * The request line of a path answered without pino-http (the server's lean read path, the
 * sidecar): the same fields pino-http writes through createHttpLogger's serializers.
 */
export function logRequest(
  logger: Logger,
  r: { id: string | number; method: string | undefined; url: string; statusCode: number; startedAt: number },
  message = "request completed",
): void {
  logger.info(
    {
      req: { id: r.id, method: r.method, path: loggablePath(r.url) },
      res: { statusCode: r.statusCode },
      responseTime: Math.round(performance.now() - r.startedAt),
    },
    message,
  );
}

/**
 * The same request line as `logRequest`, written from a template straight to the logger's
 * destination: for the server's lean read path, where pino building the line cost about
 * 6 µs of a request's ~30 (issue 30). The bytes are pino's own: the level, the ISO time,
 * the logger's bindings (pid, name) as pino holds them, then the fields in logRequest's
 * order (http-log.test.ts compares the two). Only for loggers made by createLogger with
 * `redact: false`: no redaction, mixins or formatters to apply.
 */
export function requestLineWriter(
  logger: Logger,
  message = "request completed",
): (r: { id: string | number; method: string | undefined; url: string; statusCode: number; startedAt: number }) => void {
  const destination = (logger as unknown as Record<symbol, { write(line: string): unknown }>)[pino.symbols.streamSym];
  const bindings = (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym];
  if (!destination || typeof bindings !== "string") throw new Error("requestLineWriter needs a pino logger");
  const level = pino.levels.values.info;
  const tail = `,"msg":${JSON.stringify(message)}}\n`;
  // The time as pino writes it, formatted once per millisecond (many lines share one under load).
  let ms = -1;
  let iso = "";
  return (r) => {
    if (!logger.isLevelEnabled("info")) return;
    const t = Date.now();
    if (t !== ms) {
      ms = t;
      iso = new Date(t).toISOString();
    }
    destination.write(
      `{"level":${level},"time":"${iso}"${bindings},"req":{"id":${JSON.stringify(r.id)},${r.method === undefined ? "" : `"method":${JSON.stringify(r.method)},`}` +
        `"path":${JSON.stringify(loggablePath(r.url))}},"res":{"statusCode":${r.statusCode}},"responseTime":${Math.round(performance.now() - r.startedAt)}${tail}`,
    );
  };
}

export function createHttpLogger(logger: Logger): HttpLogger {
  return pinoHttp({
    logger,
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        path: loggablePath(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    autoLogging: { ignore: (req: IncomingMessage) => req.url === "/healthz" },
  });
}
