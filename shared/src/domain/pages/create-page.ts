import type { CollectionDoc, PageDoc, PartDoc, WorkspaceDoc } from "../../db/index";
import { AppError } from "../../errors";
import { newId, newPageId } from "../../ids";
import { utf8Bytes } from "../../schemas/cells";
import type { CreatePageInput } from "../../schemas/pages";
import { actorOf, assertCan, type Principal, readerIn } from "../access";
import { noteTableViewers, releaseSlug, renderDocument, reserveSlug } from "../artifacts";
import { countLines } from "../text-diff";
import { now } from "../clock";
import type { StoreDeps } from "../deps";
import { contentBytes, EVENT_BYTES } from "../limits";
import { versionedCreate, type WriteDeps } from "../versioned-write";
import { DEFAULT_COLLECTION_SLUG, ensureDefaultCollection, resolveWorkspaceForWrite } from "../workspaces";
import { pageSlugKey } from "./page-store";
import { PAGES, tableParts, textOf } from "./page-versions";
import { pageView } from "./page-view";

async function resolveCollection(deps: StoreDeps, ws: WorkspaceDoc, slug: string | undefined): Promise<CollectionDoc> {
  if (slug === undefined || slug === DEFAULT_COLLECTION_SLUG) await ensureDefaultCollection(deps, ws._id);
  const c = await deps.database.c.collections.findOne({ workspaceId: ws._id, slug: slug ?? DEFAULT_COLLECTION_SLUG });
  if (!c) throw new AppError("not_found", `No collection "${slug}" in this workspace.`);
  if (c.kind !== "pages") throw new AppError("invalid_request", `"${c.slug}" is a table; pages go into a pages collection.`);
  return c;
}

/**
 * Creates a page with one part (and its table views). A taken slug is `conflict`, whoever
 * holds it. The slug is reserved first, then the page is written as version 1 through the
 * one write protocol (versioned-write.ts); a failure before the page exists gives the slug back.
 */
export async function createPage(deps: WriteDeps, principal: Principal, input: CreatePageInput) {
  const ws = await resolveWorkspaceForWrite(deps, principal, input.workspace);
  assertCan(principal, ws, "write");
  const collection = await resolveCollection(deps, ws, input.collection);
  const actor = actorOf(principal);
  const part: PartDoc =
    input.body_html !== undefined
      ? { id: newId("prt"), kind: "html", body: input.body_html, position: 0 }
      : { id: newId("prt"), kind: "markdown", body: input.body_markdown ?? "", position: 0 };
  const parts = [part, ...tableParts(input.tables, 1)];
  const summary = input.summary ?? "";
  const pageId = newPageId();
  await reserveSlug(deps, { slug: input.slug, pageId, workspaceId: ws._id });
  const undo = () => releaseSlug(deps, input.slug, pageId);
  const html = await noteTableViewers(deps, ws._id, pageId, parts)
    .then(() => renderDocument(deps, { slug: input.slug, title: input.title, summary, parts, workspaceId: ws._id }))
    .catch(async (err: unknown) => {
      await undo().catch(() => undefined);
      throw err;
    });
  const t = now();
  const bytes = contentBytes({ title: input.title, summary, parts });
  const draft: PageDoc = {
    _id: pageId,
    slug: input.slug,
    workspaceId: ws._id,
    collectionId: collection._id,
    title: input.title,
    summary,
    parts,
    version: 1,
    bytes,
    revisionPending: true,
    writing: null,
    lastChange: { changes: ["created"], restoredFrom: null, lines: countLines("", textOf(parts)) },
    renditionBytes: utf8Bytes(html),
    createdBy: actor,
    updatedBy: actor,
    createdAt: t,
    updatedAt: t,
  };
  const page = await versionedCreate(deps, PAGES, {
    ws,
    doc: draft,
    // The page, its first revision, its document and the event.
    delta: { pages: 1, bytes: 2 * bytes + utf8Bytes(html) + EVENT_BYTES },
    event: "page.created",
    hint: { html, renditionCharged: utf8Bytes(html) },
    undo,
  });
  deps.cache.delete(pageSlugKey(page.slug));
  return {
    page: pageView(deps.config.BASE_URL, page, ws.slug, collection.slug, readerIn(principal, ws)),
    part: { id: part.id, kind: part.kind, body: part.body, position: part.position },
    collection: { id: collection._id, slug: collection.slug, name: collection.name, kind: collection.kind },
  };
}
