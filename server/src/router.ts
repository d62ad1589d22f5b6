import { analyticsRouter } from "./features/analytics/analytics.router";
import { authRouter } from "./features/auth/auth.router";
import { filesRouter } from "./features/files/files.router";
import { commentsRouter } from "./features/comments/comments.router";
import { healthRouter } from "./features/health/health.router";
import { meRouter } from "./features/me/me.router";
import { oauthRouter } from "./features/oauth/oauth.router";
import { pagesRouter } from "./features/pages/pages.router";
import { searchRouter } from "./features/search/search.router";
import { collectionsRouter, rowsRouter } from "./features/tables/tables.router";
import { tokensRouter } from "./features/tokens/tokens.router";
import { webhooksRouter } from "./features/webhooks/webhooks.router";
import { workspacesRouter } from "./features/workspaces/workspaces.router";
import { router } from "./trpc";

export const appRouter = router({
  system: healthRouter,
  auth: authRouter,
  me: meRouter,
  workspaces: workspacesRouter,
  pages: pagesRouter,
  tokens: tokensRouter,
  collections: collectionsRouter,
  rows: rowsRouter,
  oauth: oauthRouter,
  search: searchRouter,
  files: filesRouter,
  comments: commentsRouter,
  webhooks: webhooksRouter,
  analytics: analyticsRouter,
});

export type AppRouter = typeof appRouter;
