import { trustProxySetting } from "@atelier/shared/config";
import type { Deps } from "@atelier/shared/domain/deps";
import { healthHandler } from "@atelier/shared/health";
import { createHttpLogger } from "@atelier/shared/http-log";
import type { Logger } from "@atelier/shared/logger";
import express, { type Express } from "express";
import { errorMiddleware } from "@atelier/shared/http-errors";
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
  app.use((_req, res) => {
    res.status(404).json({ error: "not_found", error_description: "The MCP endpoint is /mcp." });
  });
  app.use(errorMiddleware(deps.logger));
  return app;
}
