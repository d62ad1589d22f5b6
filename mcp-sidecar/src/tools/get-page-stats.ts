import { pageStats } from "@atelier/shared/domain/analytics/stats";
import { PageStatsInputSchema, PageStatsViewSchema } from "@atelier/shared/schemas/analytics";
import { z } from "zod";
import { defineTool, READ } from "./define";

export const getPageStats = defineTool({
  name: "get_page_stats",
  input: PageStatsInputSchema,
  output: z.object({ stats: PageStatsViewSchema }),
  annotations: READ,
  async run(ctx, input) {
    return { stats: await pageStats(ctx, ctx.principal, input) };
  },
});
