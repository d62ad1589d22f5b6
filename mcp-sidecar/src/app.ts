import { trustProxySetting, type Config } from "@atelier/shared/config";
import type { Deps } from "@atelier/shared/domain/deps";
import { healthHandler } from "@atelier/shared/health";
import { createHttpLogger } from "@atelier/shared/http-log";
import type { Logger } from "@atelier/shared/logger";
import express, { type ErrorRequestHandler, type Express } from "express";
import { bearerChallenge } from "@atelier/shared/domain/discovery";
import { AppError, translateDbError } from "@atelier/shared/errors";
import { sendError } from "@atelier/shared/http-errors";
import { mcpRoutes } from "./mcp-endpoint";

/** What the sidecar process builds once: the domain's deps and its logger. */
export interface SidecarDeps extends Deps {
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
  app.use(() => {
    throw new AppError("not_found", "The MCP endpoint is /mcp.");
  });
  app.use(mcpErrorHandler(deps.config, deps.logger));
  return app;
}

/**
 * /mcp's refusals: the one shared mapping (@atelier/shared/errors: status, body, Retry-After,
 * JSON-RPC codes) with the headers that belong to an MCP endpoint added — the RFC 9728
 * challenge on 401/403 and Allow on 405. Never a stack.
 */
function mcpErrorHandler(config: Config, logger: Logger): ErrorRequestHandler {
  return (raw: unknown, req, res, _next) => {
    const err = translateDbError(raw);
    if (res.headersSent) return;
    if (err instanceof AppError) {
      const scope = typeof err.details?.scope === "string" ? err.details.scope : undefined;
      if (err.code === "unauthorized") res.set("WWW-Authenticate", bearerChallenge(config.BASE_URL, { scope }));
      if (err.code === "invalid_token") res.set("WWW-Authenticate", bearerChallenge(config.BASE_URL, { error: "invalid_token", description: err.message }));
      if (err.code === "insufficient_scope") res.set("WWW-Authenticate", bearerChallenge(config.BASE_URL, { error: "insufficient_scope", description: err.message, scope }));
      if (err.code === "method_not_allowed") {
        res.set("Allow", "POST, OPTIONS");
        // A person who opened /mcp in a browser gets a pointer to the guide.
        if (req.method === "GET" && req.accepts(["json", "html"]) === "html") {
          res
            .status(405)
            .type("html")
            .send(`<!doctype html><meta charset="utf-8"><title>Atelier MCP</title><p>This is Atelier's MCP endpoint; MCP clients POST to it. To connect an agent, see <a href="/docs/connect/agents">the connection guide</a>.</p>`);
          return;
        }
      }
    }
    sendError(res, err, logger);
  };
}
