import type { PageDoc } from "../../db/index";
import { AppError } from "../../errors";
import { actorOf, assertCan, type Principal } from "../access";
import { forgetArtifact } from "../artifacts";
import { now } from "../clock";
import type { StoreDeps } from "../deps";
import { recordEvent } from "../events";
import { markUsageChanging, releaseUsage } from "../limits";
import { unindexTarget } from "../search-index";
import { forgetPage, pageSlugKey, readablePage } from "./page-store";

/** Deletes a page, its history and its address. */
export async function deletePage(deps: StoreDeps, principal: Principal, slug: string): Promise<{ page_id: string; slug: string }> {
  const { page, ws } = await readablePage(deps, principal, { slug });
  assertCan(principal, ws, "write", "page");
  // Marked first: from here on readers see no page, and the sweeper finishes what a stop leaves.
  const marked = await deps.database.c.pages.updateOne({ _id: page._id, deletingAt: null }, { $set: { deletingAt: now() } });
  forgetPage(deps, page._id);
  if (marked.modifiedCount !== 1) throw new AppError("not_found", "No such page.");
  await finishDelete(deps, page);
  await recordEvent(deps, { workspaceId: ws._id, type: "page.deleted", actor: actorOf(principal), target: { kind: "page", id: page._id, label: page.title } });
  return { page_id: page._id, slug: page.slug };
}

/** The steps of a delete after its mark, each idempotent: addresses, history, comments, the page, then the usage it held. */
export async function finishDelete(deps: StoreDeps, page: Pick<PageDoc, "_id" | "slug" | "workspaceId" | "bytes">): Promise<void> {
  const { database } = deps;
  await markUsageChanging({ database }, page.workspaceId);
  const addresses = await database.c.artifacts.find({ pageId: page._id }, { projection: { bytes: 1 } }).toArray();
  await database.c.artifacts.deleteMany({ pageId: page._id });
  for (const a of addresses) forgetArtifact(deps, a._id);
  deps.cache.delete(pageSlugKey(page.slug));
  const revisions = await database.c.revisions.find({ pageId: page._id }, { projection: { bytes: 1 } }).toArray();
  await database.c.revisions.deleteMany({ pageId: page._id });
  // Its comments go with it (docs/comments.md#what-comments-cost).
  const comments = await database.c.comments.find({ pageId: page._id }, { projection: { bytes: 1 } }).toArray();
  await database.c.comments.deleteMany({ pageId: page._id });
  await unindexTarget(deps, { workspaceId: page.workspaceId, kind: "page", id: page._id });
  // Its reading figures too (docs/ARCHITECTURE.md#reading-figures); a flush still in flight may add one row back, which the workspace's delete removes.
  await database.c.pageViews.deleteMany({ pageId: page._id });
  const r = await database.c.pages.deleteOne({ _id: page._id });
  forgetPage(deps, page._id);
  const freed =
    (r.deletedCount === 1 ? page.bytes : 0) +
    revisions.reduce((n, x) => n + x.bytes, 0) +
    addresses.reduce((n, a) => n + a.bytes, 0) +
    comments.reduce((n, c) => n + c.bytes, 0);
  await releaseUsage({ database }, page.workspaceId, { pages: r.deletedCount, bytes: freed });
}
