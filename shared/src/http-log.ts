// Request logging for every HTTP process: method, path (never the query), status, time.
// Headers and bodies are not logged, so no credential, cookie or code can leak into a log.
import type { IncomingMessage } from "node:http";
import { pinoHttp, type HttpLogger } from "pino-http";
import type { Logger } from "./logger";

/** The path without its query, and without the id of an OAuth authorization request (it travels in paths). */
export function loggedPath(url: string): string {
  return (url.split("?")[0] ?? "").replace(/^\/oauth\/(interaction|authorize)\/[^/]+/, "/oauth/$1/:uid").replace(/^\/app\/oauth\/consent\/[^/]+/, "/app/oauth/consent/:uid");
}

export function createHttpLogger(logger: Logger): HttpLogger {
  return pinoHttp({
    logger,
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        path: loggedPath(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    autoLogging: { ignore: (req: IncomingMessage) => req.url === "/healthz" },
  });
}
