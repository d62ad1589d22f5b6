import type { SearchPagesView } from "../../schemas/search";
import { type Principal, readerIn } from "../access";
import type { StoreDeps } from "../deps";
import { rankedSearch } from "../search-query";
import { pageBodyText, snippetOf } from "../search-text";
import { readableWorkspace, workspacesOf } from "../workspaces";
import { collectionSlug } from "./page-store";
import { pageView, summaryOf } from "./page-view";

/** At most this many pages. */
export const SEARCH_PAGES_LIMIT = 20;

/**
 * Pages whose title, address, summary or text hold the query's words, in the named workspace
 * or in every workspace the principal may read, best first (search-query.ts), each with the
 * passage that matched. At most 20.
 */
export async function searchPages(deps: StoreDeps, principal: Principal, input: { query: string; workspace?: string | undefined }): Promise<SearchPagesView> {
  const spaces = input.workspace ? [await readableWorkspace(deps, principal, input.workspace)] : await workspacesOf(deps, principal);
  const { hits, terms } = await rankedSearch(deps, spaces, input.query, { limit: SEARCH_PAGES_LIMIT });
  // Each collection's slug looked up once, not once per result (most share one collection).
  const slugs = new Map<string, Promise<string>>();
  const slugOf = (id: string) => {
    let slug = slugs.get(id);
    if (!slug) slugs.set(id, (slug = collectionSlug(deps, id)));
    return slug;
  };
  const pages = await Promise.all(
    hits.flatMap((h) =>
      h.kind === "page"
        ? [
            slugOf(h.page.collectionId).then((collection) => ({
              ...summaryOf(pageView(deps.config.BASE_URL, h.page, h.ws.slug, collection, readerIn(principal, h.ws))),
              score: Math.round(h.score * 1000) / 1000,
              snippet: snippetOf(pageBodyText(h.page) || h.page.title, terms),
            })),
          ]
        : [],
    ),
  );
  return { pages };
}
