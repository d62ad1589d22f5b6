// What a client sees of a page (both adapters answer with it).
import type { PageDoc, WorkspaceDoc } from "../../db/index";
import type { PageSummaryView, PageView } from "../../schemas/pages";
import { actorForReader, type Principal, type Reader, readerIn } from "../access";
import { artifactUrl } from "../artifacts";
import type { StoreDeps } from "../deps";
import { collectionSlug } from "./page-store";

export function pageView(baseUrl: string, page: PageDoc, wsSlug: string, collection: string, reader: Reader): PageView {
  return {
    page_id: page._id,
    slug: page.slug,
    title: page.title,
    summary: page.summary,
    version: page.version,
    workspace: wsSlug,
    collection,
    parts: [...page.parts].sort((a, b) => a.position - b.position).map((p) => ({ id: p.id, kind: p.kind, body: p.body, position: p.position })),
    created_by: actorForReader(page.createdBy, reader),
    updated_by: actorForReader(page.updatedBy, reader),
    created_at: page.createdAt.toISOString(),
    updated_at: page.updatedAt.toISOString(),
    artifact_url: artifactUrl(baseUrl, page.slug),
  };
}

/** The view of a page for `principal`, its collection's slug looked up (through the cache). */
export async function viewOf(deps: StoreDeps, principal: Principal, page: PageDoc, ws: WorkspaceDoc): Promise<PageView> {
  return pageView(deps.config.BASE_URL, page, ws.slug, await collectionSlug(deps, page.collectionId), readerIn(principal, ws));
}

/**
 * The view of a page for `principal`, built once per page document and kind of reader and
 * shared (frozen) between calls: a page read from the read cache is the same document object
 * until it changes or its entry expires, so a hot page's view is not rebuilt for every read
 * (issue 30). A new document (a write, an expired entry) builds a new view. Callers must not
 * change what they get; it is frozen so that they cannot.
 */
export async function sharedViewOf(deps: StoreDeps, principal: Principal, page: PageDoc, ws: WorkspaceDoc): Promise<Readonly<PageView>> {
  const collection = await collectionSlug(deps, page.collectionId);
  const reader = readerIn(principal, ws);
  // Everything the view depends on besides the document itself.
  const key = `${deps.config.BASE_URL}\n${ws.slug}\n${collection}\n${reader.insider ? 1 : 0}${reader.unclaimedSandbox ? 1 : 0}`;
  let views = SHARED_VIEWS.get(page);
  const hit = views?.get(key);
  if (hit) return hit;
  const view = deepFreeze(pageView(deps.config.BASE_URL, page, ws.slug, collection, reader));
  if (!views) SHARED_VIEWS.set(page, (views = new Map()));
  // A handful of kinds of reader per document; anything beyond is a renamed workspace or collection.
  if (views.size >= 8) views.clear();
  views.set(key, view);
  return view;
}

const SHARED_VIEWS = new WeakMap<PageDoc, Map<string, Readonly<PageView>>>();

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A page's view without its parts, for lists. */
export const summaryOf = ({ parts: _parts, ...rest }: PageView): PageSummaryView => rest;
