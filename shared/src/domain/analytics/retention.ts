// Keeping reading figures (docs/ARCHITECTURE.md#reading-figures), run by the sweeper: the
// visitors and the salt of days that are over are deleted (after that no stored hash can be
// linked to anyone, not even by whoever holds the database), and daily rows older than
// ANALYTICS_RETENTION_DAYS are summed into one monthly row per page and share link.
import type { Config } from "../../config";
import type { Database, PageViewDoc } from "../../db/index";
import { now } from "../clock";
import { rowId } from "./counter";
import { dayOf } from "./visitors";

const BATCH = 500;

export async function sweepAnalytics(deps: { database: Database; config: Pick<Config, "ANALYTICS_RETENTION_DAYS"> }): Promise<number> {
  const { database } = deps;
  const today = dayOf(now());
  let cleared = 0;
  cleared += (await database.c.viewVisitors.deleteMany({ day: { $lt: today } })).deletedCount;
  cleared += (await database.c.analyticsSalts.deleteMany({ _id: { $lt: today } })).deletedCount;
  const oldest = dayOf(new Date(now().getTime() - deps.config.ANALYTICS_RETENTION_DAYS * 86_400_000));
  const old = await database.c.pageViews
    .find({ kind: "day", period: { $lt: oldest } })
    .limit(BATCH)
    .toArray();
  for (const r of old) {
    await foldIntoMonth(database, r);
    cleared++;
  }
  return cleared;
}

/**
 * Adds a day's counters to its month's row, then deletes the day. The day is first marked
 * (its kind becomes "folding") by one conditional update, so two sweepers never add it twice.
 * A sweeper stopped between the mark and the delete leaves that one day marked: counted in
 * the all-time totals, never added to its month (a crash mid-fold may leave one day apart).
 */
async function foldIntoMonth(database: Database, r: PageViewDoc): Promise<void> {
  const won = await database.c.pageViews.updateOne({ _id: r._id, kind: "day" }, { $set: { kind: "folding" as const } });
  if (won.modifiedCount !== 1) return;
  const inc: Record<string, number> = { views: r.views ?? 0, uniques: r.uniques ?? 0, bots: r.bots ?? 0 };
  for (const [k, n] of Object.entries(r.referrers ?? {})) inc[`referrers.${k}`] = n;
  for (const [k, n] of Object.entries(r.agents ?? {})) inc[`agents.${k}`] = n;
  const month = r.period.slice(0, 7);
  await database.c.pageViews.updateOne(
    { _id: rowId(r.pageId, r.shareLinkId, month) },
    { $inc: inc, $setOnInsert: { workspaceId: r.workspaceId, pageId: r.pageId, shareLinkId: r.shareLinkId, period: month, kind: "month" as const } },
    { upsert: true },
  );
  await database.c.pageViews.deleteOne({ _id: r._id });
}
