// Reading figures (issue 32, docs/ARCHITECTURE.md#reading-figures): what the app and agents
// ask for and what they get. Counts only: no address, no visitor, no hash is ever shown.
import { z } from "zod";
import { SlugSchema } from "./common";

export const PageStatsInputSchema = z
  .object({
    slug: SlugSchema.describe("The page's address (its slug)."),
  })
  .strict();
export type PageStatsInput = z.infer<typeof PageStatsInputSchema>;

export const WorkspaceStatsInputSchema = z
  .object({
    workspace: SlugSchema.describe("The workspace's slug."),
  })
  .strict();
export type WorkspaceStatsInput = z.infer<typeof WorkspaceStatsInputSchema>;

const DaySchema = z.object({ day: z.string(), views: z.number().int(), uniques: z.number().int() });

export const StatsTotalsSchema = z.object({
  views: z.number().int().describe("Page views by people (and machine views), bots excluded"),
  uniques: z.number().int().describe("Distinct visitors, summed over the days (one reader on two days counts twice)"),
  bots: z.number().int().describe("Views by bots, crawlers and scripts, counted apart"),
  agent_reads: z.number().int().describe("Reads through MCP (get_page, resources/read) by agents with a token or OAuth grant"),
});

export const PageStatsViewSchema = z.object({
  slug: z.string(),
  page_id: z.string(),
  /** The last 30 days, oldest first, each day present (zero when nobody read it). */
  days: z.array(DaySchema),
  totals: StatsTotalsSchema.describe("Over the last 30 days"),
  all_time: z.object({ views: z.number().int(), agent_reads: z.number().int() }).describe("Everything kept, monthly rows included"),
  referrers: z.array(z.object({ host: z.string(), views: z.number().int() })).describe("Top referring sites over the last 30 days (host only)"),
  agents: z.array(z.object({ agent: z.string(), label: z.string(), reads: z.number().int() })).describe("Agent reads over the last 30 days, by agent"),
  share_links: z
    .array(z.object({ link_id: z.string(), views: z.number().int(), uniques: z.number().int(), days: z.array(DaySchema) }))
    .describe("Views through each share link over the last 30 days"),
});
export type PageStatsView = z.infer<typeof PageStatsViewSchema>;

export const WorkspaceStatsViewSchema = z.object({
  workspace: z.string(),
  days: z.array(DaySchema),
  totals: StatsTotalsSchema,
  top_pages: z.array(z.object({ slug: z.string(), title: z.string(), views: z.number().int(), uniques: z.number().int(), agent_reads: z.number().int() })),
});
export type WorkspaceStatsView = z.infer<typeof WorkspaceStatsViewSchema>;
