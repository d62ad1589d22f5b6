import { trustProxySetting } from "@atelier/shared/config";
import { AppError } from "@atelier/shared/errors";
import { createExpressMiddleware } from "@trpc/server/adapters/express";
import express, { type Express } from "express";
import { createHttpLogger } from "@atelier/shared/http-log";
import { createContextFactory, type Deps } from "./context";
import { healthHandler } from "@atelier/shared/health";
import { artifactRoutes } from "./features/artifacts/artifacts.routes";
import { fileRoutes } from "./features/files/files.routes";
import { agentAuthRoutes } from "./features/agent-auth/agent-auth.routes";
import { discoveryRoutes } from "./features/discovery/discovery.routes";
import { notFound } from "./http/errors";
import { errorMiddleware } from "@atelier/shared/http-errors";
import { createOAuthProvider } from "./features/oauth/oauth-provider";
import { oauthRoutes } from "./features/oauth/oauth.routes";
import { sameOriginOnly } from "./http/same-origin";
import { spaRoutes } from "./http/spa";
import { createProxyMiddleware } from "http-proxy-middleware";
import { appRouter } from "./router";
import { analyticsRoutes } from "./features/analytics/analytics.routes";
import { eventRoutes } from "./features/events/events.routes";
import { workspaceArchiveRoutes } from "./features/workspaces/archive.routes";

export function createApp(deps: Deps): Express {
  const app = express();
  app.disable("x-powered-by");
  // ETags are ours (artifact routes); Express's automatic ones would hash every body.
  app.set("etag", false);
  app.set("trust proxy", trustProxySetting(deps.config.TRUST_PROXY));
  app.use(createHttpLogger(deps.logger));
  app.get("/healthz", healthHandler(deps.database));
  // A single-machine install without a reverse proxy: /mcp is forwarded to the sidecar (only
  // /mcp itself: /mcp/server-card is ours, as nginx routes it).
  if (deps.config.SIDECAR_URL) {
    app.use(createProxyMiddleware({ target: deps.config.SIDECAR_URL, pathFilter: (pathname) => pathname === "/mcp", xfwd: true, changeOrigin: false }));
  }
  // The authorization server answers other origins by design (token, registration and
  // revocation requests come from clients anywhere), so it sits before the same-origin guard.
  const oauth = createOAuthProvider(deps);
  app.use(oauthRoutes(deps, oauth));
  app.use(analyticsRoutes());
  app.use(sameOriginOnly(deps.config.BASE_URL));
  app.use(
    "/api/trpc",
    createExpressMiddleware({
      router: appRouter,
      createContext: createContextFactory(deps, oauth),
      maxBodySize: 1_100_000,
      // A throttled call says when to come back (Retry-After), as every 429 here does.
      responseMeta: ({ errors }) => {
        const retryAfter = errors.map((e) => (e.cause instanceof AppError ? e.cause.retryAfter : undefined)).find((r) => r !== undefined);
        return retryAfter === undefined ? {} : { headers: { "Retry-After": String(retryAfter) } };
      },
      onError: ({ error, path }) => {
        if (error.code === "INTERNAL_SERVER_ERROR") deps.logger.error({ err: error, path }, "tRPC error");
      },
    }),
  );
  app.use(eventRoutes(deps));
  app.use(artifactRoutes(deps));
  app.use(fileRoutes(deps));
  app.use(discoveryRoutes(deps));
  app.use(agentAuthRoutes(deps));
  app.use(workspaceArchiveRoutes(deps));
  if (deps.config.WEB_DIST_DIR) app.use(spaRoutes(deps.config.WEB_DIST_DIR));
  app.get("/", (_req, res) => res.redirect(308, "/app/"));
  app.use(notFound);
  app.use(errorMiddleware(deps.logger));
  return app;
}
