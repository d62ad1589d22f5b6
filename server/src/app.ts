import { trustProxySetting } from "@atelier/shared/config";
import { createExpressMiddleware } from "@trpc/server/adapters/express";
import express, { type Express } from "express";
import { createHttpLogger } from "@atelier/shared/http-log";
import { createContextFactory, type Deps } from "./context";
import { healthHandler } from "@atelier/shared/health";
import { errorHandler, notFound } from "./http/errors";
import { appRouter } from "./router";

export function createApp(deps: Deps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trustProxySetting(deps.config.TRUST_PROXY));
  app.use(createHttpLogger(deps.logger));
  app.get("/healthz", healthHandler(deps.database));
  app.use(
    "/api/trpc",
    createExpressMiddleware({
      router: appRouter,
      createContext: createContextFactory(deps),
      onError: ({ error, path }) => {
        if (error.code === "INTERNAL_SERVER_ERROR") deps.logger.error({ err: error, path }, "tRPC error");
      },
    }),
  );
  app.get("/", (_req, res) => res.redirect(308, "/app/"));
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
