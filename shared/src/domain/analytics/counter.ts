// Counting views cheaply (docs/ARCHITECTURE.md#reading-figures): each process adds what it
// sees to a batch in memory, and every ANALYTICS_FLUSH_SECONDS (and at a clean shutdown)
// writes the batch as `$inc` increments, one upsert per page (and share link) and day. A
// visitor's first view of a page in a day is its one unique: the salted hash is inserted
// into `viewVisitors` by `_id`, and only the inserts that created a document count, so any
// number of processes agree. A crash loses at most the last interval.
import { randomBytes } from "node:crypto";
import type { Database } from "../../db/index";
import type { Config } from "../../config";
import { sha256 } from "../../ids";
import { now, nowMs } from "../clock";
import { dayOf, hostKey } from "./visitors";

/** One view as an adapter saw it. */
export type ViewHit =
  | {
      kind: "visit";
      workspaceId: string;
      pageId: string;
      shareLinkId: string | null;
      /** visitorKey(address, user agent): in memory only. */
      visitor: string;
      referrer: string | null;
    }
  | { kind: "bot"; workspaceId: string; pageId: string; shareLinkId: string | null }
  | { kind: "agent"; workspaceId: string; pageId: string; agent: string };

interface Pending {
  workspaceId: string;
  pageId: string;
  shareLinkId: string | null;
  day: string;
  views: number;
  /** Uniques already settled in viewVisitors but not yet added to the row (a failed write's). */
  uniques: number;
  bots: number;
  referrers: Map<string, number>;
  agents: Map<string, number>;
  visitors: Set<string>;
}

export const rowId = (pageId: string, shareLinkId: string | null, period: string): string => `${pageId}|${shareLinkId ?? "-"}|${period}`;

type CounterDeps = { database: Database; config: Pick<Config, "ANALYTICS_ENABLED" | "ANALYTICS_FLUSH_SECONDS"> };

/** The salt of a day, shared by every process through the database; made by the first that needs it. */
async function saltOf(database: Database, day: string): Promise<string> {
  const found = await database.c.analyticsSalts.findOne({ _id: day });
  if (found) return found.salt;
  try {
    await database.c.analyticsSalts.insertOne({ _id: day, salt: randomBytes(32).toString("hex"), createdAt: now() });
  } catch (err) {
    if ((err as { code?: number }).code !== 11000) throw err;
  }
  const made = await database.c.analyticsSalts.findOne({ _id: day });
  if (!made) throw new Error("the day's salt could not be read back");
  return made.salt;
}

/**
 * Inserts the visitors not seen yet today and says how many were new: an unordered insert in
 * which a duplicate `_id` (a visitor already counted, by any process) is an error per
 * document, never for the rest. (Upserts by `_id` would say the same, but the embedded
 * FerretDB stalled on a batch of upserts that all matched.)
 */
async function insertNew(database: Database, docs: { _id: string; day: string }[]): Promise<number> {
  try {
    return (await database.c.viewVisitors.insertMany(docs, { ordered: false })).insertedCount;
  } catch (err) {
    const e = err as { code?: number; insertedCount?: number; writeErrors?: { code?: number }[] | { code?: number } };
    const errors = Array.isArray(e.writeErrors) ? e.writeErrors : e.writeErrors ? [e.writeErrors] : [];
    if (errors.length === 0 || errors.some((w) => w.code !== 11000)) throw err;
    return docs.length - errors.length;
  }
}

export class ViewCounter {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private salts = new Map<string, string>();

  /** The day of the last record and the moments it runs between (formatting a date costs more than a read's counting otherwise). */
  private day = { name: "", from: 0, until: 0 };

  constructor(private readonly deps: CounterDeps) {}

  private today(): string {
    const t = nowMs();
    if (t < this.day.from || t >= this.day.until) {
      const from = t - (t % 86_400_000);
      this.day = { name: dayOf(new Date(t)), from, until: from + 86_400_000 };
    }
    return this.day.name;
  }

  get enabled(): boolean {
    return this.deps.config.ANALYTICS_ENABLED;
  }

  /** Adds one view (or `times` alike) to the batch (nothing when counting is off). Synchronous and cheap: no I/O. */
  record(hit: ViewHit, times = 1): void {
    if (!this.enabled) return;
    const day = this.today();
    const link = hit.kind === "agent" ? null : hit.shareLinkId;
    const id = rowId(hit.pageId, link, day);
    let p = this.pending.get(id);
    if (!p) {
      p = {
        workspaceId: hit.workspaceId,
        pageId: hit.pageId,
        shareLinkId: link,
        day,
        views: 0,
        uniques: 0,
        bots: 0,
        referrers: new Map(),
        agents: new Map(),
        visitors: new Set(),
      };
      this.pending.set(id, p);
    }
    if (hit.kind === "bot") p.bots += times;
    else if (hit.kind === "agent") p.agents.set(hit.agent, (p.agents.get(hit.agent) ?? 0) + times);
    else {
      p.views += times;
      p.visitors.add(hit.visitor);
      if (hit.referrer) p.referrers.set(hit.referrer, (p.referrers.get(hit.referrer) ?? 0) + times);
    }
  }

  /** How many page-and-day rows wait for the next flush (tests read it). */
  get waiting(): number {
    return this.pending.size;
  }

  /** Writes the batch; runs one at a time. A row whose write fails goes back into the batch. */
  flush(): Promise<void> {
    const run = async (): Promise<void> => {
      if (this.flushing) await this.flushing;
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      let failure: unknown = null;
      for (const [id, p] of batch) {
        try {
          await this.write(id, p);
        } catch (err) {
          failure ??= err;
          this.putBack(id, p);
        }
      }
      if (failure) throw failure;
    };
    const f = run().finally(() => {
      if (this.flushing === f) this.flushing = null;
    });
    this.flushing = f;
    return f;
  }

  private putBack(id: string, p: Pending): void {
    const q = this.pending.get(id);
    if (!q) return void this.pending.set(id, p);
    q.views += p.views;
    q.uniques += p.uniques;
    q.bots += p.bots;
    for (const [k, n] of p.referrers) q.referrers.set(k, (q.referrers.get(k) ?? 0) + n);
    for (const [k, n] of p.agents) q.agents.set(k, (q.agents.get(k) ?? 0) + n);
    for (const v of p.visitors) q.visitors.add(v);
  }

  private async write(id: string, p: Pending): Promise<void> {
    const { database } = this.deps;
    if (p.visitors.size > 0) {
      let salt = this.salts.get(p.day);
      if (!salt) {
        salt = await saltOf(database, p.day);
        this.salts.clear();
        this.salts.set(p.day, salt);
      }
      const scope = `${p.pageId}|${p.shareLinkId ?? "-"}`;
      const docs = [...p.visitors].map((v) => ({ _id: `${p.day}|${scope}|${sha256(`${salt}|${scope}|${v}`)}`, day: p.day }));
      for (let i = 0; i < docs.length; i += 1000) p.uniques += await insertNew(database, docs.slice(i, i + 1000));
      // Visitors written: a retry of this row must not count them again.
      p.visitors.clear();
    }
    const inc: Record<string, number> = { views: p.views, uniques: p.uniques, bots: p.bots };
    for (const [host, n] of p.referrers) inc[`referrers.${hostKey(host)}`] = n;
    for (const [agent, n] of p.agents) inc[`agents.${hostKey(agent)}`] = n;
    await database.c.pageViews.updateOne(
      { _id: id },
      { $inc: inc, $setOnInsert: { workspaceId: p.workspaceId, pageId: p.pageId, shareLinkId: p.shareLinkId, period: p.day, kind: "day" as const } },
      { upsert: true },
    );
  }

  /** Flushes every ANALYTICS_FLUSH_SECONDS until stopped. */
  start(onError: (err: unknown) => void): this {
    if (this.timer) return this;
    this.timer = setInterval(() => void this.flush().catch(onError), this.deps.config.ANALYTICS_FLUSH_SECONDS * 1000);
    this.timer.unref();
    return this;
  }

  /** Stops the timer and writes what is left (a clean shutdown loses nothing). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}
