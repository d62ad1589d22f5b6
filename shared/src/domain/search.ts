// The ⌘K search: the workspaces a person belongs to (or an agent may read), and the pages
// and tables in them, whose title, name or slug contains what they typed. Only what
// `access.ts` lets the principal read; a few of each kind, best first.
import type { SearchInput, SearchResultsView } from "../schemas/search";
import { can, type Principal } from "./access";
import type { StoreDeps } from "./deps";
import { workspacesOf } from "./workspaces";

/** At most this many of each kind. */
export const SEARCH_LIMIT = 8;

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Exact and leading matches first, then the rest in the order found. */
function rank<T>(items: T[], text: (t: T) => string[], query: string): T[] {
  const q = query.toLowerCase();
  const score = (t: T) => {
    const words = text(t).map((s) => s.toLowerCase());
    if (words.some((w) => w === q)) return 0;
    if (words.some((w) => w.startsWith(q))) return 1;
    return 2;
  };
  return items
    .map((item, i) => ({ item, i, s: score(item) }))
    .sort((a, b) => a.s - b.s || a.i - b.i)
    .map((x) => x.item);
}

export async function searchEverything(deps: StoreDeps, principal: Principal, input: SearchInput): Promise<SearchResultsView> {
  const query = input.query.trim();
  const spaces = (await workspacesOf(deps, principal)).filter((ws) => can(principal, ws, "read"));
  if (spaces.length === 0 || query === "") return { workspaces: [], pages: [], tables: [] };
  const byId = new Map(spaces.map((w) => [w._id, w]));
  const ids = spaces.map((w) => w._id);
  const re = { $regex: escapeRegex(query), $options: "i" };
  const q = query.toLowerCase();

  const [pages, tables] = await Promise.all([
    deps.database.c.pages
      .find({ workspaceId: { $in: ids }, $or: [{ title: re }, { slug: re }] }, { projection: { slug: 1, title: 1, workspaceId: 1, deletingAt: 1 } })
      .sort({ updatedAt: -1, _id: 1 })
      .limit(SEARCH_LIMIT * 4)
      .toArray(),
    deps.database.c.collections
      .find({ workspaceId: { $in: ids }, kind: "table", $or: [{ name: re }, { slug: re }] }, { projection: { slug: 1, name: 1, workspaceId: 1 } })
      .sort({ slug: 1, _id: 1 })
      .limit(SEARCH_LIMIT * 4)
      .toArray(),
  ]);

  const where = (workspaceId: string) => {
    const ws = byId.get(workspaceId);
    return ws ? { workspace: ws.slug, workspace_name: ws.name } : null;
  };
  const workspaces = rank(
    spaces.filter((w) => w.name.toLowerCase().includes(q) || w.slug.includes(q)),
    (w) => [w.name, w.slug],
    query,
  );
  return {
    workspaces: workspaces.slice(0, SEARCH_LIMIT).map((w) => ({ slug: w.slug, name: w.name })),
    pages: rank(
      pages.filter((p) => !p.deletingAt),
      (p) => [p.title, p.slug],
      query,
    )
      .flatMap((p) => {
        const w = where(p.workspaceId);
        return w ? [{ slug: p.slug, title: p.title, ...w }] : [];
      })
      .slice(0, SEARCH_LIMIT),
    tables: rank(tables, (t) => [t.name, t.slug], query)
      .flatMap((t) => {
        const w = where(t.workspaceId);
        return w ? [{ slug: t.slug, name: t.name, ...w }] : [];
      })
      .slice(0, SEARCH_LIMIT),
  };
}
