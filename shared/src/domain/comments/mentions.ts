// Mentions in comments (docs/comments.md#mentions): `@handle` names a member of the workspace
// (the local part of their address, or the whole address when two members share it) or one
// of its agents (its name in lower case, words joined by "-"). Who a comment mentions is
// recorded on it; each member mentioned (not the author) gets a mail, batched: the first
// pending mention of a person is due MENTION_MAIL_DELAY_SECONDS after it was made, and then
// all of that person's pending mentions go in one mail. Only members are ever mentioned, and
// whether they still are (and the comment is still there) is checked again when the mail goes,
// so a removed member's pending mentions are dropped. Any number of processes may send: a
// person's mail is taken with a lease on their account (one conditional update), so one send
// wins and the mentions it took are deleted after it.
import type { CommentDoc, CommentMention, MentionMailDoc, UserDoc, WorkspaceDoc } from "../../db/index";
import { newId } from "../../ids";
import type { MentionableView } from "../../schemas/comments";
import { roleOf, type Principal } from "../access";
import { addSeconds, now } from "../clock";
import type { Deps, StoreDeps } from "../deps";
import { unlinkableText } from "../display-text";
import type { Mail } from "../mail";
import { insertOnce } from "../../db";
import { readableWorkspace } from "../workspaces";
import { mayComment } from "./comment-access";

interface Mentionable {
  kind: "member" | "agent";
  id: string;
  handle: string;
  label: string;
}

/** An agent's handle: its name in lower case, with runs of anything but letters and digits as one "-". */
export function agentHandle(label: string): string {
  return (
    label
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "agent"
  );
}

/** The members and agents of a workspace that can be mentioned, with their handles. */
export async function mentionablesIn(deps: Pick<StoreDeps, "database">, ws: WorkspaceDoc): Promise<Mentionable[]> {
  const memberIds = ws.members.map((m) => m.userId);
  const users = memberIds.length
    ? await deps.database.c.users
        .find({ _id: { $in: memberIds } }, { projection: { email: 1 } })
        .limit(1000)
        .toArray()
    : [];
  const locals = new Map<string, number>();
  const localOf = (email: string) => email.toLowerCase().split("@")[0] ?? email;
  for (const u of users) locals.set(localOf(u.email), (locals.get(localOf(u.email)) ?? 0) + 1);
  const out: Mentionable[] = users.map((u) => ({
    kind: "member",
    id: u._id,
    handle: (locals.get(localOf(u.email)) ?? 0) > 1 ? u.email.toLowerCase() : localOf(u.email),
    label: u.email,
  }));
  const t = now();
  const tokens = await deps.database.c.tokens
    .find(
      { $or: [{ workspaceIds: ws._id }, { ownerId: { $in: memberIds } }] },
      { projection: { label: 1, agentLabel: 1, revokedAt: 1, expiresAt: 1, workspaceIds: 1 } },
    )
    .limit(500)
    .toArray();
  for (const tok of tokens) {
    if (tok.revokedAt || tok.expiresAt <= t || ws.blockedTokenIds.includes(tok._id)) continue;
    if (tok.workspaceIds && !tok.workspaceIds.includes(ws._id)) continue;
    const label = tok.agentLabel ?? tok.label;
    out.push({ kind: "agent", id: tok._id, handle: agentHandle(label), label });
  }
  return out;
}

/** What the app's composer offers after "@": one entry per handle (agents of one name are one entry). */
export async function listMentionables(deps: StoreDeps, principal: Principal, workspace: string): Promise<MentionableView[]> {
  const ws = await readableWorkspace(deps, principal, workspace);
  if (!mayComment(principal, ws, "read")) return [];
  const seen = new Map<string, MentionableView>();
  for (const m of await mentionablesIn(deps, ws)) if (!seen.has(m.handle)) seen.set(m.handle, { kind: m.kind, handle: m.handle, label: m.label });
  return [...seen.values()].sort((a, b) => (a.kind === b.kind ? a.handle.localeCompare(b.handle) : a.kind === "member" ? -1 : 1));
}

/** The handles written in a comment: `@` at the start or after a space or punctuation, code spans left out. */
export function mentionedHandles(body: string): string[] {
  const text = body.replace(/```[\s\S]*?```/g, " ").replace(/`[^`\n]*`/g, " ");
  const out = new Set<string>();
  for (const m of text.matchAll(/(?<![\p{L}\p{N}_.@+-])@([a-z0-9][a-z0-9._+-]*(?:@[a-z0-9-]+(?:\.[a-z0-9-]+)+)?)/giu)) {
    out.add((m[1] ?? "").toLowerCase().replace(/[._+-]+$/, ""));
  }
  return [...out];
}

/** Who `body` mentions among the workspace's members and agents (a handle shared by agents mentions them all). */
export async function resolveMentions(deps: Pick<StoreDeps, "database">, ws: WorkspaceDoc, body: string): Promise<CommentMention[]> {
  const handles = mentionedHandles(body);
  if (handles.length === 0) return [];
  const wanted = new Set(handles);
  return (await mentionablesIn(deps, ws)).filter((m) => wanted.has(m.handle)).map((m) => ({ kind: m.kind, id: m.id, handle: m.handle }));
}

/** Queues a mail to each member `mentions` names that `before` did not, except the comment's author. */
export async function queueMentionMails(deps: Pick<StoreDeps, "database" | "config">, comment: CommentDoc, before: CommentMention[] = []): Promise<number> {
  const had = new Set(before.filter((m) => m.kind === "member").map((m) => m.id));
  const t = now();
  let queued = 0;
  for (const m of comment.mentions ?? []) {
    if (m.kind !== "member" || had.has(m.id) || (comment.author.kind === "user" && comment.author.userId === m.id)) continue;
    const doc: MentionMailDoc = {
      _id: `${comment._id}:${m.id}`,
      userId: m.id,
      workspaceId: comment.workspaceId,
      commentId: comment._id,
      at: t,
      dueAt: addSeconds(t, deps.config.MENTION_MAIL_DELAY_SECONDS),
      sendId: null,
    };
    if (await insertOnce(deps.database.c.mentionMails, doc)) queued++;
  }
  return queued;
}

/** How long a send holds a person's mentions before another process may take them over. */
const LEASE_SECONDS = 120;
const BATCH = 100;

interface MailLine {
  author: string;
  where: string;
  excerpt: string;
  link: string;
}

/** One mention as a line of the mail, or null when it is no longer to be sent (not a member, comment gone). */
async function lineFor(deps: Pick<Deps, "database" | "config">, m: MentionMailDoc, workspaces: Map<string, WorkspaceDoc | null>): Promise<MailLine | null> {
  if (!workspaces.has(m.workspaceId)) workspaces.set(m.workspaceId, await deps.database.c.workspaces.findOne({ _id: m.workspaceId }));
  const ws = workspaces.get(m.workspaceId);
  if (!ws || ws.deletingAt || roleOf(ws, m.userId) === null) return null;
  const c = await deps.database.c.comments.findOne({ _id: m.commentId });
  if (!c || c.deletedAt || !(c.mentions ?? []).some((x) => x.kind === "member" && x.id === m.userId)) return null;
  const base = deps.config.BASE_URL.replace(/\/$/, "");
  const wsPath = `${base}/app/buckets/${encodeURIComponent(ws.slug)}`;
  let where: string;
  let link: string;
  if (c.pageId) {
    const page = await deps.database.c.pages.findOne({ _id: c.pageId }, { projection: { slug: 1, title: 1, deletingAt: 1 } });
    if (!page || page.deletingAt) return null;
    where = `the page “${unlinkableText(page.title, 100)}”`;
    link = `${wsPath}/${encodeURIComponent(page.slug)}?comments=1#comment-${c.threadId}`;
  } else {
    const table = c.collectionId ? await deps.database.c.collections.findOne({ _id: c.collectionId }, { projection: { slug: 1, name: 1 } }) : null;
    if (!table) return null;
    where = `a row of the table “${unlinkableText(table.name, 100)}”`;
    link = `${wsPath}/tables/${encodeURIComponent(table.slug)}?comments=${encodeURIComponent(c.rowId ?? "")}#comment-${c.threadId}`;
  }
  const author = c.author.kind === "user" ? c.author.label : `An AI agent (“${unlinkableText(c.author.label, 60)}”)`;
  return { author, where: `${where} in “${unlinkableText(ws.name, 100)}”`, excerpt: unlinkableText(c.body.replace(/\s+/g, " "), 280), link };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The mail that lists a person's mentions, each with the link to its thread. */
export function mentionMail(to: string, lines: MailLine[]): Mail {
  const subject = lines.length === 1 ? "You were mentioned in a comment on Atelier" : `You were mentioned in ${lines.length} comments on Atelier`;
  const named = "Comments and names are written by people and agents of your workspaces, not by Atelier.";
  const text = `${lines.map((l) => `${l.author} mentioned you on ${l.where}:\n  ${l.excerpt}\n  ${l.link}\n`).join("\n")}\n${named}\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1c1d21">
${lines
  .map(
    (l) => `<p>${escapeHtml(l.author)} mentioned you on ${escapeHtml(l.where)}:</p>
<blockquote style="margin:0 0 8px 0;padding-left:12px;border-left:3px solid #d0d3d9">${escapeHtml(l.excerpt)}</blockquote>
<p><a href="${escapeHtml(l.link)}">Open the comment</a></p>`,
  )
  .join("\n")}
<p style="color:#60646c">${escapeHtml(named)}</p>
</body></html>`;
  return { to, subject, text, html };
}

/** Takes a person's mention mail for this send, unless another send holds it. */
async function takeLease(deps: Pick<Deps, "database">, userId: string): Promise<UserDoc | null> {
  const t = now();
  return deps.database.c.users.findOneAndUpdate(
    { _id: userId, $or: [{ mentionMailLeaseUntil: null }, { mentionMailLeaseUntil: { $lte: t } }] },
    { $set: { mentionMailLeaseUntil: addSeconds(t, LEASE_SECONDS) } },
    { returnDocument: "after" },
  );
}

/**
 * Sends the mention mails that are due: for each person whose oldest pending mention is due,
 * one mail with all of their pending mentions still to be sent. How many mails went.
 */
export async function sendMentionMails(deps: Pick<Deps, "database" | "config" | "mailer">): Promise<number> {
  const due = await deps.database.c.mentionMails
    .find({ dueAt: { $lte: now() } }, { projection: { userId: 1 } })
    .limit(BATCH)
    .toArray();
  let sent = 0;
  const workspaces = new Map<string, WorkspaceDoc | null>();
  for (const userId of new Set(due.map((d) => d.userId))) {
    const user = await takeLease(deps, userId);
    if (!user) {
      // Gone (the account was deleted) or held by another send: only the former is dropped here.
      if (!(await deps.database.c.users.findOne({ _id: userId }, { projection: { _id: 1 } }))) await deps.database.c.mentionMails.deleteMany({ userId });
      continue;
    }
    const sendId = newId("snd");
    // The lease is this person's alone: every pending mention of theirs is this send's, even one a dead send took.
    await deps.database.c.mentionMails.updateMany({ userId }, { $set: { sendId } });
    const taken = await deps.database.c.mentionMails.find({ sendId }).sort({ at: 1, _id: 1 }).limit(BATCH).toArray();
    const lines: MailLine[] = [];
    for (const m of taken) {
      const line = await lineFor(deps, m, workspaces);
      if (line) lines.push(line);
    }
    try {
      if (lines.length > 0) {
        await deps.mailer.send(mentionMail(user.email, lines));
        sent++;
      }
      await deps.database.c.mentionMails.deleteMany({ _id: { $in: taken.map((m) => m._id) }, sendId });
    } finally {
      // Only our own lease is given back (a send that overran it may have been taken over).
      await deps.database.c.users.updateOne(
        { _id: userId, mentionMailLeaseUntil: user.mentionMailLeaseUntil ?? null },
        { $set: { mentionMailLeaseUntil: null } },
      );
    }
  }
  return sent;
}

/** Sends due mention mails every `intervalMs` until stopped; passes never overlap within a process. */
export function startMentionMailer(
  deps: Pick<Deps, "database" | "config" | "mailer">,
  intervalMs: number,
  onError: (err: unknown) => void,
): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = sendMentionMails(deps)
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
