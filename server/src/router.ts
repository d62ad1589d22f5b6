import { authRouter } from "./features/auth/auth.router";
import { healthRouter } from "./features/health/health.router";
import { meRouter } from "./features/me/me.router";
import { router } from "./trpc";

export const appRouter = router({
  system: healthRouter,
  auth: authRouter,
  me: meRouter,
});

export type AppRouter = typeof appRouter;
