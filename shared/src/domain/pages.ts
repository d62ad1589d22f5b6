// Pages (artifacts): living documents with ordered parts, a version, and one revision per
// version with its actor. Every write goes through the access rules and `changePage`; every
// use case returns the view both adapters answer with.
import type { CollectionDoc, PageDoc, PartDoc, RevisionDoc, WorkspaceDoc } from "../db/index";
import { AppError, isDuplicateKey } from "../errors";
import { newId, newPageId, revisionId } from "../ids";
import { utf8Bytes } from "../schemas/cells";
import type { CreatePageInput, PageListView, PageSummaryView, PageView, RevisionView, UpdatePageInput } from "../schemas/pages";
import { z } from "zod";
import { actorForReader, actorOf, assertCan, can, type Principal, type Reader, readerIn } from "./access";
import { artifactUrl, forgetArtifact, releaseSlug, renderDocument, reserveSlug, SLUG_REDIRECT_DAYS, writeRendition } from "./artifacts";
import { changeSummary, countLines } from "./change-summary";
import { etagOf } from "./render";
import { addSeconds, now } from "./clock";
import { decodeCursor, encodeCursor } from "./cursors";
import type { StoreDeps } from "./deps";
import { recordEvent } from "./events";
import { contentBytes, EVENT_BYTES, markUsageChanging, releaseUsage, reserveUsage } from "./limits";
import type { TableViewSpec } from "./table-views";
import { DEFAULT_COLLECTION_SLUG, ensureDefaultCollection, findWorkspace, readableWorkspace, resolveWorkspaceForWrite, workspacesOf } from "./workspaces";

export { artifactUrl };

const pageSlugKey = (slug: string) => `pageslug:${slug}`;
const collectionSlugKey = (id: string) => `colslug:${id}`;
const pageKey = (id: string) => `page:${id}`;

/** Drops this process's cached copy of a page after a change to it (DESIGN §1). */
function forgetPage(deps: Pick<StoreDeps, "cache">, id: string): void {
  deps.cache.delete(pageKey(id));
}

/**
 * A page by id for a reader: through the read cache (at most CACHE_TTL_MS old in other
 * processes; the process that changes a page drops it at once). Writers read exactly.
 */
function pageForReading(deps: StoreDeps, id: string): Promise<PageDoc | null> {
  return deps.cache.through(pageKey(id), () => deps.database.c.pages.findOne({ _id: id }), { bytes: (p) => (p ? 2 * p.bytes + 1024 : 0) });
}

// ---- reading ---------------------------------------------------------------------------

/** A collection's slug by id (slugs never change, so a cached one stays right). */
function collectionSlug(deps: StoreDeps, collectionId: string): Promise<string> {
  return deps.cache.through(
    collectionSlugKey(collectionId),
    async () => (await deps.database.c.collections.findOne({ _id: collectionId }, { projection: { slug: 1 } }))?.slug ?? DEFAULT_COLLECTION_SLUG,
    { bytes: () => 64 },
  );
}

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

async function viewOf(deps: StoreDeps, principal: Principal, page: PageDoc, ws: WorkspaceDoc): Promise<PageView> {
  return pageView(deps.config.BASE_URL, page, ws.slug, await collectionSlug(deps, page.collectionId), readerIn(principal, ws));
}

const summaryOf = ({ parts: _parts, ...rest }: PageView): PageSummaryView => rest;

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
  if (!page || !ws || !can(principal, ws, "read")) throw new AppError("not_found", "No such page.");
  return { page, ws };
}

export async function getPage(deps: StoreDeps, principal: Principal, by: { slug: string } | { pageId: string }): Promise<PageView> {
  // Access is checked on every call; only the documents may come from the cache.
  const { page, ws } = await readablePage(deps, principal, by, true);
  return viewOf(deps, principal, page, ws);
}

const PagesCursor = z.object({ s: z.string().min(1).max(64) }).strict();

/** Pages of a workspace in slug order, `limit` at a time. */
export async function listPages(
  deps: StoreDeps,
  principal: Principal,
  input: { workspace: string; collection?: string | undefined; cursor?: string | undefined; limit?: number | undefined },
): Promise<PageListView> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  const limit = Math.min(Math.max(input.limit ?? 50, 1), 200);
  const filter: Record<string, unknown> = { workspaceId: ws._id };
  if (input.collection) {
    const c = await deps.database.c.collections.findOne({ workspaceId: ws._id, slug: input.collection }, { projection: { _id: 1 } });
    if (!c) throw new AppError("not_found", `No collection "${input.collection}" in this workspace.`);
    filter.collectionId = c._id;
  }
  if (input.cursor) filter.slug = { $gt: decodeCursor(deps.config.SECRET_KEY, "pages", input.cursor, PagesCursor).s };
  const found = await deps.database.c.pages
    .find(filter)
    .sort({ slug: 1 })
    .limit(limit + 1)
    .toArray();
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  const views = await Promise.all(page.map((p) => viewOf(deps, principal, p, ws)));
  return { pages: views.map(summaryOf), next_cursor: found.length > limit && last ? encodeCursor(deps.config.SECRET_KEY, "pages", { s: last.slug }) : null };
}

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

function revisionView(r: RevisionDoc, reader: Reader): RevisionView {
  return {
    version: r.version,
    title: r.title,
    summary: r.summary,
    actor: actorForReader(r.actor, reader),
    created_at: r.createdAt.toISOString(),
    restored_from: r.restoredFrom ?? null,
    changes: (r.changes ?? []).filter((c): c is RevisionView["changes"][number] => ["created", "title", "summary", "text", "tables", "restored"].includes(c)),
    lines_added: r.lines?.added ?? null,
    lines_removed: r.lines?.removed ?? null,
    change_summary: changeSummary({ changes: r.changes ?? [], restoredFrom: r.restoredFrom ?? null, lines: r.lines ?? null }),
  };
}

/** Every version kept of a page, newest first, as the principal may see them. */
export async function pageHistory(deps: StoreDeps, principal: Principal, slug: string): Promise<RevisionView[]> {
  const { page, ws } = await readablePage(deps, principal, { slug });
  const revisions = await deps.database.c.revisions.find({ pageId: page._id }).sort({ version: -1 }).limit(500).toArray();
  const reader = readerIn(principal, ws);
  return revisions.map((r) => revisionView(r, reader));
}

async function readableRevision(deps: StoreDeps, principal: Principal, slug: string, version: number): Promise<{ rev: RevisionDoc; reader: Reader }> {
  const { page, ws } = await readablePage(deps, principal, { slug });
  const rev = await deps.database.c.revisions.findOne({ _id: revisionId(page._id, version) });
  if (!rev) throw new AppError("not_found", `The page has no version ${version} (or it is no longer kept).`);
  return { rev, reader: readerIn(principal, ws) };
}

/** One earlier version of a page, whole. */
export async function getRevision(deps: StoreDeps, principal: Principal, slug: string, version: number) {
  const { rev, reader } = await readableRevision(deps, principal, slug, version);
  return { ...revisionView(rev, reader), parts: rev.parts.map((p) => ({ id: p.id, kind: p.kind, body: p.body, position: p.position })) };
}

// ---- writing ---------------------------------------------------------------------------

async function resolveCollection(deps: StoreDeps, ws: WorkspaceDoc, slug: string | undefined): Promise<CollectionDoc> {
  if (slug === undefined || slug === DEFAULT_COLLECTION_SLUG) await ensureDefaultCollection(deps, ws._id);
  const c = await deps.database.c.collections.findOne({ workspaceId: ws._id, slug: slug ?? DEFAULT_COLLECTION_SLUG });
  if (!c) throw new AppError("not_found", `No collection "${slug}" in this workspace.`);
  if (c.kind !== "pages") throw new AppError("invalid_request", `"${c.slug}" is a table; pages go into a pages collection.`);
  return c;
}

function tableParts(specs: TableViewSpec[] | undefined, from: number): PartDoc[] {
  return (specs ?? []).map((spec, i) => ({ id: newId("prt"), kind: "table_view", body: JSON.stringify(spec), position: from + i }));
}

/**
 * Finishes a written version, each step idempotent (the sweeper runs it again for a page a
 * process left half-written): its revision, its rendered document, the oldest revisions
 * beyond REVISIONS_KEPT pruned (their bytes given back), then the pending mark cleared.
 */
export async function finishVersion(deps: StoreDeps, page: PageDoc, ws: WorkspaceDoc, html?: string, renditionCharged?: number): Promise<void> {
  const { database, config } = deps;
  const revision: RevisionDoc = {
    _id: revisionId(page._id, page.version),
    pageId: page._id,
    workspaceId: page.workspaceId,
    version: page.version,
    title: page.title,
    summary: page.summary,
    parts: page.parts,
    bytes: page.bytes,
    restoredFrom: page.lastChange.restoredFrom,
    changes: page.lastChange.changes,
    lines: page.lastChange.lines ?? null,
    actor: page.updatedBy,
    createdAt: page.updatedAt,
  };
  try {
    await database.c.revisions.insertOne(revision);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  const renditionChange = await writeRendition(deps, page, ws, html ?? (await renderDocument(deps, page)));
  // The writer charged the document's growth as it saw it before writing; versions finishing
  // at once can see the same older document, so the charge is trued up to what was written.
  if (renditionCharged !== undefined && renditionChange !== renditionCharged) {
    await releaseUsage({ database }, page.workspaceId, { pages: 0, bytes: renditionCharged - renditionChange });
  }
  const oldest = page.version - config.REVISIONS_KEPT;
  if (oldest >= 1) {
    const pruned = await database.c.revisions.find({ pageId: page._id, version: { $lte: oldest } }, { projection: { bytes: 1 } }).toArray();
    // Two versions finishing at once find the same old revisions: each gives back only the
    // bytes of those it deleted itself, so the counter is never released twice (issue 13).
    let freed = 0;
    for (const p of pruned) if ((await database.c.revisions.deleteOne({ _id: p._id })).deletedCount === 1) freed += p.bytes;
    if (freed > 0) await releaseUsage({ database }, page.workspaceId, { pages: 0, bytes: freed });
  }
  await database.c.pages.updateOne({ _id: page._id, version: page.version }, { $set: { revisionPending: false } });
  forgetPage(deps, page._id);
}

/** Creates a page with one part. A taken slug is `conflict`, whoever holds it. */
export async function createPage(deps: StoreDeps, principal: Principal, input: CreatePageInput) {
  const { database } = deps;
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
  let written = false;
  try {
    const html = await renderDocument(deps, { slug: input.slug, title: input.title, summary, parts, workspaceId: ws._id });
    const t = now();
    const bytes = contentBytes({ title: input.title, summary, parts });
    const page: PageDoc = {
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
      createdBy: actor,
      updatedBy: actor,
      createdAt: t,
      updatedAt: t,
    };
    // The page, its first revision, its document and the event.
    const delta = { pages: 1, bytes: 2 * bytes + utf8Bytes(html) + EVENT_BYTES };
    await reserveUsage(deps, ws, delta);
    try {
      await database.c.pages.insertOne(page);
    } catch (err) {
      // The insert may have reached the database even though it failed here (a dropped
      // connection): undo it, since the caller sees a failure. Should the undo itself fail,
      // the page may exist: its slug is kept, and the sweeper finishes the page from its marks.
      const undone = await database.c.pages.deleteOne({ _id: pageId }).then(
        () => true,
        () => false,
      );
      if (undone) await releaseUsage({ database }, ws._id, delta).catch(() => undefined);
      written = !undone;
      throw err;
    }
    written = true;
    await finishVersion(deps, page, ws, html, utf8Bytes(html));
    deps.cache.delete(pageSlugKey(page.slug));
    await recordEvent(deps, { workspaceId: ws._id, type: "page.created", actor, target: { kind: "page", id: page._id, label: page.title } }, { counted: true });
    return {
      page: pageView(deps.config.BASE_URL, page, ws.slug, collection.slug, readerIn(principal, ws)),
      part: { id: part.id, kind: part.kind, body: part.body, position: part.position },
      collection: { id: collection._id, slug: collection.slug, name: collection.name, kind: collection.kind },
    };
  } catch (err) {
    if (!written) await releaseSlug(deps, input.slug, pageId).catch(() => undefined);
    throw err;
  }
}

interface PageChange {
  title: string;
  summary: string;
  parts: PartDoc[];
  restoredFrom?: number;
}

const ATTEMPTS = 30;

function versionConflict(current: number, expected: number, why = "someone changed it meanwhile"): AppError {
  return new AppError("version_conflict", `The page is at version ${current}, not ${expected}; ${why}. Read it again and reapply your change.`, {
    details: { current_version: current },
  });
}

/** What a change touched, for the history ("title, text"). */
function changesBetween(before: Pick<PageDoc, "title" | "summary" | "parts">, after: PageChange): string[] {
  const out: string[] = [];
  if (after.restoredFrom !== undefined) out.push("restored");
  if (before.title !== after.title) out.push("title");
  if (before.summary !== after.summary) out.push("summary");
  const body = (parts: PartDoc[]) =>
    parts
      .filter((p) => p.kind !== "table_view")
      .map((p) => `${p.kind}:${p.body}`)
      .join("\u0000");
  const tables = (parts: PartDoc[]) =>
    parts
      .filter((p) => p.kind === "table_view")
      .map((p) => p.body)
      .join("\u0000");
  if (body(before.parts) !== body(after.parts)) out.push("text");
  if (tables(before.parts) !== tables(after.parts)) out.push("tables");
  return out;
}

/** A page's text (its Markdown and HTML parts, in order), for counting changed lines. */
function textOf(parts: PartDoc[]): string {
  return [...parts]
    .sort((a, b) => a.position - b.position)
    .filter((p) => p.kind !== "table_view")
    .map((p) => p.body)
    .join("\n");
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Applies `change` to the current page as one new version. One writer at a time prepares a
 * page's next version: it first claims it (`writing`, conditional on the version read), and
 * only then renders, reserves usage and writes — so the losers of a race neither render nor
 * inflate the usage counters. With `expectedVersion`, a page that has moved on (or is being
 * changed right now) is a `version_conflict`, never an overwrite; without it, the change
 * applies to whatever is current, waiting its turn.
 */
async function changePage(
  deps: StoreDeps,
  principal: Principal,
  slug: string,
  expectedVersion: number | undefined,
  eventType: string,
  change: (page: PageDoc) => PageChange,
): Promise<PageView> {
  const { database, config } = deps;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { page, ws } = await readablePage(deps, principal, { slug });
    assertCan(principal, ws, "write", "page");
    if (expectedVersion !== undefined && expectedVersion !== page.version) throw versionConflict(page.version, expectedVersion);
    const t = now();
    const stale = addSeconds(t, -config.SWEEP_GRACE_SECONDS);
    const busy = page.writing !== null && page.writing.since > stale;
    const claim = { version: page.version + 1, since: t };
    const claimed =
      !busy &&
      (
        await database.c.pages.updateOne(
          { _id: page._id, version: page.version, $or: [{ writing: null }, { "writing.since": { $lte: stale } }] },
          { $set: { writing: claim } },
        )
      ).modifiedCount === 1;
    if (!claimed) {
      if (expectedVersion !== undefined) throw versionConflict(page.version, expectedVersion, "someone is changing it at this moment");
      await sleep(Math.random() * 10 * Math.min(attempt + 1, 8));
      continue;
    }
    const release = () =>
      database.c.pages.updateOne({ _id: page._id, "writing.version": claim.version, "writing.since": claim.since }, { $set: { writing: null } });
    try {
      const actor = actorOf(principal);
      const next = change(page);
      const html = await renderDocument(deps, { slug: page.slug, title: next.title, summary: next.summary, parts: next.parts, workspaceId: ws._id });
      const bytes = contentBytes(next);
      const stored = await database.c.artifacts.findOne({ _id: page.slug }, { projection: { bytes: 1 } });
      // The page's new content, its new revision, its document's growth and the event.
      const renditionCharged = utf8Bytes(html) - (stored?.bytes ?? 0);
      const delta = { pages: 0, bytes: bytes - page.bytes + bytes + renditionCharged + EVENT_BYTES };
      await reserveUsage(deps, ws, delta);
      const lastChange = {
        changes: changesBetween(page, next),
        restoredFrom: next.restoredFrom ?? null,
        lines: countLines(textOf(page.parts), textOf(next.parts)),
      };
      const updatedAt = now();
      const r = await database.c.pages.updateOne(
        { _id: page._id, version: page.version, "writing.version": claim.version, "writing.since": claim.since },
        {
          $set: {
            title: next.title,
            summary: next.summary,
            parts: next.parts,
            version: claim.version,
            bytes,
            revisionPending: true,
            writing: null,
            lastChange,
            updatedBy: actor,
            updatedAt,
          },
        },
      );
      forgetPage(deps, page._id);
      if (r.modifiedCount !== 1) {
        // Our claim went stale and another writer took over: give back and start again.
        await releaseUsage({ database }, ws._id, delta);
        continue;
      }
      const written: PageDoc = {
        ...page,
        ...next,
        version: claim.version,
        bytes,
        revisionPending: true,
        writing: null,
        lastChange,
        updatedBy: actor,
        updatedAt,
      };
      await finishVersion(deps, written, ws, html, renditionCharged);
      await recordEvent(
        deps,
        {
          workspaceId: ws._id,
          type: eventType,
          actor,
          target: { kind: "page", id: page._id, label: written.title },
          ...(next.restoredFrom !== undefined ? { restoredFrom: next.restoredFrom } : {}),
        },
        { counted: true },
      );
      return viewOf(deps, principal, written, ws);
    } catch (err) {
      await release();
      throw err;
    }
  }
  throw new AppError("version_conflict", "The page is changing too fast; try again.");
}

function applyBody(parts: PartDoc[], kind: "markdown" | "html", body: string): PartDoc[] {
  const sorted = [...parts].sort((a, b) => a.position - b.position);
  const target = sorted.find((p) => p.kind === kind) ?? sorted.find((p) => p.kind !== "table_view");
  if (!target) return [...sorted, { id: newId("prt"), kind, body, position: sorted.length }];
  return sorted.map((p) => (p.id === target.id ? { ...p, kind, body } : p));
}

/** Changes a page's title, summary, body or tables (see changePage for versions). */
export async function updatePage(deps: StoreDeps, principal: Principal, input: UpdatePageInput): Promise<PageView> {
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

/** Brings an earlier version back as a new version; nothing in between is lost. */
export async function restoreRevision(
  deps: StoreDeps,
  principal: Principal,
  input: { slug: string; version: number; expected_version?: number | undefined },
): Promise<PageView> {
  const { rev } = await readableRevision(deps, principal, input.slug, input.version);
  return changePage(deps, principal, input.slug, input.expected_version, "page.restored", () => ({
    title: rev.title,
    summary: rev.summary,
    parts: rev.parts,
    restoredFrom: rev.version,
  }));
}

/** Deletes a page, its history and its address. */
export async function deletePage(deps: StoreDeps, principal: Principal, slug: string): Promise<{ page_id: string; slug: string }> {
  const { page, ws } = await readablePage(deps, principal, { slug });
  assertCan(principal, ws, "write", "page");
  // Marked first: from here on readers see no page, and the sweeper finishes what a stop leaves.
  const marked = await deps.database.c.pages.updateOne({ _id: page._id, deletingAt: null }, { $set: { deletingAt: now() } });
  forgetPage(deps, page._id);
  if (marked.modifiedCount !== 1) throw new AppError("not_found", "No such page.");
  await finishDelete(deps, page);
  await recordEvent(deps, { workspaceId: ws._id, type: "page.deleted", actor: actorOf(principal), target: { kind: "page", id: page._id, label: page.title } });
  return { page_id: page._id, slug: page.slug };
}

/** The steps of a delete after its mark, each idempotent: addresses, history, the page, then the usage it held. */
export async function finishDelete(deps: StoreDeps, page: Pick<PageDoc, "_id" | "slug" | "workspaceId" | "bytes">): Promise<void> {
  const { database } = deps;
  await markUsageChanging({ database }, page.workspaceId);
  const addresses = await database.c.artifacts.find({ pageId: page._id }, { projection: { bytes: 1 } }).toArray();
  await database.c.artifacts.deleteMany({ pageId: page._id });
  for (const a of addresses) forgetArtifact(deps, a._id);
  deps.cache.delete(pageSlugKey(page.slug));
  const revisions = await database.c.revisions.find({ pageId: page._id }, { projection: { bytes: 1 } }).toArray();
  await database.c.revisions.deleteMany({ pageId: page._id });
  const r = await database.c.pages.deleteOne({ _id: page._id });
  forgetPage(deps, page._id);
  const freed = (r.deletedCount === 1 ? page.bytes : 0) + revisions.reduce((n, x) => n + x.bytes, 0) + addresses.reduce((n, a) => n + a.bytes, 0);
  await releaseUsage({ database }, page.workspaceId, { pages: r.deletedCount, bytes: freed });
}

/**
 * Gives a page a new address. Its old one keeps answering with a redirect for
 * SLUG_REDIRECT_DAYS (and so do addresses it had before, now pointing at the new one); a
 * page of the same workspace may take the old address sooner. The page's next version is
 * claimed meanwhile (as a content write does), so no write lands on the old address. Steps:
 * the new address is reserved and given the current document, the old one becomes the
 * redirect, then the page takes the new slug. Stopped after the first step, the page still
 * answers at its old address and the same change can simply be made again.
 */
export async function movePage(deps: StoreDeps, principal: Principal, input: { slug: string; newSlug: string }): Promise<PageView> {
  const { database, config } = deps;
  const { page, ws } = await readablePage(deps, principal, { slug: input.slug });
  assertCan(principal, ws, "write", "page");
  if (input.newSlug === page.slug) return viewOf(deps, principal, page, ws);
  const t = now();
  const stale = addSeconds(t, -config.SWEEP_GRACE_SECONDS);
  const claim = { version: page.version + 1, since: t };
  const claimed = await database.c.pages.updateOne(
    { _id: page._id, version: page.version, $or: [{ writing: null }, { "writing.since": { $lte: stale } }] },
    { $set: { writing: claim } },
  );
  if (claimed.modifiedCount !== 1) throw versionConflict(page.version, page.version, "someone is changing it at this moment");
  const release = () => database.c.pages.updateOne({ _id: page._id, "writing.since": claim.since }, { $set: { writing: null } });
  let moved = false;
  try {
    await reserveSlug(deps, { slug: input.newSlug, pageId: page._id, workspaceId: ws._id });
    const current = await database.c.artifacts.findOne({ _id: page.slug, pageId: page._id });
    const html = current?.html ?? (await renderDocument(deps, { ...page, slug: input.newSlug }));
    await database.c.artifacts.updateOne(
      { _id: input.newSlug, pageId: page._id },
      {
        $set: {
          html,
          etag: current?.etag ?? etagOf(html),
          version: page.version,
          public: current?.public ?? false,
          bytes: current?.bytes ?? utf8Bytes(html),
          redirect: null,
          updatedAt: now(),
        },
      },
    );
    const until = addSeconds(now(), SLUG_REDIRECT_DAYS * 86_400);
    await database.c.artifacts.updateOne(
      { _id: page.slug, pageId: page._id },
      { $set: { html: null, etag: "", bytes: 0, redirect: { to: input.newSlug, until }, updatedAt: now() } },
    );
    moved = true;
    await database.c.pages.updateOne({ _id: page._id, "writing.since": claim.since }, { $set: { slug: input.newSlug, writing: null, updatedAt: now() } });
    // Addresses the page had before point straight at the new one (no chains of redirects).
    await database.c.artifacts.updateMany({ pageId: page._id, "redirect.until": { $gt: now() } }, { $set: { "redirect.to": input.newSlug } });
  } catch (err) {
    if (!moved) await database.c.artifacts.deleteOne({ _id: input.newSlug, pageId: page._id, redirect: null }).catch(() => undefined);
    await release().catch(() => undefined);
    throw err;
  } finally {
    forgetPage(deps, page._id);
    for (const s of [page.slug, input.newSlug]) {
      forgetArtifact(deps, s);
      deps.cache.delete(pageSlugKey(s));
    }
  }
  await recordEvent(deps, { workspaceId: ws._id, type: "page.moved", actor: actorOf(principal), target: { kind: "page", id: page._id, label: page.title } });
  return viewOf(deps, principal, { ...page, slug: input.newSlug, writing: null }, ws);
}
