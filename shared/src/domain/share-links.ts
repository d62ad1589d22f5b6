// Share links: a secret URL that lets anyone holding it read one page, or every page of a
// private workspace, without an account. Owners make and revoke them; an unclaimed sandbox
// token never can (SPEC §5.5).
import type { Database, PageDoc, ShareLinkDoc, WorkspaceDoc } from "../db/index";
import { AppError } from "../errors";
import { newId, newSecret, sha256 } from "../ids";
import { actorOf, assertCan, isHidden, type Principal } from "./access";
import { now } from "./clock";
import { recordEvent } from "./events";
import { getReadableWorkspace } from "./workspaces";

export async function createShareLink(
  database: Database,
  baseUrl: string,
  principal: Principal,
  input: { workspace: string; page?: string | undefined },
): Promise<{ link: ShareLinkDoc; url: string }> {
  const ws = await getReadableWorkspace(database, principal, input.workspace);
  assertCan(principal, ws, "manage");
  if (ws.sandbox?.state === "unclaimed") throw new AppError("forbidden", "An unclaimed sandbox cannot be shared.");
  let page: PageDoc | null = null;
  if (input.page) {
    page = await database.c.pages.findOne({ slug: input.page, workspaceId: ws._id }, { projection: { html: 0 } });
    if (!page) throw new AppError("not_found", `No page "${input.page}" in this workspace.`);
  }
  const secret = newSecret(24);
  const link: ShareLinkDoc = { _id: sha256(secret), linkId: newId("shr"), workspaceId: ws._id, pageId: page?._id ?? null, createdBy: actorOf(principal), createdAt: now(), revokedAt: null };
  await database.c.shareLinks.insertOne(link);
  await recordEvent(database, { workspaceId: ws._id, type: "share_link.created", actor: link.createdBy, target: { kind: page ? "page" : "workspace", id: page?._id ?? ws._id, label: page?.slug ?? ws.slug } });
  return { link, url: `${baseUrl}/s/${secret}` };
}

export async function listShareLinks(database: Database, principal: Principal, workspace: string): Promise<ShareLinkDoc[]> {
  const ws = await getReadableWorkspace(database, principal, workspace);
  assertCan(principal, ws, "manage");
  return database.c.shareLinks.find({ workspaceId: ws._id, revokedAt: null }).sort({ createdAt: -1 }).limit(200).toArray();
}

export async function revokeShareLink(database: Database, principal: Principal, input: { workspace: string; linkId: string }): Promise<void> {
  const ws = await getReadableWorkspace(database, principal, input.workspace);
  assertCan(principal, ws, "manage");
  const r = await database.c.shareLinks.updateOne({ linkId: input.linkId, workspaceId: ws._id, revokedAt: null }, { $set: { revokedAt: now() } });
  if (r.modifiedCount !== 1) throw new AppError("not_found", "No such share link.");
}

/** What a share link opens: the rendered page (by slug within the link's reach), or null. */
export async function resolveShareLink(
  database: Database,
  secret: string,
  pageSlug: string | undefined,
): Promise<{ kind: "page"; html: string } | { kind: "index"; workspace: WorkspaceDoc; pages: Pick<PageDoc, "slug" | "title" | "summary">[] } | null> {
  if (secret.length < 20 || secret.length > 64) return null;
  const link = await database.c.shareLinks.findOne({ _id: sha256(secret), revokedAt: null });
  if (!link) return null;
  const ws = await database.c.workspaces.findOne({ _id: link.workspaceId });
  if (!ws || isHidden(ws)) return null;
  if (link.pageId) {
    const page = await database.c.pages.findOne({ _id: link.pageId }, { projection: { html: 1, slug: 1 } });
    if (!page || (pageSlug !== undefined && pageSlug !== page.slug)) return null;
    return { kind: "page", html: page.html };
  }
  if (pageSlug !== undefined) {
    const page = await database.c.pages.findOne({ slug: pageSlug, workspaceId: ws._id }, { projection: { html: 1 } });
    return page ? { kind: "page", html: page.html } : null;
  }
  const pages = await database.c.pages.find({ workspaceId: ws._id }, { projection: { slug: 1, title: 1, summary: 1 } }).sort({ slug: 1 }).limit(1000).toArray();
  return { kind: "index", workspace: ws, pages };
}

export function shareLinkView(l: ShareLinkDoc) {
  return { link_id: l.linkId, page_id: l.pageId, created_by: l.createdBy.label, created_at: l.createdAt.toISOString() };
}
