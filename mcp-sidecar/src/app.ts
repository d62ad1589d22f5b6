import type { Config } from "@atelier/shared/config";
import { trustProxySetting } from "@atelier/shared/config";
import type { Database } from "@atelier/shared/db";
import { healthHandler } from "@atelier/shared/health";
import { createHttpLogger } from "@atelier/shared/http-log";
import type { Logger } from "@atelier/shared/logger";
import express, { type ErrorRequestHandler, type Express } from "express";
import { AppError, translateDbError } from "@atelier/shared/errors";
import { mcpRoutes } from "./mcp-endpoint";

export interface SidecarDeps {
  config: Config;
  database: Database;
  logger: Logger;
}

export function createSidecarApp(deps: SidecarDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("trust proxy", trustProxySetting(deps.config.TRUST_PROXY));
  app.use(createHttpLogger(deps.logger));
  app.get("/healthz", healthHandler(deps.database));
  app.use(mcpRoutes(deps));
  app.use((_req, res) => {
    res.status(404).json({ error: "not_found", error_description: "The MCP endpoint is /mcp." });
  });
  app.use(mcpErrorHandler(deps.logger));
  return app;
}

/** Anything a route did not answer itself: the JSON error shape, never a stack. */
function mcpErrorHandler(logger: Logger): ErrorRequestHandler {
  return (raw: unknown, _req, res, _next) => {
    const err = translateDbError(raw);
    if (res.headersSent) return;
    if (err instanceof AppError) {
      if (err.retryAfter !== undefined) res.set("Retry-After", String(err.retryAfter));
      res.status(err.rule.http).json(err.toHttpBody());
      return;
    }
    logger.error({ err }, "unhandled error");
    res.status(500).json({ error: "internal_error", error_description: "Something went wrong on our side." });
  };
}
