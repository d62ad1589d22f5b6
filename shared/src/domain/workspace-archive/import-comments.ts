// Comments in a workspace import (import-workspace.ts): the threads of comments.json checked
// against the archive's pages and rows before anything is written, then written with their
// anchors, replies, times and resolved state. A member of the target workspace with the
// e-mail address the archive names stays the author; anyone else's words are the
// importer's, attributed in the text (docs/decisions.md, "Workspace export: files, comments and history").
import { z } from "zod";
import type { Actor, CommentDoc, WorkspaceDoc } from "../../db/index";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import type { ZipEntry, ZipReader } from "../../zip";
import { actorOf, type Principal } from "../access";
import { MAX_COMMENTS_PER_TARGET, pageText, quoteAnchorIn, storeImportedComment } from "../comments/comments";
import type { WriteDeps } from "../versioned-write";
import { archiveError as bad, ArchiveThreadSchema, COMMENTS_FILE, type ArchiveComment, type ArchiveThread } from "./format";

/** What a thread may be on: the archive's pages by their slug there, its tables with their rows. */
export interface CommentTargets {
  pages: { origin: string }[];
  tables: { slug: string; rows: unknown[] }[];
}

/** The comment threads, each on a page or a row of the archive. */
export async function planComments(
  zip: ZipReader,
  entry: ZipEntry | undefined,
  { pages, tables }: CommentTargets,
  text: (zip: ZipReader, e: ZipEntry) => Promise<string>,
): Promise<ArchiveThread[]> {
  if (!entry) return [];
  let json: unknown;
  try {
    json = JSON.parse(await text(zip, entry));
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw bad(`${COMMENTS_FILE} is not JSON`, "bad_comments");
  }
  const r = z.array(ArchiveThreadSchema).max(100_000).safeParse(json);
  if (!r.success) throw bad(`${COMMENTS_FILE}: ${r.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`, "bad_comments");
  const perTarget = new Map<string, number>();
  for (const t of r.data) {
    const key = "page" in t.on ? `p:${t.on.page}` : `t:${t.on.table}`;
    if ("page" in t.on) {
      const slug = t.on.page;
      if (!pages.some((p) => p.origin === slug)) throw bad(`${COMMENTS_FILE}: a thread is on the page "${slug}", which is not in the archive`, "bad_comments");
    } else {
      const { table, row } = t.on;
      const found = tables.find((x) => x.slug === table);
      if (!found || row >= found.rows.length)
        throw bad(`${COMMENTS_FILE}: a thread is on row ${row} of "${table}", which is not in the archive`, "bad_comments");
    }
    perTarget.set(key, (perTarget.get(key) ?? 0) + 1);
    if ((perTarget.get(key) ?? 0) > MAX_COMMENTS_PER_TARGET)
      throw bad(`${COMMENTS_FILE}: more than ${MAX_COMMENTS_PER_TARGET} threads on one page or table`, "bad_comments");
  }
  return r.data;
}

/** The actors of the workspace's members by their e-mail address (what an export names people by). */
async function membersByLabel(deps: WriteDeps, ws: WorkspaceDoc): Promise<Map<string, Actor>> {
  const users = await deps.database.c.users.find({ _id: { $in: ws.members.map((m) => m.userId) } }, { projection: { email: 1 } }).toArray();
  return new Map(users.map((u) => [u.email.toLowerCase(), { kind: "user" as const, userId: u._id, label: u.email }]));
}

const memberCache: WeakMap<WorkspaceDoc, Promise<Map<string, Actor>>> = new WeakMap();

/**
 * Who a comment of the archive is by, here: a member of this workspace with the e-mail
 * address the archive names stays its author; anyone else (a person who is not a member, an
 * agent: its token does not come along) becomes the importer, with the original author and
 * time written above the text (docs/decisions.md, "Workspace export: files, comments and history").
 */
async function authorOf(deps: WriteDeps, principal: Principal, ws: WorkspaceDoc, c: ArchiveComment): Promise<{ author: Actor; body: string }> {
  if (!memberCache.has(ws)) memberCache.set(ws, membersByLabel(deps, ws));
  const member = c.author_kind === "user" ? (await memberCache.get(ws))?.get(c.author.toLowerCase()) : undefined;
  if (member) return { author: member, body: c.body };
  if (c.deleted) return { author: actorOf(principal), body: "" };
  const who = `${c.author_kind === "agent" ? "the agent " : ""}${c.author.replace(/([\\`*_[\]<>#])/g, "\\$1")}`;
  return { author: actorOf(principal), body: `*Written by ${who} on ${c.created_at.slice(0, 10)}.*\n\n${c.body}`.slice(0, 10_000) };
}

/** Writes one thread of the archive (its first comment, then its replies); returns how many comments. */
export async function importThread(
  deps: WriteDeps,
  principal: Principal,
  ws: WorkspaceDoc,
  t: ArchiveThread,
  pageIds: Map<string, { slug: string; versions: Map<number, number> }>,
  rowIds: Map<string, string[]>,
): Promise<number> {
  let target: Pick<CommentDoc, "pageId" | "collectionId" | "rowId">;
  let anchor: CommentDoc["anchor"] = { kind: t.anchor.kind === "row" ? "row" : "page" };
  if ("page" in t.on) {
    const placed = pageIds.get(t.on.page);
    const page = placed ? await deps.database.c.pages.findOne({ slug: placed.slug, workspaceId: ws._id }) : null;
    if (!placed || !page) throw bad(`${COMMENTS_FILE}: the page "${t.on.page}" was not imported`, "bad_comments");
    target = { pageId: page._id, collectionId: null, rowId: null };
    if (t.anchor.kind === "quote") {
      const a = t.anchor;
      // Its version came along (full history): the same anchor. Else: the passage in the page as imported.
      const version = placed.versions.get(a.version);
      anchor =
        version !== undefined
          ? { kind: "quote", quote: a.quote, prefix: a.prefix, suffix: a.suffix, start: a.start, version }
          : { kind: "quote", ...(quoteAnchorIn(pageText(page), a.quote, a.prefix, a.suffix, page.version) ?? { ...a, version: page.version }) };
    }
  } else {
    const table = await deps.database.c.collections.findOne({ workspaceId: ws._id, slug: t.on.table });
    const rowId = rowIds.get(t.on.table)?.[t.on.row];
    if (!table || !rowId) throw bad(`${COMMENTS_FILE}: the table "${t.on.table}" was not imported`, "bad_comments");
    target = { pageId: null, collectionId: table._id, rowId };
    anchor = { kind: "row" };
  }
  const rootId = newId("cmt");
  const first = await authorOf(deps, principal, ws, t);
  const resolvedBy = t.resolved ? (await authorOf(deps, principal, ws, { ...t, author: t.resolved.by, author_kind: t.resolved.by_kind })).author : null;
  const times = (c: ArchiveComment) => ({
    createdAt: new Date(c.created_at),
    editedAt: c.edited_at ? new Date(c.edited_at) : null,
    deletedAt: c.deleted ? new Date(c.edited_at ?? c.created_at) : null,
  });
  await storeImportedComment(deps, ws, {
    _id: rootId,
    workspaceId: ws._id,
    ...target,
    threadId: rootId,
    anchor,
    ...first,
    ...times(t),
    resolved: t.resolved && resolvedBy ? { at: new Date(t.resolved.at), by: resolvedBy } : null,
  });
  for (const r of t.replies) {
    await storeImportedComment(deps, ws, {
      _id: newId("cmt"),
      workspaceId: ws._id,
      ...target,
      threadId: rootId,
      anchor: { kind: "reply" },
      ...(await authorOf(deps, principal, ws, r)),
      ...times(r),
      resolved: null,
    });
  }
  return 1 + t.replies.length;
}
