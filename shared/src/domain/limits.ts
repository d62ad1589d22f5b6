// Content caps of an unclaimed sandbox (SPEC §8.1), enforced by one conditional update of
// the workspace's usage counters, so parallel writes cannot overshoot them.
import type { Config } from "../config";
import type { Database, WorkspaceDoc } from "../db/index";
import { AppError } from "../errors";
import { now } from "./clock";

export interface UsageDelta {
  pages: number;
  bytes: number;
}

type Caps = Pick<Config, "ANON_MAX_PAGES" | "ANON_MAX_BYTES">;

/** Adds `delta` to the workspace's usage, refusing with `limit_exceeded` when a sandbox cap would be passed. */
export async function reserveUsage(database: Database, caps: Caps, ws: Pick<WorkspaceDoc, "_id">, delta: UsageDelta): Promise<void> {
  const change = { $inc: { "usage.pages": delta.pages, "usage.bytes": delta.bytes }, $set: { usageDirtyAt: now() } };
  const capped: Record<string, unknown> = { _id: ws._id, "sandbox.state": "unclaimed" };
  if (delta.pages > 0) capped["usage.pages"] = { $lte: caps.ANON_MAX_PAGES - delta.pages };
  if (delta.bytes > 0) capped["usage.bytes"] = { $lte: caps.ANON_MAX_BYTES - delta.bytes };
  if ((await database.c.workspaces.updateOne(capped, change)).modifiedCount === 1) return;
  // Not an unclaimed sandbox (no caps), or a cap is reached.
  const uncapped = await database.c.workspaces.updateOne({ _id: ws._id, "sandbox.state": { $ne: "unclaimed" } }, change);
  if (uncapped.modifiedCount === 1) return;
  const current = await database.c.workspaces.findOne({ _id: ws._id });
  if (!current) throw new AppError("not_found", "No such workspace.");
  if (delta.pages > 0 && current.usage.pages + delta.pages > caps.ANON_MAX_PAGES) {
    throw new AppError("limit_exceeded", `An unclaimed sandbox holds at most ${caps.ANON_MAX_PAGES} artifacts. Delete one, or have a person claim the sandbox.`);
  }
  throw new AppError("limit_exceeded", `An unclaimed sandbox holds at most ${caps.ANON_MAX_BYTES} bytes of content. Make room, or have a person claim the sandbox.`);
}

/**
 * Marks the usage counters as about to change, before a delete whose release follows it:
 * should the process stop in between, the sweeper recounts them.
 */
export async function markUsageChanging(database: Database, wsId: string): Promise<void> {
  await database.c.workspaces.updateOne({ _id: wsId }, { $set: { usageDirtyAt: now() } });
}

/** Gives back what a failed or undone write had reserved. */
export async function releaseUsage(database: Database, wsId: string, delta: UsageDelta): Promise<void> {
  await database.c.workspaces.updateOne({ _id: wsId }, { $inc: { "usage.pages": -delta.pages, "usage.bytes": -delta.bytes }, $set: { usageDirtyAt: now() } });
}

/**
 * Counts a workspace's usage afresh (pages, and the bytes of pages and table rows). Summed
 * here rather than with $group: FerretDB v1 answers $sum over a field with 0.
 */
export async function countUsage(database: Database, wsId: string): Promise<UsageDelta> {
  let pages = 0;
  let bytes = 0;
  for await (const p of database.c.pages.find({ workspaceId: wsId }, { projection: { bytes: 1 } })) {
    pages++;
    bytes += p.bytes;
  }
  for await (const r of database.c.rows.find({ workspaceId: wsId }, { projection: { bytes: 1 } })) bytes += r.bytes;
  return { pages, bytes };
}
