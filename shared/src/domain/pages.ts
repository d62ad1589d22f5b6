// Pages (artifacts): living documents with ordered parts, a version, and one revision per
// version with its actor. Rendered on write; every write goes through the access rules.
import type { Actor, CollectionDoc, Database, PageDoc, PartDoc, RevisionDoc, WorkspaceDoc } from "../db/index";
import { AppError } from "../errors";
import { newId, newPageId } from "../ids";
import type { CreatePageInput, PageView, UpdatePageInput } from "../schemas/pages";
import { actorForReader, actorOf, assertCan, can, isInsider, type Principal } from "./access";
import { now } from "./clock";
import type { DomainDeps } from "./deps";
import { recordEvent } from "./events";
import { markUsageChanging, releaseUsage, reserveUsage } from "./limits";
import { etagOf, renderPage } from "./render";
import { parseTableViewSpec, renderTableView, type TableViewSpec } from "./tables";
import { DEFAULT_COLLECTION_SLUG, ensureDefaultCollection, resolveWorkspaceForWrite } from "./workspaces";

type PageDeps = Pick<DomainDeps, "database" | "config">;

export function artifactUrl(baseUrl: string, slug: string): string {
  return `${baseUrl}/a/${slug}`;
}

function pageBytes(p: { title: string; summary: string; parts: Pick<PartDoc, "body">[] }): number {
  return Buffer.byteLength(p.title) + Buffer.byteLength(p.summary) + p.parts.reduce((n, x) => n + Buffer.byteLength(x.body), 0);
}

export function pageView(baseUrl: string, page: PageDoc, wsSlug: string, collectionSlug: string, insider = true): PageView {
  const actorView = (a: Actor) => actorForReader(a, insider);
  return {
    page_id: page._id,
    slug: page.slug,
    title: page.title,
    summary: page.summary,
    version: page.version,
    workspace: wsSlug,
    collection: collectionSlug,
    parts: [...page.parts].sort((a, b) => a.position - b.position).map((p) => ({ id: p.id, kind: p.kind, body: p.body, position: p.position })),
    created_by: actorView(page.createdBy),
    updated_by: actorView(page.updatedBy),
    created_at: page.createdAt.toISOString(),
    updated_at: page.updatedAt.toISOString(),
    artifact_url: artifactUrl(baseUrl, page.slug),
  };
}

export function collectionView(c: CollectionDoc) {
  return { id: c._id, slug: c.slug, name: c.name, kind: c.kind };
}

async function resolveCollection(database: Database, ws: WorkspaceDoc, slug: string | undefined): Promise<CollectionDoc> {
  if (slug === undefined || slug === DEFAULT_COLLECTION_SLUG) await ensureDefaultCollection(database, ws._id);
  const c = await database.c.collections.findOne({ workspaceId: ws._id, slug: slug ?? DEFAULT_COLLECTION_SLUG });
  if (!c) throw new AppError("not_found", `No collection "${slug}" in this workspace.`);
  if (c.kind !== "pages") throw new AppError("invalid_request", `"${c.slug}" is a table; pages go into a pages collection.`);
  return c;
}

/**
 * Stores the revision of a page's current version and clears its pending mark. Idempotent:
 * the sweeper calls it again for a page whose writer stopped in between.
 */
export async function storeRevision(database: Database, page: PageDoc): Promise<void> {
  try {
    await database.c.revisions.insertOne(revisionOf(page, page.updatedBy));
  } catch (err) {
    if ((err as { code?: unknown }).code !== 11000) throw err;
  }
  await database.c.pages.updateOne({ _id: page._id, version: page.version }, { $set: { revisionPending: false } });
}

function revisionOf(page: PageDoc, actor: Actor): RevisionDoc {
  return {
    _id: `${page._id}:v${page.version}`,
    pageId: page._id,
    workspaceId: page.workspaceId,
    version: page.version,
    title: page.title,
    summary: page.summary,
    parts: page.parts,
    actor,
    createdAt: page.updatedAt,
  };
}

/** Renders a page's document, with its table_view parts read from their tables now. */
async function renderWithTables(database: Database, baseUrl: string, workspaceId: string, p: { slug: string; title: string; summary: string; parts: PartDoc[] }): Promise<string> {
  const tables: Record<string, string> = {};
  for (const part of p.parts) {
    if (part.kind === "table_view") tables[part.id] = await renderTableView(database, workspaceId, parseTableViewSpec(part.body));
  }
  return renderPage({ title: p.title, summary: p.summary, parts: p.parts, url: artifactUrl(baseUrl, p.slug), tables });
}

function tableParts(specs: TableViewSpec[] | undefined, from: number): PartDoc[] {
  return (specs ?? []).map((spec, i) => ({ id: newId("prt"), kind: "table_view", body: JSON.stringify(spec), position: from + i }));
}

/** Refreshes the stored document of a page whose tables changed; the version stays. */
export async function rerenderPage(deps: PageDeps, page: PageDoc): Promise<void> {
  const html = await renderWithTables(deps.database, deps.config.BASE_URL, page.workspaceId, page);
  await deps.database.c.pages.updateOne({ _id: page._id, version: page.version }, { $set: { html, etag: etagOf(html) } });
}

export interface CreatedPage {
  page: PageDoc;
  part: PartDoc;
  collection: CollectionDoc;
  workspace: WorkspaceDoc;
}

/** Creates a page with one part. A taken slug is `conflict`, whoever holds it. */
export async function createPage(deps: PageDeps, principal: Principal, input: CreatePageInput): Promise<CreatedPage> {
  const { database, config } = deps;
  const ws = await resolveWorkspaceForWrite(database, principal, input.workspace);
  assertCan(principal, ws, "write");
  const collection = await resolveCollection(database, ws, input.collection);
  const actor = actorOf(principal);
  const t = now();
  const part: PartDoc =
    input.body_html !== undefined
      ? { id: newId("prt"), kind: "html", body: input.body_html, position: 0 }
      : { id: newId("prt"), kind: "markdown", body: input.body_markdown ?? "", position: 0 };
  const parts = [part, ...tableParts(input.tables, 1)];
  const summary = input.summary ?? "";
  const html = await renderWithTables(database, config.BASE_URL, ws._id, { slug: input.slug, title: input.title, summary, parts });
  const page: PageDoc = {
    _id: newPageId(),
    slug: input.slug,
    workspaceId: ws._id,
    collectionId: collection._id,
    title: input.title,
    summary,
    parts,
    version: 1,
    bytes: pageBytes({ title: input.title, summary, parts }),
    html,
    etag: etagOf(html),
    revisionPending: true,
    createdBy: actor,
    updatedBy: actor,
    createdAt: t,
    updatedAt: t,
  };
  const delta = { pages: 1, bytes: page.bytes };
  await reserveUsage(database, config, ws, delta);
  try {
    await database.c.pages.insertOne(page);
  } catch (err) {
    await releaseUsage(database, ws._id, delta);
    if ((err as { code?: unknown }).code === 11000) throw new AppError("conflict", `The slug "${input.slug}" is already used by another page.`);
    throw err;
  }
  await storeRevision(database, page);
  await recordEvent(database, { workspaceId: ws._id, type: "page.created", actor, target: { kind: "page", id: page._id, label: page.slug } });
  return { page, part, collection, workspace: ws };
}

/** A page and its workspace, if `principal` may read them; `not_found` otherwise (the same either way). */
export async function getReadablePage(
  database: Database,
  principal: Principal,
  by: { slug: string } | { pageId: string },
): Promise<{ page: PageDoc; workspace: WorkspaceDoc }> {
  const page = await database.c.pages.findOne("slug" in by ? { slug: by.slug } : { _id: by.pageId });
  const ws = page ? await database.c.workspaces.findOne({ _id: page.workspaceId }) : null;
  if (!page || !ws || !can(principal, ws, "read")) throw new AppError("not_found", "No such page.");
  return { page, workspace: ws };
}

/** The rendered document for the browser routes: two indexed lookups and no rendering. */
export async function getRenderedArtifact(
  database: Database,
  principal: Principal,
  by: { slug: string } | { pageId: string },
): Promise<{ html: string; etag: string; isPublic: boolean } | null> {
  const page = await database.c.pages.findOne("slug" in by ? { slug: by.slug } : { _id: by.pageId }, {
    projection: { html: 1, etag: 1, workspaceId: 1 },
  });
  if (!page) return null;
  const ws = await database.c.workspaces.findOne(
    { _id: page.workspaceId },
    { projection: { _id: 1, visibility: 1, members: 1, sandbox: 1, blockedTokenIds: 1, ownerId: 1 } },
  );
  if (!ws || !can(principal, ws, "read")) return null;
  return { html: page.html, etag: page.etag, isPublic: can({ kind: "nobody" }, ws, "read") };
}

/** A page as `deps.principal` may see it. */
export async function viewOf(deps: PageDeps & { principal: Principal }, page: PageDoc, ws: WorkspaceDoc): Promise<PageView> {
  const c = await deps.database.c.collections.findOne({ _id: page.collectionId }, { projection: { slug: 1 } });
  return pageView(deps.config.BASE_URL, page, ws.slug, c?.slug ?? DEFAULT_COLLECTION_SLUG, isInsider(deps.principal, ws));
}

function applyBody(parts: PartDoc[], kind: "markdown" | "html", body: string): PartDoc[] {
  const sorted = [...parts].sort((a, b) => a.position - b.position);
  const target = sorted.find((p) => p.kind === kind) ?? sorted.find((p) => p.kind !== "table_view");
  if (!target) return [...sorted, { id: newId("prt"), kind, body, position: sorted.length }];
  return sorted.map((p) => (p.id === target.id ? { ...p, kind, body } : p));
}

interface PageChange {
  title: string;
  summary: string;
  parts: PartDoc[];
}

/**
 * Applies `change` to the current page as one new version. With `expectedVersion`, a page
 * that has moved on is a `version_conflict` (never an overwrite); without it, the change
 * applies to whatever is current.
 */
async function changePage(
  deps: PageDeps,
  principal: Principal,
  slug: string,
  expectedVersion: number | undefined,
  eventType: string,
  change: (page: PageDoc) => PageChange,
): Promise<PageDoc> {
  const { database, config } = deps;
  for (let attempt = 0; attempt < 5; attempt++) {
    const { page, workspace: ws } = await getReadablePage(database, principal, { slug });
    assertCan(principal, ws, "write", "page");
    if (expectedVersion !== undefined && expectedVersion !== page.version) {
      throw new AppError("version_conflict", `The page is at version ${page.version}, not ${expectedVersion}; someone changed it meanwhile. Read it again and reapply your change.`, {
        details: { current_version: page.version },
      });
    }
    const actor = actorOf(principal);
    const { title, summary, parts } = change(page);
    const html = await renderWithTables(database, config.BASE_URL, ws._id, { slug: page.slug, title, summary, parts });
    const next: PageDoc = {
      ...page,
      title,
      summary,
      parts,
      version: page.version + 1,
      bytes: pageBytes({ title, summary, parts }),
      html,
      etag: etagOf(html),
      updatedBy: actor,
      updatedAt: now(),
    };
    const delta = { pages: 0, bytes: next.bytes - page.bytes };
    await reserveUsage(database, config, ws, delta);
    const r = await database.c.pages.updateOne(
      { _id: page._id, version: page.version },
      { $set: { title, summary, parts, version: next.version, bytes: next.bytes, html, etag: next.etag, revisionPending: true, updatedBy: actor, updatedAt: next.updatedAt } },
    );
    if (r.modifiedCount !== 1) {
      await releaseUsage(database, ws._id, delta);
      if (expectedVersion !== undefined) {
        throw new AppError("version_conflict", `Someone changed the page at the same moment; it is no longer at version ${expectedVersion}. Read it again and reapply your change.`);
      }
      continue;
    }
    await storeRevision(database, next);
    await recordEvent(database, { workspaceId: ws._id, type: eventType, actor, target: { kind: "page", id: page._id, label: page.slug } });
    return next;
  }
  throw new AppError("version_conflict", "The page is changing too fast; try again.");
}

/** Changes a page's title, summary or body (see changePage for versions). */
export async function updatePage(deps: PageDeps, principal: Principal, input: UpdatePageInput): Promise<PageDoc> {
  return changePage(deps, principal, input.slug, input.expected_version, "page.updated", (page) => {
    let parts = page.parts;
    if (input.body_markdown !== undefined) parts = applyBody(parts, "markdown", input.body_markdown);
    if (input.body_html !== undefined) parts = applyBody(parts, "html", input.body_html);
    if (input.tables !== undefined) {
      const kept = parts.filter((p) => p.kind !== "table_view");
      parts = [...kept, ...tableParts(input.tables, kept.length)];
    }
    return { title: input.title ?? page.title, summary: input.summary ?? page.summary, parts };
  });
}

/** One earlier version of a page, whole. */
export async function getRevision(database: Database, principal: Principal, slug: string, version: number): Promise<RevisionDoc & { insider: boolean }> {
  const { page, workspace } = await getReadablePage(database, principal, { slug });
  const rev = await database.c.revisions.findOne({ pageId: page._id, version });
  if (!rev) throw new AppError("not_found", `The page has no version ${version}.`);
  return { ...rev, insider: isInsider(principal, workspace) };
}

/** Brings an earlier version back as a new version; nothing in between is lost. */
export async function restoreRevision(
  deps: PageDeps,
  principal: Principal,
  input: { slug: string; version: number; expected_version?: number },
): Promise<PageDoc> {
  const rev = await getRevision(deps.database, principal, input.slug, input.version);
  return changePage(deps, principal, input.slug, input.expected_version, "page.restored", () => ({ title: rev.title, summary: rev.summary, parts: rev.parts }));
}

export async function deletePage(deps: PageDeps, principal: Principal, slug: string): Promise<{ page_id: string; slug: string }> {
  const { database } = deps;
  const { page, workspace: ws } = await getReadablePage(database, principal, { slug });
  assertCan(principal, ws, "write", "page");
  await markUsageChanging(database, ws._id);
  const r = await database.c.pages.deleteOne({ _id: page._id });
  if (r.deletedCount !== 1) throw new AppError("not_found", "No such page.");
  await releaseUsage(database, ws._id, { pages: 1, bytes: page.bytes });
  await database.c.revisions.deleteMany({ pageId: page._id });
  await recordEvent(database, { workspaceId: ws._id, type: "page.deleted", actor: actorOf(principal), target: { kind: "page", id: page._id, label: page.slug } });
  return { page_id: page._id, slug: page.slug };
}

/** Every version of a page, newest first, as the principal may see them. */
export async function pageHistory(database: Database, principal: Principal, slug: string) {
  const { page, workspace } = await getReadablePage(database, principal, { slug });
  const revisions = await database.c.revisions.find({ pageId: page._id }).sort({ version: -1 }).limit(500).toArray();
  const insider = isInsider(principal, workspace);
  return revisions.map((r) => revisionView(r, insider));
}

export function revisionView(r: RevisionDoc, insider: boolean) {
  return { version: r.version, title: r.title, summary: r.summary, actor: actorForReader(r.actor, insider), created_at: r.createdAt.toISOString() };
}

/** Pages of a workspace in slug order, `limit` at a time; `cursor` is the last slug seen. */
export async function listPages(
  database: Database,
  principal: Principal,
  input: { workspace: WorkspaceDoc; collection?: string; cursor?: string; limit?: number },
): Promise<{ pages: PageDoc[]; nextCursor: string | null }> {
  assertCan(principal, input.workspace, "read");
  const limit = Math.min(Math.max(input.limit ?? 50, 1), 200);
  const filter: Record<string, unknown> = { workspaceId: input.workspace._id };
  if (input.collection) {
    const c = await database.c.collections.findOne({ workspaceId: input.workspace._id, slug: input.collection });
    if (!c) throw new AppError("not_found", `No collection "${input.collection}" in this workspace.`);
    filter.collectionId = c._id;
  }
  if (input.cursor) filter.slug = { $gt: decodeCursor(input.cursor) };
  const pages = await database.c.pages
    .find(filter, { projection: { html: 0 } })
    .sort({ slug: 1 })
    .limit(limit + 1)
    .toArray();
  const more = pages.length > limit;
  const out = more ? pages.slice(0, limit) : pages;
  const last = out[out.length - 1];
  return { pages: out, nextCursor: more && last ? encodeCursor(last.slug) : null };
}

export function encodeCursor(value: string): string {
  return Buffer.from(value, "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): string {
  const v = Buffer.from(cursor, "base64url").toString("utf8");
  if (!v || v.length > 200) throw new AppError("invalid_request", "cursor: is not one we gave out");
  return v;
}

/**
 * Pages whose title, summary or text contains `query` (case-insensitive), in the named
 * workspace or in every workspace the principal belongs to. At most 20, by slug.
 */
export async function searchPages(
  database: Database,
  principal: Principal,
  input: { query: string; workspace?: WorkspaceDoc; reachable: WorkspaceDoc[] },
): Promise<{ page: PageDoc; workspace: WorkspaceDoc }[]> {
  const spaces = input.workspace ? [input.workspace] : input.reachable;
  const readable = spaces.filter((ws) => can(principal, ws, "read"));
  if (readable.length === 0) return [];
  const pattern = input.query.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = { $regex: pattern, $options: "i" };
  const pages = await database.c.pages
    .find(
      { workspaceId: { $in: readable.map((w) => w._id) }, $or: [{ title: re }, { summary: re }, { "parts.body": re }] },
      { projection: { html: 0 } },
    )
    .sort({ slug: 1 })
    .limit(20)
    .toArray();
  const byId = new Map(readable.map((w) => [w._id, w]));
  return pages.flatMap((page) => {
    const workspace = byId.get(page.workspaceId);
    return workspace ? [{ page, workspace }] : [];
  });
}
