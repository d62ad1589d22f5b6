// The ⌘K search: the workspaces a person belongs to (or an agent may read) whose name or slug
// contains what they typed, and the pages and tables in them ranked by the search index
// (search-query.ts: titles, addresses, table names and page text; the last word may be half
// typed), each page with the passage that matched. Only what `access.ts` lets the principal
// read; a few of each kind, best first.
import type { WorkspaceDoc } from "../db/index";
import type { SearchInput, SearchResultsView } from "../schemas/search";
import { can, type Principal } from "./access";
import type { StoreDeps } from "./deps";
import { rankedSearch } from "./search-query";
import { pageBodyText, snippetOf } from "./search-text";
import { workspacesOf } from "./workspaces";

/** At most this many of each kind. */
export const SEARCH_LIMIT = 8;

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
  const q = query.toLowerCase();
  const { hits, terms, prefix } = await rankedSearch(deps, spaces, query, { limit: SEARCH_LIMIT, prefix: true, tables: true });
  const where = (ws: WorkspaceDoc) => ({ workspace: ws.slug, workspace_name: ws.name });
  const workspaces = rank(
    spaces.filter((w) => w.name.toLowerCase().includes(q) || w.slug.includes(q)),
    (w) => [w.name, w.slug],
    query,
  );
  return {
    workspaces: workspaces.slice(0, SEARCH_LIMIT).map((w) => ({ slug: w.slug, name: w.name })),
    pages: hits.flatMap((h) =>
      h.kind === "page"
        ? [{ slug: h.page.slug, title: h.page.title, ...where(h.ws), snippet: snippetOf(pageBodyText(h.page) || h.page.title, terms, prefix) }]
        : [],
    ),
    tables: hits.flatMap((h) => (h.kind === "table" ? [{ slug: h.table.slug, name: h.table.name, ...where(h.ws) }] : [])),
  };
}
