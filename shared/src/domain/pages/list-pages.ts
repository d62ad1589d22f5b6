import { AppError } from "../../errors";
import { clampLimit } from "../../schemas/common";
import { PAGE_LIST_LIMIT, type ListPagesInput, type PageListView } from "../../schemas/pages";
import { z } from "zod";
import type { Principal } from "../access";
import { decodeCursor, encodeCursor } from "../cursors";
import type { StoreDeps } from "../deps";
import { readableWorkspace } from "../workspaces";
import { summaryOf, viewOf } from "./page-view";

const PagesCursor = z.object({ s: z.string().min(1).max(64) }).strict();

/** Pages of a workspace in slug order, `limit` at a time. */
export async function listPages(deps: StoreDeps, principal: Principal, input: ListPagesInput): Promise<PageListView> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  const limit = clampLimit(PAGE_LIST_LIMIT, input.limit);
  const filter: Record<string, unknown> = { workspaceId: ws._id };
  if (input.collection) {
    const c = await deps.database.c.collections.findOne({ workspaceId: ws._id, slug: input.collection }, { projection: { _id: 1 } });
    if (!c) throw new AppError("not_found", `No collection "${input.collection}" in this workspace.`);
    filter.collectionId = c._id;
  }
  if (input.cursor) filter.slug = { $gt: decodeCursor(deps.config.SECRET_KEY, "pages", input.cursor, PagesCursor).s };
  const found = await deps.database.c.pages
    .find(filter)
    .sort({ slug: 1 })
    .limit(limit + 1)
    .toArray();
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  const views = await Promise.all(page.map((p) => viewOf(deps, principal, p, ws)));
  return { pages: views.map(summaryOf), next_cursor: found.length > limit && last ? encodeCursor(deps.config.SECRET_KEY, "pages", { s: last.slug }) : null };
}
