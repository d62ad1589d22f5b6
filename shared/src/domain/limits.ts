// Content caps (docs/contract.md#sandboxes-limits-and-lifecycle for unclaimed sandboxes; WORKSPACE_MAX_BYTES for every other
// workspace), enforced by one conditional update of the workspace's usage counters, so
// parallel writes cannot overshoot them. `usage.bytes` counts everything a workspace stores:
// pages and every revision kept, rendered documents, table definitions, rows and their
// history, comments, the activity feed, and files.
import type { Config } from "../config";
import type { Database, WorkspaceDoc } from "../db/index";
import { AppError } from "../errors";
import { utf8Bytes } from "../schemas/cells";
import { now } from "./clock";
import type { Deps } from "./deps";

export interface UsageDelta {
  pages: number;
  bytes: number;
}

type Caps = Pick<Config, "ANON_MAX_PAGES" | "ANON_MAX_BYTES" | "WORKSPACE_MAX_BYTES">;

/** What one activity event costs (its document is small and of bounded size). */
export const EVENT_BYTES = 320;
/** The fixed part of a stored page, revision or row (ids, versions, actor, times). */
export const RECORD_OVERHEAD_BYTES = 256;

/** Bytes of a page version's content, as stored once (the page, or one revision). */
export function contentBytes(p: { title: string; summary: string; parts: { body: string }[] }): number {
  return RECORD_OVERHEAD_BYTES + utf8Bytes(p.title) + utf8Bytes(p.summary) + p.parts.reduce((n, x) => n + utf8Bytes(x.body) + 64, 0);
}

/**
 * Adds `delta` to the workspace's usage, refusing with `limit_exceeded` when a cap would be
 * passed. Giving back (a negative delta) is never refused.
 */
export async function reserveUsage(deps: { database: Database; config: Caps }, ws: Pick<WorkspaceDoc, "_id" | "capped">, delta: UsageDelta): Promise<void> {
  const { database, config } = deps;
  const change = { $inc: { "usage.pages": delta.pages, "usage.bytes": delta.bytes }, $set: { usageDirtyAt: now() } };
  const growing = delta.pages > 0 || delta.bytes > 0;
  if (!growing) {
    await database.c.workspaces.updateOne({ _id: ws._id }, change);
    return;
  }
  // The flag decides the caps; it is in the filter, so a claim that lifts them meanwhile is seen.
  for (const capped of ws.capped ? [true, false] : [false, true]) {
    const filter: Record<string, unknown> = { _id: ws._id, capped };
    const maxBytes = capped ? config.ANON_MAX_BYTES : config.WORKSPACE_MAX_BYTES;
    if (capped && delta.pages > 0) filter["usage.pages"] = { $lte: config.ANON_MAX_PAGES - delta.pages };
    if (delta.bytes > 0 && (capped || maxBytes > 0)) filter["usage.bytes"] = { $lte: maxBytes - delta.bytes };
    if ((await database.c.workspaces.updateOne(filter, change)).modifiedCount === 1) return;
  }
  const current = await database.c.workspaces.findOne({ _id: ws._id }, { projection: { usage: 1, capped: 1 } });
  if (!current) throw new AppError("not_found", "No such workspace.");
  if (current.capped && delta.pages > 0 && current.usage.pages + delta.pages > config.ANON_MAX_PAGES) {
    throw new AppError(
      "limit_exceeded",
      `An unclaimed sandbox holds at most ${config.ANON_MAX_PAGES} artifacts. Delete one, or have a person claim the sandbox.`,
      {
        details: { limit: "pages", max: config.ANON_MAX_PAGES },
      },
    );
  }
  if (current.capped) {
    throw new AppError(
      "limit_exceeded",
      `An unclaimed sandbox holds at most ${config.ANON_MAX_BYTES} bytes, counting every version kept and its tables; this change needs ${delta.bytes} more and ${Math.max(0, config.ANON_MAX_BYTES - current.usage.bytes)} are left. Delete pages, or have a person claim the sandbox.`,
      { details: { limit: "bytes", max: config.ANON_MAX_BYTES, used: current.usage.bytes } },
    );
  }
  throw new AppError(
    "limit_exceeded",
    `This workspace holds at most ${config.WORKSPACE_MAX_BYTES} bytes, counting every version kept and its tables; this change needs ${delta.bytes} more. Delete pages or tables to make room.`,
    { details: { limit: "bytes", max: config.WORKSPACE_MAX_BYTES, used: current.usage.bytes } },
  );
}

/**
 * Marks the usage counters as about to change, before a delete whose release follows it:
 * should the process stop in between, the sweeper recounts them.
 */
export async function markUsageChanging({ database }: Pick<Deps, "database">, wsId: string): Promise<void> {
  await database.c.workspaces.updateOne({ _id: wsId }, { $set: { usageDirtyAt: now() } });
}

/** Gives back what a failed or undone write had reserved, or what a delete freed. */
export async function releaseUsage({ database }: Pick<Deps, "database">, wsId: string, delta: UsageDelta): Promise<void> {
  await database.c.workspaces.updateOne({ _id: wsId }, { $inc: { "usage.pages": -delta.pages, "usage.bytes": -delta.bytes }, $set: { usageDirtyAt: now() } });
}

/**
 * Counts a workspace's usage afresh from what it stores. Summed here rather than with
 * $group: FerretDB v1 answers $sum over a field with 0 (outside the storage contract).
 */
export async function countUsage({ database }: Pick<Deps, "database">, wsId: string): Promise<UsageDelta> {
  let pages = 0;
  let bytes = 0;
  for await (const p of database.c.pages.find({ workspaceId: wsId }, { projection: { bytes: 1 } })) {
    pages++;
    bytes += p.bytes;
  }
  for await (const r of database.c.rows.find({ workspaceId: wsId }, { projection: { bytes: 1 } })) bytes += RECORD_OVERHEAD_BYTES + r.bytes;
  const sources = [database.c.revisions, database.c.artifacts, database.c.rowRevisions, database.c.collections, database.c.files, database.c.comments] as const;
  for (const source of sources) {
    for await (const d of (source as unknown as typeof database.c.rows).find({ workspaceId: wsId }, { projection: { bytes: 1 } })) bytes += d.bytes ?? 0;
  }
  bytes += (await database.c.events.countDocuments({ workspaceId: wsId })) * EVENT_BYTES;
  return { pages, bytes };
}
