// Reading pages: by id or by slug, through this process's read cache for readers (at most
// CACHE_TTL_MS old in other processes; the process that changes a page drops it at once),
// exactly for writers; and the access check every use case starts with.
import type { PageDoc, WorkspaceDoc } from "../../db/index";
import { AppError } from "../../errors";
import { can, notReadable, type Principal } from "../access";
import type { StoreDeps } from "../deps";
import { DEFAULT_COLLECTION_SLUG, findWorkspace } from "../workspaces";

export const pageSlugKey = (slug: string) => `pageslug:${slug}`;
const collectionSlugKey = (id: string) => `colslug:${id}`;
const pageKey = (id: string) => `page:${id}`;

/** Drops this process's cached copy of a page after a change to it (docs/ARCHITECTURE.md, "The read cache"). */
export function forgetPage(deps: Pick<StoreDeps, "cache">, id: string): void {
  deps.cache.delete(pageKey(id));
}

/** A page by id for a reader, through the read cache. Writers read exactly. */
function pageForReading(deps: StoreDeps, id: string): Promise<PageDoc | null> {
  return deps.cache.through(pageKey(id), () => deps.database.c.pages.findOne({ _id: id }), { bytes: (p) => (p ? 2 * p.bytes + 1024 : 0) });
}

/** A collection's slug by id (slugs never change, so a cached one stays right). */
export function collectionSlug(deps: StoreDeps, collectionId: string): Promise<string> {
  return deps.cache.through(
    collectionSlugKey(collectionId),
    async () => (await deps.database.c.collections.findOne({ _id: collectionId }, { projection: { slug: 1 } }))?.slug ?? DEFAULT_COLLECTION_SLUG,
    { bytes: () => 64 },
  );
}

/**
 * A page by slug: the slug's artifact document names the page (that mapping may come from
 * the cache), and the page, read by id, must still carry the slug.
 */
export async function findPageBySlug(deps: StoreDeps, slug: string, reading = false): Promise<PageDoc | null> {
  const pageId = await deps.cache.through(
    pageSlugKey(slug),
    async () => (await deps.database.c.artifacts.findOne({ _id: slug }, { projection: { pageId: 1 } }))?.pageId ?? null,
    { bytes: () => 64 },
  );
  if (!pageId) return null;
  const page = reading ? await pageForReading(deps, pageId) : await deps.database.c.pages.findOne({ _id: pageId });
  if (page && page.slug === slug) return page;
  deps.cache.delete(pageSlugKey(slug));
  return null;
}

/** A page and its workspace, if `principal` may read them; `not_found` otherwise (the same either way). */
export async function readablePage(
  deps: StoreDeps,
  principal: Principal,
  by: { slug: string } | { pageId: string },
  reading = false,
): Promise<{ page: PageDoc; ws: WorkspaceDoc }> {
  const page =
    "slug" in by
      ? await findPageBySlug(deps, by.slug, reading)
      : reading
        ? await pageForReading(deps, by.pageId)
        : await deps.database.c.pages.findOne({ _id: by.pageId });
  const ws = page && !page.deletingAt ? await findWorkspace(deps, page.workspaceId) : null;
  if (!page || !ws) throw new AppError("not_found", "No such page.");
  // A token whose person is a member (cut off, or confined elsewhere) is told why (`forbidden`); anyone else learns nothing.
  if (!can(principal, ws, "read")) throw notReadable(principal, ws, "page");
  return { page, ws };
}
