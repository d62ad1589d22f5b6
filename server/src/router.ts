import { healthRouter } from "./features/health/health.router";
import { router } from "./trpc";

export const appRouter = router({
  system: healthRouter,
});

export type AppRouter = typeof appRouter;
