import { databaseReachable } from "@atelier/shared/health";
import { z } from "zod";
import { publicProcedure, router } from "../../trpc";

export const healthRouter = router({
  health: publicProcedure
    .output(z.object({ database: z.enum(["ok", "unavailable"]) }))
    .query(async ({ ctx }) => ({ database: (await databaseReachable(ctx)) ? "ok" : "unavailable" })),
});
