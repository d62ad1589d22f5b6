// Longer than 300 lines: writing the stored document, reading it, and keeping the list of pages that show a table share the artifact's shape and its cache; split, each part would repeat them.
// What a page's public address serves (docs/contract.md#routes): its rendered document, kept in an
// artifact document keyed by the slug, with a copy of whether anyone may read it. A public
// read is one primary-key lookup (or none, from the cache); a private read adds the access
// check for the person asking. The page itself (pages.ts) is the source of truth: the
// artifact is written after it, and the sweeper rewrites one a stopped process left behind.
import type { ArtifactDoc, CollectionDoc, PageDoc, PartDoc, WorkspaceDoc } from "../db/index";
import { AppError } from "../errors";
import { utf8Bytes } from "../schemas/cells";
import { can, isHidden, type Principal } from "./access";
import { now } from "./clock";
import type { StoreDeps } from "./deps";
import { etagOf, RENDERER_VERSION, renderPage } from "./render";
import { parseTableViewSpec, renderTableView, tableOfPart } from "./table-views";
import { insertOnce } from "../db";

const artifactKey = (slug: string) => `art:${slug}`;
const workspaceTag = (workspaceId: string) => `artws:${workspaceId}`;

/** How long a moved page's old address keeps redirecting to the new one (docs/decisions.md). */
export const SLUG_REDIRECT_DAYS = 30;

export function artifactUrl(baseUrl: string, slug: string): string {
  return `${baseUrl}/a/${slug}`;
}

/** Whether anyone, signed in or not, may read the workspace's pages. */
export function isPublicWorkspace(ws: Pick<WorkspaceDoc, "visibility" | "sandbox" | "deletingAt">): boolean {
  return ws.visibility === "public" && !isHidden(ws);
}

/** The standalone document for a page, with its table_view parts read from their tables now. */
export async function renderDocument(deps: StoreDeps, p: Pick<PageDoc, "slug" | "title" | "summary" | "parts" | "workspaceId">): Promise<string> {
  const tables: Record<string, string> = {};
  for (const part of p.parts) {
    if (part.kind === "table_view") tables[part.id] = await renderTableView(deps, p.workspaceId, parseTableViewSpec(part.body));
  }
  return renderPage({ title: p.title, summary: p.summary, parts: p.parts, url: artifactUrl(deps.config.BASE_URL, p.slug), tables });
}

/**
 * Claims a slug for a new page: the artifact document is its key (html null until the page
 * is written). A slug another page holds is `conflict`; one kept only as the redirect of a
 * moved page is free again once the redirect has run out (SLUG_REDIRECT_DAYS), or at once
 * for a page of the same workspace.
 */
export async function reserveSlug(deps: StoreDeps, input: { slug: string; pageId: string; workspaceId: string }): Promise<void> {
  const t = now();
  const doc: ArtifactDoc = {
    _id: input.slug,
    pageId: input.pageId,
    workspaceId: input.workspaceId,
    version: 0,
    html: null,
    etag: "",
    public: false,
    bytes: 0,
    redirect: null,
    updatedAt: t,
  };
  if (await insertOnce(deps.database.c.artifacts, doc)) return;
  const { _id: _ignored, ...fields } = doc;
  // A moved page's old address: free once its redirect has run out, or at once for a page of
  // the same workspace (its owners chose to reuse it; another workspace never takes it early).
  const took = await deps.database.c.artifacts.updateOne(
    { _id: input.slug, $or: [{ "redirect.until": { $lte: t } }, { workspaceId: input.workspaceId, "redirect.until": { $gte: new Date(0) } }] },
    { $set: fields },
  );
  if (took.modifiedCount === 1) {
    deps.cache.delete(artifactKey(input.slug));
    return;
  }
  const held = await deps.database.c.artifacts.findOne({ _id: input.slug }, { projection: { pageId: 1 } });
  if (held?.pageId !== input.pageId) throw new AppError("conflict", `The slug "${input.slug}" is already used by another page.`);
}

/** Gives a reserved slug back (a create that failed before its page was written). */
export async function releaseSlug(deps: StoreDeps, slug: string, pageId: string): Promise<void> {
  await deps.database.c.artifacts.deleteOne({ _id: slug, pageId, html: null });
}

/**
 * Stores the document a page version serves, unless a later version's is already there.
 * Returns how many bytes the stored document grew by (for the usage counters).
 *
 * Who writes an artifact's `public`: the workspace's visibility change (syncArtifactVisibility,
 * for every artifact of the workspace), and the writer of the first document at an address
 * (version 1), which reads the workspace again afterwards, so that a visibility change that
 * ran meanwhile is applied here too. A later version leaves `public` as it is: it was right
 * before the version and only a visibility change changes it, so writing it again could only
 * bring back an older value (the writer's workspace may come from the read cache). That
 * saves every later version a read of the workspace.
 */
export async function writeRendition(
  deps: StoreDeps,
  page: Pick<PageDoc, "_id" | "slug" | "version" | "workspaceId">,
  ws: WorkspaceDoc,
  html: string,
): Promise<number> {
  const { database } = deps;
  const bytes = utf8Bytes(html);
  const first = page.version === 1;
  // One atomic swap that hands back the document it replaced (the embedded FerretDB takes no projection here), so the size change
  // returned is exactly what this write changed, even when versions finishing at once write
  // their documents in any order; a newer version's document is left as it is.
  const before = await database.c.artifacts.findOneAndUpdate(
    { _id: page.slug, pageId: page._id, version: { $lte: page.version } },
    {
      $set: {
        html,
        etag: etagOf(html),
        version: page.version,
        ...(first ? { public: isPublicWorkspace(ws) } : {}),
        bytes,
        updatedAt: now(),
        renderer: RENDERER_VERSION,
      },
    },
    { returnDocument: "before" },
  );
  if (!before) return 0;
  deps.cache.delete(artifactKey(page.slug));
  if (first) await applyVisibilitySince(deps, page, isPublicWorkspace(ws));
  return bytes - before.bytes;
}

/**
 * After writing `public: written` on a page's artifact from a workspace read earlier: reads
 * the workspace again and applies its visibility as it is now, should a visibility change
 * have run meanwhile (its sync may have passed this artifact before the write).
 */
export async function applyVisibilitySince(deps: StoreDeps, page: Pick<PageDoc, "_id" | "slug" | "workspaceId">, written: boolean): Promise<void> {
  const fresh = await deps.database.c.workspaces.findOne({ _id: page.workspaceId }, { projection: { visibility: 1, sandbox: 1 } });
  if (fresh && isPublicWorkspace(fresh) !== written) {
    await deps.database.c.artifacts.updateOne({ _id: page.slug, pageId: page._id }, { $set: { public: isPublicWorkspace(fresh) } });
    deps.cache.delete(artifactKey(page.slug));
  }
}

/**
 * Re-renders the document of a page whose tables changed (its version stays). Written only
 * if no newer document was stored after `since`, the moment its rows were read.
 */
export async function rerender(deps: StoreDeps, page: PageDoc, ws: WorkspaceDoc): Promise<number> {
  const since = now();
  const html = await renderDocument(deps, page);
  const { database } = deps;
  const before = await database.c.artifacts.findOne({ _id: page.slug, pageId: page._id }, { projection: { bytes: 1 } });
  if (!before) return 0;
  const bytes = utf8Bytes(html);
  const r = await database.c.artifacts.updateOne(
    { _id: page.slug, pageId: page._id, version: page.version, updatedAt: { $lte: since } },
    { $set: { html, etag: etagOf(html), public: isPublicWorkspace(ws), bytes, updatedAt: now(), renderer: RENDERER_VERSION } },
  );
  deps.cache.delete(artifactKey(page.slug));
  return r.modifiedCount === 1 ? bytes - before.bytes : 0;
}

/** Copies a workspace's visibility onto its artifacts, then clears the change's mark. */
export async function syncArtifactVisibility(deps: StoreDeps, ws: WorkspaceDoc): Promise<void> {
  const fresh = (await deps.database.c.workspaces.findOne({ _id: ws._id })) ?? ws;
  await deps.database.c.artifacts.updateMany({ workspaceId: ws._id }, { $set: { public: isPublicWorkspace(fresh) } });
  deps.cache.deleteTag(workspaceTag(ws._id));
  if (fresh.visibilitySyncAt)
    await deps.database.c.workspaces.updateOne({ _id: ws._id, visibilitySyncAt: fresh.visibilitySyncAt }, { $set: { visibilitySyncAt: null } });
}

/** Forgets the artifacts of a workspace this process has cached (after a change to it). */
export function forgetArtifacts(deps: Pick<StoreDeps, "cache">, workspaceId: string): void {
  deps.cache.deleteTag(workspaceTag(workspaceId));
}

export function forgetArtifact(deps: Pick<StoreDeps, "cache">, slug: string): void {
  deps.cache.delete(artifactKey(slug));
}

type Served = Pick<ArtifactDoc, "_id" | "pageId" | "workspaceId" | "html" | "etag" | "public" | "redirect" | "renderer">;

/**
 * An artifact by slug. Public ones come from the cache (at most CACHE_TTL_MS old); private
 * ones are read afresh every time, so private content is never cached across readers.
 */
async function artifactBySlug(deps: StoreDeps, slug: string): Promise<Served | null> {
  const cached = deps.cache.get<Served>(artifactKey(slug));
  if (cached) return cached;
  const read = () =>
    deps.database.c.artifacts.findOne({ _id: slug }, { projection: { pageId: 1, workspaceId: 1, html: 1, etag: 1, public: 1, redirect: 1, renderer: 1 } });
  // CACHE_TTL_MS=0: every read is the request's own.
  if (!deps.cache.enabled) return read();
  // When a hot page's entry runs out, every request in flight misses at once: they share one read.
  let loads = loading.get(deps.cache);
  if (!loads) loading.set(deps.cache, (loads = new Map()));
  const pending = loads.get(slug);
  if (pending) return pending;
  const load = (async () => {
    const doc = await read();
    if (doc && (doc.public || doc.redirect)) {
      deps.cache.set(artifactKey(slug), doc, { bytes: doc.html?.length ?? 0, tags: [workspaceTag(doc.workspaceId)] });
    }
    return doc;
  })().finally(() => loads.delete(slug));
  loads.set(slug, load);
  return load;
}

/** The artifact reads in flight, per cache (one per process; tests run several). */
const loading = new WeakMap<object, Map<string, Promise<Served | null>>>();

/**
 * A public page's document when this process already holds it (the read cache), without
 * touching the database: what the lean read path in front of the router serves. The same
 * object comes back while the entry lives, so callers may key derived bytes on it. Anything
 * else (a miss, a private page, a redirect) is null: the full route answers those.
 */
export function cachedPublicArtifact(
  deps: Pick<StoreDeps, "cache">,
  slug: string,
): { readonly html: string; readonly etag: string; readonly workspaceId: string; readonly pageId: string } | null {
  const doc = deps.cache.get<Served>(artifactKey(slug));
  if (!doc || !doc.public || doc.redirect || doc.html === null) return null;
  return doc as { html: string; etag: string; workspaceId: string; pageId: string };
}

export type RenderedArtifact =
  | { kind: "document"; html: string; etag: string; isPublic: boolean; workspaceId: string; pageId: string }
  | { kind: "moved"; slug: string; isPublic: boolean }
  | null;

/**
 * What a browser route serves: the rendered document, or where a moved page went, or null
 * (missing or not readable: the same answer). A public page costs at most one lookup.
 */
export async function getRenderedArtifact(
  deps: StoreDeps,
  principal: Principal | (() => Promise<Principal>),
  by: { slug: string } | { pageId: string },
  opts: { fresh?: boolean } = {},
): Promise<RenderedArtifact> {
  let slug: string;
  if ("slug" in by) slug = by.slug;
  else {
    const page = await deps.database.c.pages.findOne({ _id: by.pageId }, { projection: { slug: 1 } });
    if (!page) return null;
    slug = page.slug;
  }
  // A live page reloading after a change (`?v=`) asks for the stored document, not this
  // process's copy: its follower may not have read that change's signal yet.
  if (opts.fresh) forgetArtifact(deps, slug);
  const doc = await artifactBySlug(deps, slug);
  if (!doc) return null;
  if (doc.redirect && doc.redirect.until <= now()) return null;
  if (!doc.redirect && doc.html === null) return null;
  if (!doc.redirect && (doc.renderer ?? 1) < RENDERER_VERSION) refreshStale(deps, doc);
  const answer = (isPublic: boolean): RenderedArtifact =>
    doc.redirect
      ? { kind: "moved", slug: doc.redirect.to, isPublic }
      : { kind: "document", html: doc.html ?? "", etag: doc.etag, isPublic, workspaceId: doc.workspaceId, pageId: doc.pageId };
  if (doc.public) return answer(true);
  // A private page's old address says where it went only to those who may read it.
  const who = typeof principal === "function" ? await principal() : principal;
  if (who.kind === "nobody") return null;
  const ws = await deps.cache.through(`ws:${doc.workspaceId}`, () => deps.database.c.workspaces.findOne({ _id: doc.workspaceId }));
  if (!ws || !can(who, ws, "read")) return null;
  return answer(false);
}

/** The refreshes under way in this process, per cache (one per process; tests run several). */
const refreshing = new WeakMap<object, Set<string>>();

/**
 * A document made by an older renderer is made again, in the background, when it is read:
 * this reader gets the stored one, later readers the new one (within CACHE_TTL_MS). Pages
 * nobody reads are never re-rendered (no scan of every stored document), and the rendering
 * is the same conditional write a table change makes (`rerender`): a newer version written
 * meanwhile wins. Best effort: a refresh that fails is tried again on a later read.
 */
function refreshStale(deps: StoreDeps, doc: Served): void {
  let running = refreshing.get(deps.cache);
  if (!running) refreshing.set(deps.cache, (running = new Set()));
  if (running.has(doc._id)) return;
  running.add(doc._id);
  void (async () => {
    const page = await deps.database.c.pages.findOne({ _id: doc.pageId });
    if (!page || page.slug !== doc._id || page.deletingAt || page.revisionPending) return;
    const ws = await deps.database.c.workspaces.findOne({ _id: page.workspaceId });
    if (!ws || isHidden(ws)) return;
    const grew = await rerender(deps, page, ws);
    if (grew !== 0) await deps.database.c.workspaces.updateOne({ _id: ws._id }, { $inc: { "usage.bytes": grew } });
  })()
    .catch(() => undefined)
    .finally(() => running.delete(doc._id));
}

/**
 * Notes on each table a page's parts show (and its previous version's did not) that the
 * page shows it. Called before the version's document is rendered, so a row change made
 * after that render finds the page (refreshTableViews); a row change made before it is in it.
 */
export async function noteTableViewers(
  deps: StoreDeps,
  workspaceId: string,
  pageId: string,
  parts: readonly PartDoc[],
  before: readonly PartDoc[] = [],
): Promise<void> {
  const had = new Set(before.map(tableOfPart));
  const slugs = new Set(parts.map(tableOfPart).filter((s): s is string => s !== null && !had.has(s)));
  for (const slug of slugs) await deps.database.c.collections.updateOne({ workspaceId, slug }, { $addToSet: { viewedBy: pageId } });
}

/**
 * Re-renders the documents of a workspace's pages that show this table, after its rows or
 * columns changed, so reads stay lookups. Their growth counts in the workspace's usage
 * (never refused: the rows were already counted). The pages come from the table's list of
 * viewers, each read by `_id`; a table whose list was never filled has its pages read once
 * (every page of the workspace with a table view: a scan of all pages on the embedded
 * database, 110–130 ms per row write in `pnpm bench writes`) and the list filled.
 */
export async function refreshTableViews(
  deps: StoreDeps,
  ws: WorkspaceDoc,
  table: Pick<CollectionDoc, "_id" | "slug">,
  /** The table as read after the row change (tableChanged's), which need not be read again. */
  after?: Pick<CollectionDoc, "viewedBy" | "viewersKnown"> | null,
): Promise<void> {
  const { database } = deps;
  const known = after ?? (await database.c.collections.findOne({ _id: table._id }, { projection: { viewedBy: 1, viewersKnown: 1 } }));
  let pages: PageDoc[];
  if (known?.viewersKnown) {
    const found = await Promise.all((known.viewedBy ?? []).slice(0, 100).map((id) => database.c.pages.findOne({ _id: id })));
    pages = found.filter((p): p is PageDoc => p !== null && p.workspaceId === ws._id);
  } else {
    pages = await database.c.pages.find({ workspaceId: ws._id, "parts.kind": "table_view" }).limit(100).toArray();
    if (known) {
      for (const page of pages)
        if (page.parts.some((p) => tableOfPart(p) === table.slug))
          await database.c.collections.updateOne({ _id: table._id }, { $addToSet: { viewedBy: page._id } });
      await database.c.collections.updateOne({ _id: table._id }, { $set: { viewersKnown: true } });
    }
  }
  let grew = 0;
  for (const page of pages) {
    if (page.parts.some((p) => tableOfPart(p) === table.slug)) grew += await rerender(deps, page, ws);
  }
  if (grew !== 0) await database.c.workspaces.updateOne({ _id: ws._id }, { $inc: { "usage.bytes": grew } });
}
