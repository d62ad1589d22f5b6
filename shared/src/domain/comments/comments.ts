// Comments and review threads (docs/comments.md), for people and agents alike: on a passage
// of a page (its exact quote, some context, and the version it was quoted on), on a whole
// page, or on a table row; replies; resolve and reopen; edit and delete one's own.
//
// Who may (docs/decisions.md, "Comments: who sees and writes them"): members of every role
// read and write them, agents with mcp:read read and with mcp:write write, a sandbox's own
// token inside its sandbox; public visitors and share-link readers see none. Each change is
// an event on the change feed, written in the same step (events.ts); a comment's bytes and
// its event count against the workspace's cap, reserved before it is written.
// Longer than 300 lines on purpose: adding, listing with re-anchoring, and the changes of a
// thread share their access, limits and views, which would otherwise be repeated.
import type { CommentDoc, CommentMention, PageDoc, WorkspaceDoc } from "../../db/index";
import { AppError, invalidField } from "../../errors";
import { newId, revisionId } from "../../ids";
import { utf8Bytes } from "../../schemas/cells";
import type {
  AddCommentInput,
  CommentsView,
  CommentView,
  DeleteCommentInput,
  EditCommentInput,
  ListCommentsInput,
  ResolveCommentInput,
  ThreadView,
} from "../../schemas/comments";
import { actorForReader, actorOf, can, isHidden, notReadable, type Principal, type Reader, readerIn } from "../access";
import { now } from "../clock";
import type { StoreDeps } from "../deps";
import { recordEvent } from "../events";
import { EVENT_BYTES, RECORD_OVERHEAD_BYTES, releaseUsage, reserveUsage } from "../limits";
import { markdownToHtml } from "../markdown";
import { readablePage } from "../pages/page-store";
import { textOf } from "../pages/version-diff";
import { findWorkspace, findWorkspaceBySlug, readableWorkspace } from "../workspaces";
import { findQuote, makeAnchor, reanchor, type QuoteAnchor } from "./anchor";
import { mayComment, type Need } from "./comment-access";
import { queueMentionMails, resolveMentions } from "./mentions";
import { locateSelection } from "./plain-text";

/** At most this many comments (with replies) on one page or one table. */
export const MAX_COMMENTS_PER_TARGET = 1_000;
/** At most this many replies in one thread. */
export const MAX_REPLIES = 200;

function assertMayComment(principal: Principal, ws: WorkspaceDoc, need: Need): void {
  if (mayComment(principal, ws, need)) return;
  if (!can(principal, ws, "read")) throw notReadable(principal, ws, "page");
  if (need === "write" && mayComment(principal, ws, "read"))
    throw new AppError("forbidden", "This token may read comments but not write them (it needs mcp:write).");
  throw new AppError("forbidden", "Only members of this workspace (and their agents) see and write its comments.");
}

/** The text comments on a page anchor in: its Markdown and HTML parts, in order. */
export function pageText(page: Pick<PageDoc, "parts">): string {
  return textOf(page.parts);
}

/** The page's text at `version`: its own while current, else its kept revision (null when no longer kept). */
async function textAt(deps: StoreDeps, page: PageDoc, version: number): Promise<string | null> {
  if (version === page.version) return pageText(page);
  const rev = await deps.database.c.revisions.findOne({ _id: revisionId(page._id, version) }, { projection: { parts: 1 } });
  return rev ? textOf(rev.parts) : null;
}

const bytesOf = (c: Pick<CommentDoc, "body" | "anchor">) =>
  RECORD_OVERHEAD_BYTES + utf8Bytes(c.body) + (c.anchor.kind === "quote" ? utf8Bytes(c.anchor.quote + c.anchor.prefix + c.anchor.suffix) : 0);

function targetOf(c: Pick<CommentDoc, "pageId" | "rowId">, label: string) {
  return c.rowId ? { kind: "row" as const, id: c.rowId, label } : { kind: "page" as const, id: c.pageId ?? "", label };
}

async function labelOf(deps: StoreDeps, c: Pick<CommentDoc, "pageId" | "collectionId">): Promise<string> {
  if (c.pageId) return (await deps.database.c.pages.findOne({ _id: c.pageId }, { projection: { title: 1 } }))?.title ?? "";
  if (c.collectionId) return (await deps.database.c.collections.findOne({ _id: c.collectionId }, { projection: { name: 1 } }))?.name ?? "";
  return "";
}

/** Refuses when the page or table holds as many comments as allowed. */
async function assertRoom(deps: StoreDeps, filter: Record<string, unknown>, max: number, what: string): Promise<void> {
  const n = await deps.database.c.comments.countDocuments(filter, { limit: max });
  if (n >= max) {
    throw new AppError("limit_exceeded", `${what} holds at most ${max} comments; resolve and delete old ones first.`, { details: { limit: "comments", max } });
  }
}

/** Stores a new comment: its bytes and its event reserved first, the event written with it. */
async function store(deps: StoreDeps, ws: WorkspaceDoc, doc: CommentDoc, label: string): Promise<void> {
  const mentions = await resolveMentions(deps, ws, doc.body);
  if (mentions.length > 0) doc.mentions = mentions;
  await reserveUsage(deps, ws, { pages: 0, bytes: doc.bytes + EVENT_BYTES });
  try {
    await deps.database.c.comments.insertOne(doc);
  } catch (err) {
    await releaseUsage(deps, ws._id, { pages: 0, bytes: doc.bytes + EVENT_BYTES });
    throw err;
  }
  await recordEvent(deps, { workspaceId: ws._id, type: "comment.added", actor: doc.author, target: targetOf(doc, label) }, { counted: true });
  await queueMentionMails(deps, doc);
}

/**
 * Writes a comment a workspace import brings in (workspace-archive/import-workspace.ts), as
 * any other: its bytes reserved, its event written with it. The import decided its author,
 * anchor and times (docs/decisions.md, "Workspace export: files, comments and history").
 */
export async function storeImportedComment(deps: StoreDeps, ws: WorkspaceDoc, doc: Omit<CommentDoc, "bytes">): Promise<void> {
  const full: CommentDoc = { ...doc, bytes: bytesOf(doc) };
  await store(deps, ws, full, await labelOf(deps, full));
}

/** The anchor of a quote found in `text` (a page's text at `version`), or null. */
export function quoteAnchorIn(text: string, quote: string, prefix: string, suffix: string, version: number): QuoteAnchor | null {
  const at = findQuote(text, quote, prefix, suffix);
  return at ? makeAnchor(text, at.start, at.end, version) : null;
}

/** Where a quote is in a page's text at a version: as given (exact), or a selection of the rendered text. */
function anchorIn(text: string, input: AddCommentInput, version: number): QuoteAnchor {
  const quote = input.quote ?? "";
  const exact = findQuote(text, quote, input.prefix ?? "", input.suffix ?? "");
  if (exact) return makeAnchor(text, exact.start, exact.end, version);
  const located = locateSelection(text, quote, input.prefix ?? "", input.suffix ?? "");
  if (located === "ambiguous") {
    throw invalidField("quote", "ambiguous", "appears more than once in the page; add prefix or suffix (the text just around it) to say which");
  }
  if (!located) throw invalidField("quote", "not_found", `is not in the page's text at version ${version}; quote it exactly as get_page shows it`);
  return makeAnchor(text, located.start, located.end, version);
}

/** Adds a comment: on a passage, a page, a row, or a reply in a thread. */
export async function addComment(deps: StoreDeps, principal: Principal, input: AddCommentInput): Promise<ThreadView> {
  const t = now();
  const base = { _id: newId("cmt"), body: input.body, author: actorOf(principal), createdAt: t, editedAt: null, deletedAt: null, resolved: null };
  if (input.reply_to) {
    const { root, ws } = await threadOf(deps, principal, input.reply_to, "write");
    await assertRoom(deps, { threadId: root._id }, MAX_REPLIES + 1, "This thread");
    const doc: CommentDoc = {
      ...base,
      workspaceId: ws._id,
      pageId: root.pageId,
      collectionId: root.collectionId,
      rowId: root.rowId,
      threadId: root._id,
      anchor: { kind: "reply" },
      bytes: 0,
    };
    doc.bytes = bytesOf(doc);
    await store(deps, ws, doc, await labelOf(deps, root));
    return oneThread(deps, principal, ws, root._id);
  }
  if (input.page) {
    const { page, ws } = await readablePage(deps, principal, { slug: input.page });
    assertMayComment(principal, ws, "write");
    await assertRoom(deps, { pageId: page._id }, MAX_COMMENTS_PER_TARGET, "This page");
    let anchor: CommentDoc["anchor"] = { kind: "page" };
    if (input.quote !== undefined) {
      const version = input.version ?? page.version;
      if (version > page.version) throw invalidField("version", "invalid", `the page is at version ${page.version}`);
      const text = await textAt(deps, page, version);
      if (text === null) throw invalidField("version", "invalid", `version ${version} is no longer kept; quote the current version (${page.version})`);
      anchor = { kind: "quote", ...anchorIn(text, input, version) };
    }
    const doc: CommentDoc = { ...base, workspaceId: ws._id, pageId: page._id, collectionId: null, rowId: null, threadId: base._id, anchor, bytes: 0 };
    doc.bytes = bytesOf(doc);
    await store(deps, ws, doc, page.title);
    return oneThread(deps, principal, ws, doc._id);
  }
  const { ws, table } = await tableOf(deps, principal, input.workspace ?? "", input.table ?? "", "write");
  const row = await deps.database.c.rows.findOne({ _id: input.row_id ?? "", collectionId: table._id }, { projection: { _id: 1 } });
  if (!row) throw new AppError("not_found", `No row "${input.row_id ?? ""}" in the table "${table.slug}".`);
  await assertRoom(deps, { collectionId: table._id }, MAX_COMMENTS_PER_TARGET, "This table");
  const doc: CommentDoc = {
    ...base,
    workspaceId: ws._id,
    pageId: null,
    collectionId: table._id,
    rowId: row._id,
    threadId: base._id,
    anchor: { kind: "row" },
    bytes: 0,
  };
  doc.bytes = bytesOf(doc);
  await store(deps, ws, doc, table.name);
  return oneThread(deps, principal, ws, doc._id);
}

async function tableOf(deps: StoreDeps, principal: Principal, workspace: string, slug: string, need: Need) {
  const ws = await findWorkspaceBySlug(deps, workspace);
  if (!ws || !can(principal, ws, "read")) throw ws ? notReadable(principal, ws) : new AppError("not_found", "No such workspace.");
  assertMayComment(principal, ws, need);
  const table = await deps.database.c.collections.findOne({ workspaceId: ws._id, slug });
  if (!table || table.kind !== "table") throw new AppError("not_found", `No table "${slug}" in this workspace.`);
  return { ws, table };
}

/** A comment's thread (its first comment) and workspace, if the principal may `need` there. */
async function threadOf(
  deps: StoreDeps,
  principal: Principal,
  commentId: string,
  need: Need,
): Promise<{ comment: CommentDoc; root: CommentDoc; ws: WorkspaceDoc }> {
  const comment = await deps.database.c.comments.findOne({ _id: commentId });
  const ws = comment ? await findWorkspace(deps, comment.workspaceId) : null;
  if (!comment || !ws || !can(principal, ws, "read")) {
    if (comment && ws && !isHidden(ws)) throw notReadable(principal, ws, "comment");
    throw new AppError("not_found", "No such comment.");
  }
  assertMayComment(principal, ws, need);
  const root = comment.threadId === comment._id ? comment : await deps.database.c.comments.findOne({ _id: comment.threadId });
  if (!root) throw new AppError("not_found", "No such comment.");
  if (root.pageId) {
    const page = await deps.database.c.pages.findOne({ _id: root.pageId }, { projection: { deletingAt: 1 } });
    if (!page || page.deletingAt) throw new AppError("not_found", "No such comment.");
  }
  return { comment, root, ws };
}

function isMine(principal: Principal, c: CommentDoc): boolean {
  if (principal.kind === "user") return c.author.kind === "user" && c.author.userId === principal.user._id;
  if (principal.kind === "token") return c.author.kind === "agent" && c.author.tokenId === principal.token._id;
  return false;
}

function commentView(c: CommentDoc, principal: Principal, reader: Reader): CommentView {
  const deleted = c.deletedAt !== null;
  return {
    comment_id: c._id,
    author: actorForReader(c.author, reader),
    body: deleted ? "" : c.body,
    body_html: deleted ? "" : markdownToHtml(c.body),
    deleted,
    created_at: c.createdAt.toISOString(),
    edited_at: c.editedAt ? c.editedAt.toISOString() : null,
    mine: !deleted && isMine(principal, c),
    mentions: deleted ? [] : (c.mentions ?? []).map((m) => ({ kind: m.kind, handle: m.handle, me: mentionsMe(principal, m) })),
  };
}

/** Whether a mention names the reader: a person by their account, an agent by its token. */
function mentionsMe(principal: Principal, m: CommentMention): boolean {
  if (principal.kind === "user") return m.kind === "member" && m.id === principal.user._id;
  if (principal.kind === "token") return m.kind === "agent" && m.id === principal.token._id;
  return false;
}

interface Placed {
  view: ThreadView;
  order: [number, number, number];
}

/** Threads as views, with quotes re-anchored on the page's current text, in reading order. */
async function threadViews(deps: StoreDeps, principal: Principal, ws: WorkspaceDoc, docs: CommentDoc[], page: PageDoc | null): Promise<ThreadView[]> {
  const reader = readerIn(principal, ws);
  const replies = new Map<string, CommentDoc[]>();
  for (const d of docs) if (d.threadId !== d._id) replies.set(d.threadId, [...(replies.get(d.threadId) ?? []), d]);
  const current = page ? pageText(page) : "";
  const olds = new Map<number, string | null>();
  const tables = new Map<string, string>();
  const placed: Placed[] = [];
  for (const d of docs) {
    if (d.threadId !== d._id) continue;
    let anchor: ThreadView["anchor"];
    let order: Placed["order"];
    if (d.anchor.kind === "quote" && page) {
      const a = d.anchor;
      if (!olds.has(a.version)) olds.set(a.version, await textAt(deps, page, a.version));
      const at = reanchor(olds.get(a.version) ?? null, a, current);
      anchor =
        at.state === "attached"
          ? { kind: "quote", quote: a.quote, version: a.version, attached: true, start: at.start, end: at.end, current_quote: current.slice(at.start, at.end) }
          : { kind: "quote", quote: a.quote, version: a.version, attached: false, start: null, end: null, current_quote: null };
      order = at.state === "attached" ? [1, at.start, d.createdAt.getTime()] : [2, 0, d.createdAt.getTime()];
    } else if (d.anchor.kind === "row" && d.collectionId) {
      if (!tables.has(d.collectionId)) {
        tables.set(d.collectionId, (await deps.database.c.collections.findOne({ _id: d.collectionId }, { projection: { slug: 1 } }))?.slug ?? "");
      }
      anchor = { kind: "row", table: tables.get(d.collectionId) ?? "", row_id: d.rowId ?? "" };
      order = [1, 0, d.createdAt.getTime()];
    } else {
      anchor = { kind: "page" };
      order = [0, 0, d.createdAt.getTime()];
    }
    const own = (replies.get(d._id) ?? []).sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime());
    placed.push({
      order,
      view: {
        ...commentView(d, principal, reader),
        anchor,
        resolved: d.resolved !== null,
        resolved_by: d.resolved ? actorForReader(d.resolved.by, reader) : null,
        resolved_at: d.resolved ? d.resolved.at.toISOString() : null,
        replies: own.map((r) => commentView(r, principal, reader)),
      },
    });
  }
  placed.sort((x, y) => x.order[0] - y.order[0] || x.order[1] - y.order[1] || x.order[2] - y.order[2]);
  return placed.map((p) => p.view);
}

async function oneThread(deps: StoreDeps, principal: Principal, ws: WorkspaceDoc, rootId: string): Promise<ThreadView> {
  const docs = await deps.database.c.comments.find({ threadId: rootId }).toArray();
  const root = docs.find((d) => d._id === rootId);
  const page = root?.pageId ? await deps.database.c.pages.findOne({ _id: root.pageId }) : null;
  const [view] = await threadViews(deps, principal, ws, docs, page);
  if (!view) throw new AppError("not_found", "No such comment.");
  return view;
}

/** The threads on a page (or a table, or one row), open ones unless resolved ones are asked for too. */
export async function listComments(deps: StoreDeps, principal: Principal, input: ListCommentsInput): Promise<CommentsView> {
  let ws: WorkspaceDoc;
  let page: PageDoc | null = null;
  let filter: Record<string, unknown>;
  if (input.page) {
    const found = await readablePage(deps, principal, { slug: input.page });
    ws = found.ws;
    page = found.page;
    assertMayComment(principal, ws, "read");
    filter = { pageId: page._id };
  } else {
    const found = await tableOf(deps, principal, input.workspace ?? "", input.table ?? "", "read");
    ws = found.ws;
    filter = input.row_id ? { collectionId: found.table._id, rowId: input.row_id } : { collectionId: found.table._id };
  }
  const docs = await deps.database.c.comments
    .find(filter)
    .limit(MAX_COMMENTS_PER_TARGET + MAX_REPLIES)
    .toArray();
  const all = await threadViews(deps, principal, ws, docs, page);
  // A thread whose first comment is deleted and has no replies left is gone.
  const live = all
    .filter((t) => !t.deleted || t.replies.some((r) => !r.deleted))
    .filter((t) => input.mentioning !== "me" || [t, ...t.replies].some((c) => c.mentions.some((m) => m.me)));
  const resolved = live.filter((t) => t.resolved).length;
  return {
    threads: input.include_resolved ? live : live.filter((t) => !t.resolved),
    version: page ? page.version : null,
    open: live.length - resolved,
    resolved,
  };
}

/** Resolves a thread (or reopens it); anyone who may write comments may. */
export async function resolveComment(deps: StoreDeps, principal: Principal, input: ResolveCommentInput): Promise<ThreadView> {
  const { root, ws } = await threadOf(deps, principal, input.comment_id, "write");
  const reopen = input.reopen === true;
  const changed = await deps.database.c.comments.updateOne(
    { _id: root._id, resolved: reopen ? { $ne: null } : null },
    { $set: { resolved: reopen ? null : { at: now(), by: actorOf(principal) } } },
  );
  if (changed.modifiedCount === 1) {
    await recordEvent(deps, {
      workspaceId: ws._id,
      type: reopen ? "comment.reopened" : "comment.resolved",
      actor: actorOf(principal),
      target: targetOf(root, await labelOf(deps, root)),
    });
  }
  return oneThread(deps, principal, ws, root._id);
}

/** Changes the text of one's own comment. */
export async function editComment(deps: StoreDeps, principal: Principal, input: EditCommentInput): Promise<ThreadView> {
  const { comment, root, ws } = await threadOf(deps, principal, input.comment_id, "write");
  if (!isMine(principal, comment) || comment.deletedAt) throw new AppError("forbidden", "Only its author can edit a comment.");
  const bytes = bytesOf({ ...comment, body: input.body });
  const grow = bytes - comment.bytes + EVENT_BYTES;
  await reserveUsage(deps, ws, { pages: 0, bytes: grow });
  const mentions = await resolveMentions(deps, ws, input.body);
  const r = await deps.database.c.comments.updateOne(
    { _id: comment._id, body: comment.body, deletedAt: null },
    { $set: { body: input.body, bytes, editedAt: now(), mentions } },
  );
  if (r.modifiedCount !== 1) {
    await releaseUsage(deps, ws._id, { pages: 0, bytes: grow });
    throw new AppError("conflict", "The comment changed meanwhile; read it again.");
  }
  await recordEvent(
    deps,
    { workspaceId: ws._id, type: "comment.edited", actor: actorOf(principal), target: targetOf(root, await labelOf(deps, root)) },
    { counted: true },
  );
  // Only those it did not mention before get a mail.
  await queueMentionMails(deps, { ...comment, body: input.body, mentions }, comment.mentions ?? []);
  return oneThread(deps, principal, ws, root._id);
}

/**
 * Deletes one's own comment (an owner may delete anyone's). A first comment with replies
 * stays as a marker with no text, so the replies keep their thread.
 */
export async function deleteComment(deps: StoreDeps, principal: Principal, input: DeleteCommentInput): Promise<{ comment_id: string; deleted: true }> {
  const { comment, root, ws } = await threadOf(deps, principal, input.comment_id, "write");
  if (comment.deletedAt) return { comment_id: comment._id, deleted: true };
  if (!isMine(principal, comment) && !can(principal, ws, "manage"))
    throw new AppError("forbidden", "Only its author (or a workspace owner) can delete a comment.");
  const hasReplies = comment._id === root._id && (await deps.database.c.comments.countDocuments({ threadId: root._id, deletedAt: null }, { limit: 2 })) > 1;
  let freed = 0;
  if (hasReplies) {
    const kept = RECORD_OVERHEAD_BYTES;
    const r = await deps.database.c.comments.updateOne({ _id: comment._id, deletedAt: null }, { $set: { deletedAt: now(), body: "", bytes: kept } });
    if (r.modifiedCount === 1) freed = comment.bytes - kept;
  } else {
    const r = await deps.database.c.comments.deleteOne({ _id: comment._id });
    if (r.deletedCount === 1) freed = comment.bytes;
    // The last reply of a thread whose first comment was deleted takes the marker with it.
    if (
      comment._id !== root._id &&
      root.deletedAt &&
      (await deps.database.c.comments.countDocuments({ threadId: root._id, deletedAt: null }, { limit: 1 })) === 0
    ) {
      const m = await deps.database.c.comments.deleteOne({ _id: root._id });
      if (m.deletedCount === 1) freed += root.bytes;
    }
  }
  if (freed > 0) await releaseUsage(deps, ws._id, { pages: 0, bytes: freed });
  await recordEvent(deps, { workspaceId: ws._id, type: "comment.deleted", actor: actorOf(principal), target: targetOf(root, await labelOf(deps, root)) });
  return { comment_id: comment._id, deleted: true };
}

/** Open comment threads per page slug of a workspace, for the app's lists (insiders only; others get none). */
export async function openCommentCountsBySlug(deps: StoreDeps, principal: Principal, workspace: string): Promise<{ pages: Record<string, number> }> {
  const ws = await readableWorkspace(deps, principal, workspace);
  const byPage = new Map<string, number>();
  if (!mayComment(principal, ws, "read")) return { pages: {} };
  for await (const c of deps.database.c.comments.find({ workspaceId: ws._id, resolved: null }, { projection: { pageId: 1, deletedAt: 1, threadId: 1 } })) {
    if (c.pageId && !c.deletedAt && c.threadId === c._id) byPage.set(c.pageId, (byPage.get(c.pageId) ?? 0) + 1);
  }
  if (byPage.size === 0) return { pages: {} };
  const pages = await deps.database.c.pages.find({ _id: { $in: [...byPage.keys()] } }, { projection: { slug: 1 } }).toArray();
  return { pages: Object.fromEntries(pages.map((p) => [p.slug, byPage.get(p._id) ?? 0])) };
}

/** Open comment threads per row of a table, for the grid's markers (insiders only; others get none). */
export async function openCommentCountsByRow(
  deps: StoreDeps,
  principal: Principal,
  workspace: string,
  table: string,
): Promise<{ rows: Record<string, number> }> {
  const ws = await readableWorkspace(deps, principal, workspace);
  if (!mayComment(principal, ws, "read")) return { rows: {} };
  const found = await deps.database.c.collections.findOne({ workspaceId: ws._id, slug: table }, { projection: { _id: 1, kind: 1 } });
  if (!found || found.kind !== "table") throw new AppError("not_found", `No table "${table}" in this workspace.`);
  const rows: Record<string, number> = {};
  for await (const c of deps.database.c.comments.find({ collectionId: found._id, resolved: null }, { projection: { rowId: 1, deletedAt: 1, threadId: 1 } })) {
    if (c.rowId && !c.deletedAt && c.threadId === c._id) rows[c.rowId] = (rows[c.rowId] ?? 0) + 1;
  }
  return { rows };
}

/** Open comment threads per workspace the person belongs to, by slug, for the dashboard's cards (members only). */
export async function openCommentCountsByWorkspace(deps: StoreDeps, principal: Principal): Promise<{ workspaces: Record<string, number> }> {
  if (principal.kind !== "user") return { workspaces: {} };
  const mine = await deps.database.c.workspaces
    .find({ "members.userId": principal.user._id }, { projection: { _id: 1, slug: 1 } })
    .limit(1000)
    .toArray();
  const slugOf = new Map(mine.map((w) => [w._id, w.slug]));
  const out: Record<string, number> = {};
  if (mine.length === 0) return { workspaces: out };
  for await (const c of deps.database.c.comments.find(
    { workspaceId: { $in: [...slugOf.keys()] }, resolved: null },
    { projection: { workspaceId: 1, deletedAt: 1, threadId: 1 } },
  )) {
    const slug = slugOf.get(c.workspaceId);
    if (slug && !c.deletedAt && c.threadId === c._id) out[slug] = (out[slug] ?? 0) + 1;
  }
  return { workspaces: out };
}
