import type { PageSummaryView } from "../../schemas/pages";
import type { Principal } from "../access";
import type { StoreDeps } from "../deps";
import { readableWorkspace, workspacesOf } from "../workspaces";
import { summaryOf, viewOf } from "./page-view";

/**
 * Pages whose title, summary or text contains `query` (case-insensitive), in the named
 * workspace or in every workspace the principal belongs to. At most 20, by slug.
 */
export async function searchPages(
  deps: StoreDeps,
  principal: Principal,
  input: { query: string; workspace?: string | undefined },
): Promise<{ pages: PageSummaryView[] }> {
  const spaces = input.workspace ? [await readableWorkspace(deps, principal, input.workspace)] : await workspacesOf(deps, principal);
  if (spaces.length === 0) return { pages: [] };
  const pattern = input.query.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = { $regex: pattern, $options: "i" };
  const found = await deps.database.c.pages
    .find({ workspaceId: { $in: spaces.map((w) => w._id) }, $or: [{ title: re }, { summary: re }, { "parts.body": re }] })
    .sort({ slug: 1 })
    .limit(20)
    .toArray();
  const byId = new Map(spaces.map((w) => [w._id, w]));
  const views = await Promise.all(
    found.flatMap((p) => {
      const ws = byId.get(p.workspaceId);
      return ws ? [viewOf(deps, principal, p, ws)] : [];
    }),
  );
  return { pages: views.map(summaryOf) };
}
