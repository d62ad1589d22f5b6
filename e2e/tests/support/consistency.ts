// "Is anything half-written?", read straight from the database: a content write is several
// single-document steps (reserve the workspace's usage, write the page marked
// revisionPending, store its revision; or move a table's rowCount and write rows), and a
// fault between them leaves a page without the revision of its current version or a
// counter that disagrees with what it counts. The lifecycle sweeper (every
// SWEEP_INTERVAL_SECONDS in each server process) finishes such writes once they are
// SWEEP_GRACE_SECONDS old; these helpers find what is left and wait for the sweeper.
import type { Db } from "mongodb";
import { collections as collectionsOf } from "@atelier/shared/db";
import { countUsage } from "@atelier/shared/domain/limits";
import { withDb } from "./db";
import { stack } from "./stack";

interface PageRow {
  _id: string;
  slug: string;
  workspaceId: string;
  version: number;
  bytes: number;
  revisionPending?: boolean;
}

export interface HalfWritten {
  /** What was looked at. */
  checked: { pages: number; workspaces: number; tables: number; rows: number };
  /** Pages still marked revisionPending. */
  revisionPending: string[];
  /** Pages without a revision for their current version. */
  missingRevision: string[];
  /** Slugs reserved for a page that was never written (their artifact has no document). */
  reservedSlugs: string[];
  /** Workspaces whose stored usage differs from a recount of everything they store. */
  usage: { workspace: string; stored: { pages: number; bytes: number }; counted: { pages: number; bytes: number } }[];
  /** Tables (and page collections) whose rowCount differs from their rows. */
  rowCount: { workspace: string; collection: string; stored: number; counted: number }[];
}

/**
 * Every inconsistency in the given workspaces (by id), or in the whole database. Sums are
 * made here, not with $group: FerretDB v1 answers $sum over a field with 0.
 */
export async function findHalfWritten(db: Db, workspaceIds?: string[]): Promise<HalfWritten> {
  const inScope = workspaceIds ? { workspaceId: { $in: workspaceIds } } : {};
  const workspaces = await db
    .collection<{ _id: string; slug: string; usage: { pages: number; bytes: number } }>("workspaces")
    .find(workspaceIds ? { _id: { $in: workspaceIds } } : {}, { projection: { _id: 1, slug: 1, usage: 1 } })
    .toArray();
  const pages = await db
    .collection<PageRow>("pages")
    .find(inScope, { projection: { _id: 1, slug: 1, workspaceId: 1, version: 1, bytes: 1, revisionPending: 1 } })
    .toArray();
  const revisions = await db
    .collection<{ pageId: string; version: number }>("revisions")
    .find(inScope, { projection: { pageId: 1, version: 1 } })
    .toArray();
  const rows = await db
    .collection<{ workspaceId: string; collectionId: string; bytes: number }>("rows")
    .find(inScope, { projection: { workspaceId: 1, collectionId: 1, bytes: 1 } })
    .toArray();
  const collections = await db
    .collection<{ _id: string; workspaceId: string; slug: string; kind: string; rowCount: number }>("collections")
    .find(inScope, { projection: { _id: 1, workspaceId: 1, slug: 1, kind: 1, rowCount: 1 } })
    .toArray();

  const reserved = await db
    .collection<{ _id: string; html: string | null }>("artifacts")
    // An old address that redirects to a moved page has no document either, by design.
    .find({ ...inScope, html: null, redirect: null }, { projection: { _id: 1 } })
    .toArray();

  const haveRevision = new Set(revisions.map((r) => `${r.pageId}:${r.version}`));
  // The same recount the sweeper makes: everything a workspace stores.
  const deps = { database: { c: collectionsOf(db) } } as unknown as Parameters<typeof countUsage>[0];
  const counted = new Map<string, { pages: number; bytes: number }>();
  for (const w of workspaces) counted.set(w._id, await countUsage(deps, w._id));
  const rowsIn = new Map<string, number>();
  for (const r of rows) rowsIn.set(r.collectionId, (rowsIn.get(r.collectionId) ?? 0) + 1);
  const slugOf = new Map(workspaces.map((w) => [w._id, w.slug]));

  return {
    checked: { pages: pages.length, workspaces: workspaces.length, tables: collections.filter((c) => c.kind === "table").length, rows: rows.length },
    revisionPending: pages.filter((p) => p.revisionPending === true).map((p) => `${p.slug} (v${p.version})`),
    missingRevision: pages.filter((p) => !haveRevision.has(`${p._id}:${p.version}`)).map((p) => `${p.slug} (v${p.version})`),
    reservedSlugs: reserved.map((a) => a._id),
    usage: workspaces
      .map((w) => ({ workspace: w.slug, stored: { pages: w.usage.pages, bytes: w.usage.bytes }, counted: counted.get(w._id) ?? { pages: 0, bytes: 0 } }))
      .filter((u) => u.stored.pages !== u.counted.pages || u.stored.bytes !== u.counted.bytes),
    rowCount: collections
      .map((c) => ({ workspace: slugOf.get(c.workspaceId) ?? c.workspaceId, collection: c.slug, stored: c.rowCount, counted: rowsIn.get(c._id) ?? 0 }))
      .filter((c) => c.stored !== c.counted),
  };
}

export const isWhole = (h: HalfWritten): boolean =>
  h.revisionPending.length === 0 && h.missingRevision.length === 0 && h.reservedSlugs.length === 0 && h.usage.length === 0 && h.rowCount.length === 0;

/** One line for reports: "2 pages marked revisionPending, 1 without …, usage of 1 workspace off". */
export function describeHalfWritten(h: HalfWritten): string {
  if (isWhole(h)) return "nothing";
  const parts: string[] = [];
  if (h.revisionPending.length) parts.push(`${h.revisionPending.length} page(s) marked revisionPending`);
  if (h.missingRevision.length) parts.push(`${h.missingRevision.length} page(s) without the revision of their current version`);
  if (h.reservedSlugs.length) parts.push(`${h.reservedSlugs.length} slug(s) reserved for a page never written`);
  for (const u of h.usage) {
    parts.push(`usage of ${u.workspace} off by ${u.stored.pages - u.counted.pages} page(s) and ${u.stored.bytes - u.counted.bytes} bytes`);
  }
  for (const c of h.rowCount) parts.push(`rowCount of ${c.workspace}/${c.collection} off by ${c.stored - c.counted}`);
  return parts.join("; ");
}

/** The details, for a failing assertion. */
export const detailHalfWritten = (h: HalfWritten): string =>
  JSON.stringify(
    { revisionPending: h.revisionPending, missingRevision: h.missingRevision, reservedSlugs: h.reservedSlugs, usage: h.usage, rowCount: h.rowCount },
    null,
    1,
  );

/** Longest the sweeper may take: a write becomes due after the grace, then the next sweep (each of two processes) plus a slow machine. */
export const sweeperDeadlineMs = () => (stack.sweepGraceSeconds + 2 * stack.sweepIntervalSeconds) * 1000 + 20_000;

/**
 * Looks until nothing is half-written (in the given workspaces, or anywhere) or the
 * deadline passes; returns what it saw first and last, and how long it waited.
 */
export async function waitForSweeper(workspaceIds?: string[]): Promise<{ first: HalfWritten; last: HalfWritten; waitedMs: number }> {
  const t0 = Date.now();
  return withDb(async (db) => {
    const first = await findHalfWritten(db, workspaceIds);
    let last = first;
    while (!isWhole(last) && Date.now() - t0 < sweeperDeadlineMs()) {
      await new Promise((r) => setTimeout(r, 500));
      last = await findHalfWritten(db, workspaceIds);
    }
    return { first, last, waitedMs: Date.now() - t0 };
  });
}

/** What waitForSweeper saw, in one sentence for the report. */
export function describeRepair(repair: { first: HalfWritten; last: HalfWritten; waitedMs: number }): string {
  const seconds = (repair.waitedMs / 1000).toFixed(1);
  if (isWhole(repair.first)) return "nothing was half-done by then";
  if (isWhole(repair.last)) return `found ${describeHalfWritten(repair.first)}; the sweeper had finished all of it ${seconds} s later`;
  return `found ${describeHalfWritten(repair.first)}; **still half-done after ${seconds} s: ${describeHalfWritten(repair.last)}**`;
}
