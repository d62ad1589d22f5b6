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

/** A page's view without its parts, for lists. */
export const summaryOf = ({ parts: _parts, ...rest }: PageView): PageSummaryView => rest;
