import type { Config } from "@atelier/shared/config";
import { trustProxySetting } from "@atelier/shared/config";
import type { Database } from "@atelier/shared/db";
import { healthHandler } from "@atelier/shared/health";
import { createHttpLogger } from "@atelier/shared/http-log";
import type { Logger } from "@atelier/shared/logger";
import express, { type Express } from "express";

export interface SidecarDeps {
  config: Config;
  database: Database;
  logger: Logger;
}

export function createSidecarApp(deps: SidecarDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trustProxySetting(deps.config.TRUST_PROXY));
  app.use(createHttpLogger(deps.logger));
  app.get("/healthz", healthHandler(deps.database));
  app.use((_req, res) => {
    res.status(404).json({ error: "not_found", error_description: "The MCP endpoint is /mcp." });
  });
  return app;
}
