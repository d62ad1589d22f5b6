// Request logging for every HTTP process: method, path (never the query), status, time.
// Headers and bodies are not logged, so no credential, cookie or code can leak into a log.
import type { IncomingMessage } from "node:http";
import { pinoHttp, type HttpLogger } from "pino-http";
import type { Logger } from "./logger";

export function createHttpLogger(logger: Logger): HttpLogger {
  return pinoHttp({
    logger,
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split("?")[0],
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    autoLogging: { ignore: (req: IncomingMessage) => req.url === "/healthz" },
  });
}
