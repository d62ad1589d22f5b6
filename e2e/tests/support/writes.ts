// A stream of writes through nginx, each one recorded with its answer, and the checks that
// follow a fault: every acknowledged write is in the database exactly once; what an
// unacknowledged write left half-done (a page without its first revision, a usage counter
// that disagrees) is counted, and the sweeper must finish it (support/consistency.ts).
import { expect } from "@playwright/test";
import type { Db } from "mongodb";
import type { Api } from "./api";
import { mcpPost, toolCall } from "./mcp";

export type WriteKind = "mcp create_page" | "POST /api/artifacts/pages";

export interface WriteRecord {
  slug: string;
  kind: WriteKind;
  /** HTTP status, or 0 when no answer came (connection error or timeout). */
  status: number;
  /** The write's success answer arrived: 201 for the HTTP route, a result without isError for MCP. */
  acknowledged: boolean;
  /** What the answer said when it was not a success. */
  detail: string;
  startedAt: number;
  ms: number;
}

let counter = 0;

/** One write with a unique slug, through nginx. Never throws. */
export async function writeOnce(kind: WriteKind, prefix: string, credential: string, api: Api, retryOf?: string): Promise<WriteRecord> {
  const slug = retryOf ?? `${prefix}-${(counter++).toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
  const startedAt = Date.now();
  const rec = (status: number, acknowledged: boolean, detail: string): WriteRecord => ({
    slug,
    kind,
    status,
    acknowledged,
    detail,
    startedAt,
    ms: Date.now() - startedAt,
  });
  const body = { slug, title: `Write ${slug}`, body_markdown: `Written during a fault test: ${slug}` };
  try {
    if (kind === "mcp create_page") {
      const res = await mcpPost(toolCall("create_page", body), { authorization: `Bearer ${credential}` });
      const text = await res.text();
      if (res.status !== 200) return rec(res.status, false, text.slice(0, 200));
      const json = JSON.parse(text) as { result?: { isError?: boolean; content?: { text?: string }[] }; error?: unknown };
      if (json.result && !json.result.isError) return rec(200, true, "");
      return rec(200, false, JSON.stringify(json.error ?? json.result?.content?.[0]?.text ?? "").slice(0, 200));
    }
    const res = await api.fetch("/api/artifacts/pages", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    return rec(res.status, res.status === 201, res.status === 201 ? "" : text.slice(0, 200));
  } catch (err) {
    return rec(0, false, err instanceof Error ? err.message : String(err));
  }
}

export interface WriteCheck {
  attempted: number;
  acknowledged: number;
  /** Acknowledged writes present exactly once. */
  foundOnce: number;
  /** Writes without a success answer that were applied anyway (allowed: the client could not know). */
  unacknowledgedButApplied: number;
  duplicates: number;
  pagesWithoutFirstRevision: number;
  /** Of those, pages whose write was acknowledged: must always be 0. */
  acknowledgedWithoutFirstRevision: number;
  usageDrift: number;
  /** The workspace written to. */
  workspaceId: string;
}

/** Checks the database against the record of what was written and what was acknowledged. */
export async function checkWrites(db: Db, records: WriteRecord[], workspaceSlug: string): Promise<WriteCheck> {
  const slugs = records.map((r) => r.slug);
  const pages = await db
    .collection<{ _id: string; slug: string; workspaceId: string }>("pages")
    .find({ slug: { $in: slugs } }, { projection: { _id: 1, slug: 1, workspaceId: 1 } })
    .toArray();
  const bySlug = new Map<string, number>();
  for (const p of pages) bySlug.set(p.slug, (bySlug.get(p.slug) ?? 0) + 1);
  const acked = records.filter((r) => r.acknowledged);
  const revisions = await db
    .collection<{ pageId: string; version: number }>("revisions")
    .find({ pageId: { $in: pages.map((p) => p._id) }, version: 1 }, { projection: { pageId: 1 } })
    .toArray();
  const withRevision = new Set(revisions.map((r) => r.pageId));
  const ws = await db.collection<{ _id: string; usage: { pages: number } }>("workspaces").findOne({ slug: workspaceSlug });
  const inWorkspace = ws ? await db.collection("pages").countDocuments({ workspaceId: ws._id }) : -1;
  return {
    attempted: records.length,
    acknowledged: acked.length,
    foundOnce: acked.filter((r) => bySlug.get(r.slug) === 1).length,
    unacknowledgedButApplied: records.filter((r) => !r.acknowledged && (bySlug.get(r.slug) ?? 0) > 0).length,
    duplicates: [...bySlug.values()].filter((n) => n > 1).length,
    pagesWithoutFirstRevision: pages.filter((p) => !withRevision.has(p._id)).length,
    acknowledgedWithoutFirstRevision: pages.filter((p) => !withRevision.has(p._id) && acked.some((r) => r.slug === p.slug)).length,
    usageDrift: ws ? ws.usage.pages - inWorkspace : Number.NaN,
    workspaceId: ws?._id ?? "",
  };
}

/**
 * What must hold at once, right after a fault: every acknowledged write is whole and there
 * exactly once. A write that got no success answer may still be half-done at this moment
 * (the process or the database went away between its steps); the sweeper finishes those,
 * and the tests then wait for it (waitForSweeper) and require nothing half-written at all.
 */
export function expectAcknowledgedWhole(check: WriteCheck): void {
  expect(check.acknowledged, "some writes must have been acknowledged").toBeGreaterThan(0);
  expect(check.foundOnce, "every acknowledged write is in the database exactly once").toBe(check.acknowledged);
  expect(check.duplicates, "no slug was written twice").toBe(0);
  expect(check.acknowledgedWithoutFirstRevision, "no acknowledged page lacks its first revision").toBe(0);
  expect(check.pagesWithoutFirstRevision, "only unacknowledged writes can be half-done").toBeLessThanOrEqual(check.attempted - check.acknowledged);
}

export function statusCounts(records: { status: number }[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const r of records) m.set(r.status, (m.get(r.status) ?? 0) + 1);
  return new Map([...m.entries()].sort((a, b) => a[0] - b[0]));
}

export const describeStatuses = (m: Map<number, number>) => [...m.entries()].map(([s, n]) => `${s === 0 ? "no answer" : s}: ${n}`).join(", ");
