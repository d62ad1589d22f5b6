// Share links: a secret URL that lets anyone holding it read one page, or every page of a
// private workspace, without an account. Owners make, list and revoke them (agents too,
// with mcp:write, never an unclaimed sandbox's: docs/contract.md#sandboxes-limits-and-lifecycle). The secret is stored hashed.
//
// A link is its maker's delegation, so it lives no longer than the maker's right to share:
// when the person who made it is no longer an owner there (removed, or made editor or
// viewer), or the agent that made it is revoked, expired, cut off or its OAuth grant ended,
// the link ends, for good (docs/decisions.md, "Share links end with their maker's access").
// Each link may also carry an end date (`SHARE_LINK_DEFAULT_TTL_SECONDS` unless chosen).
//
// A link's secret is derived from SECRET_KEY and the link's id, so an owner can copy it again
// later from the Share menu while only its hash is stored (docs/decisions.md, "The app,
// third pass (issue 27): the Share menu").
import { createHmac } from "node:crypto";
import type { PageDoc, ShareLinkDoc, WorkspaceDoc } from "../db/index";
import { AppError } from "../errors";
import { newId, sha256 } from "../ids";
import type { ShareLinkView } from "../schemas/workspaces";
import { actorOf, assertCan, can, isHidden, type Principal } from "./access";
import { findPageBySlug } from "./pages/page-store";
import { addSeconds, now } from "./clock";
import { tokenStatus } from "./tokens";
import type { StoreDeps } from "./deps";
import { recordEvent } from "./events";
import { findWorkspace, readableWorkspace } from "./workspaces";

const TOUCH_EVERY_MS = 60_000;

/** The secret of the link `linkId`: 32 URL-safe characters (192 bits) only this server can make. */
function linkSecret(secretKey: string, linkId: string): string {
  return createHmac("sha256", secretKey).update(`share-link:${linkId}`).digest("base64url").slice(0, 32);
}

/**
 * The link's URL again, when its secret can be made again: not for a link made before
 * SECRET_KEY changed (or before secrets were derived), whose hash no longer matches.
 */
function linkUrl(deps: StoreDeps, link: ShareLinkDoc): string | null {
  const secret = linkSecret(deps.config.SECRET_KEY, link.linkId);
  return sha256(secret) === link._id ? `${deps.config.BASE_URL}/s/${secret}` : null;
}

async function linkViews(deps: StoreDeps, links: ShareLinkDoc[]): Promise<ShareLinkView[]> {
  const ids = [...new Set(links.flatMap((l) => (l.pageId ? [l.pageId] : [])))];
  const pages = ids.length > 0 ? await deps.database.c.pages.find({ _id: { $in: ids } }, { projection: { slug: 1 } }).toArray() : [];
  const slugOf = new Map(pages.map((p) => [p._id, p.slug]));
  return links.map((l) => ({
    link_id: l.linkId,
    page_id: l.pageId,
    page_slug: l.pageId ? (slugOf.get(l.pageId) ?? null) : null,
    created_by: l.createdBy.label,
    created_at: l.createdAt.toISOString(),
    last_used_at: l.lastUsedAt ? l.lastUsedAt.toISOString() : null,
    expires_at: l.expiresAt ? l.expiresAt.toISOString() : null,
    url: linkUrl(deps, l),
  }));
}

type LinkWorkspace = Pick<WorkspaceDoc, "_id" | "visibility" | "members" | "sandbox" | "blockedTokenIds" | "ownerId" | "deletingAt">;

/** Whether whoever made the link could still make it now: the person an owner there, the agent live and allowed to manage there. */
async function makerMayStillShare(deps: StoreDeps, link: ShareLinkDoc, ws: LinkWorkspace): Promise<boolean> {
  const maker = link.createdBy;
  if (maker.kind === "user") {
    if (!maker.userId) return false;
    const user = await deps.database.c.users.findOne({ _id: maker.userId });
    return user !== null && can({ kind: "user", user }, ws, "manage");
  }
  if (!maker.tokenId) return false;
  const token = await deps.database.c.tokens.findOne({ _id: maker.tokenId }, { projection: { hash: 0 } });
  return token !== null && tokenStatus(token) === "active" && can({ kind: "token", token }, ws, "manage");
}

/** Ends a link whose maker lost the right to share (once: a later regained right does not bring it back). */
async function endLink(deps: StoreDeps, link: ShareLinkDoc): Promise<void> {
  await deps.database.c.shareLinks.updateOne({ _id: link._id, revokedAt: null }, { $set: { revokedAt: now(), endedBecause: "maker_lost_access" } });
}

/** The links of `links` that still open something; those whose maker lost access are ended on the way. */
async function liveLinks(deps: StoreDeps, links: ShareLinkDoc[], ws: LinkWorkspace): Promise<ShareLinkDoc[]> {
  const t = now();
  const out: ShareLinkDoc[] = [];
  for (const link of links) {
    if (link.revokedAt || (link.expiresAt && link.expiresAt <= t)) continue;
    if (await makerMayStillShare(deps, link, ws)) out.push(link);
    else await endLink(deps, link);
  }
  return out;
}

/**
 * Ends at once the live links in a workspace made by a person (and that person's agents) or
 * by one agent, when they lose the right to share there; called where that right is taken
 * away, so a right given back later does not revive them.
 */
export async function endLinksOfMaker(deps: StoreDeps, workspaceId: string | null, maker: { userId: string } | { tokenId: string }): Promise<void> {
  const filter = "userId" in maker ? { "createdBy.userId": maker.userId } : { "createdBy.tokenId": maker.tokenId };
  await deps.database.c.shareLinks.updateMany(
    { ...filter, ...(workspaceId ? { workspaceId } : {}), revokedAt: null },
    { $set: { revokedAt: now(), endedBecause: "maker_lost_access" } },
  );
}

export async function createShareLink(
  deps: StoreDeps,
  principal: Principal,
  input: { workspace: string; page?: string | undefined; expiresInDays?: number | null | undefined },
): Promise<ShareLinkView & { url: string }> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  assertCan(principal, ws, "manage");
  if (ws.sandbox?.state === "unclaimed") throw new AppError("forbidden", "An unclaimed sandbox cannot be shared.");
  let page: PageDoc | null = null;
  if (input.page) {
    page = await findPageBySlug(deps, input.page);
    if (!page || page.workspaceId !== ws._id) throw new AppError("not_found", `No page "${input.page}" in this workspace.`);
  }
  const linkId = newId("shr");
  const secret = linkSecret(deps.config.SECRET_KEY, linkId);
  const createdAt = now();
  const ttlSeconds =
    input.expiresInDays === undefined ? deps.config.SHARE_LINK_DEFAULT_TTL_SECONDS : input.expiresInDays === null ? 0 : input.expiresInDays * 86_400;
  const link: ShareLinkDoc = {
    _id: sha256(secret),
    linkId,
    workspaceId: ws._id,
    pageId: page?._id ?? null,
    createdBy: actorOf(principal),
    createdAt,
    revokedAt: null,
    lastUsedAt: null,
    expiresAt: ttlSeconds > 0 ? addSeconds(createdAt, ttlSeconds) : null,
    endedBecause: null,
  };
  await deps.database.c.shareLinks.insertOne(link);
  await recordEvent(deps, {
    workspaceId: ws._id,
    type: "share_link.created",
    actor: link.createdBy,
    target: { kind: page ? "page" : "workspace", id: page?._id ?? ws._id, label: page?.title ?? ws.name },
  });
  const [view] = await linkViews(deps, [link]);
  return { ...(view as ShareLinkView), url: `${deps.config.BASE_URL}/s/${secret}` };
}

export async function listShareLinks(deps: StoreDeps, principal: Principal, workspace: string): Promise<ShareLinkView[]> {
  const ws = await readableWorkspace(deps, principal, workspace);
  assertCan(principal, ws, "manage");
  const links = await deps.database.c.shareLinks
    .find({ workspaceId: ws._id, revokedAt: null, $or: [{ expiresAt: null }, { expiresAt: { $gt: now() } }] })
    .sort({ createdAt: -1, _id: 1 })
    .limit(200)
    .toArray();
  return linkViews(deps, await liveLinks(deps, links, ws));
}

export async function revokeShareLink(deps: StoreDeps, principal: Principal, input: { workspace: string; linkId: string }): Promise<void> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  assertCan(principal, ws, "manage");
  const r = await deps.database.c.shareLinks.updateOne(
    { linkId: input.linkId, workspaceId: ws._id, revokedAt: null },
    { $set: { revokedAt: now(), endedBecause: "revoked" } },
  );
  if (r.modifiedCount !== 1) throw new AppError("not_found", "No such share link.");
  await recordEvent(deps, {
    workspaceId: ws._id,
    type: "share_link.revoked",
    actor: actorOf(principal),
    target: { kind: "share_link", id: input.linkId, label: ws.name },
  });
}

/** A share link that still works, and its workspace; null for a wrong, revoked, expired or orphaned one (ended then). */
async function liveShareLink(deps: StoreDeps, secret: string) {
  if (secret.length < 20 || secret.length > 64) return null;
  const link = await deps.database.c.shareLinks.findOne({ _id: sha256(secret) });
  if (!link || link.revokedAt || (link.expiresAt && link.expiresAt <= now())) return null;
  const ws = await findWorkspace(deps, link.workspaceId);
  if (!ws || isHidden(ws)) return null;
  if (!(await makerMayStillShare(deps, link, ws))) {
    await endLink(deps, link);
    return null;
  }
  return { link, ws };
}

/** What a share link opens: the rendered page (by slug within the link's reach), an index of its pages, or null. */
export async function resolveShareLink(
  deps: StoreDeps,
  secret: string,
  pageSlug: string | undefined,
): Promise<
  | { kind: "page"; html: string; workspaceId: string; pageId: string; linkId: string }
  | { kind: "index"; workspace: WorkspaceDoc; pages: Pick<PageDoc, "slug" | "title" | "summary">[] }
  | null
> {
  const live = await liveShareLink(deps, secret);
  if (!live) return null;
  const { link, ws } = live;
  const t = now();
  if (!link.lastUsedAt || t.getTime() - link.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await deps.database.c.shareLinks.updateOne({ _id: link._id }, { $set: { lastUsedAt: t } });
  }
  const documentOf = async (page: PageDoc | null) => {
    if (!page || page.workspaceId !== ws._id) return null;
    const a = await deps.database.c.artifacts.findOne({ _id: page.slug }, { projection: { html: 1, pageId: 1 } });
    return a?.html && a.pageId === page._id ? { kind: "page" as const, html: a.html, workspaceId: ws._id, pageId: page._id, linkId: link.linkId } : null;
  };
  if (link.pageId) {
    const page = await deps.database.c.pages.findOne({ _id: link.pageId });
    if (!page || (pageSlug !== undefined && pageSlug !== page.slug)) return null;
    return documentOf(page);
  }
  if (pageSlug !== undefined) return documentOf(await findPageBySlug(deps, pageSlug));
  const pages = await deps.database.c.pages
    .find({ workspaceId: ws._id }, { projection: { slug: 1, title: 1, summary: 1 } })
    .sort({ slug: 1 })
    .limit(1000)
    .toArray();
  return { kind: "index", workspace: ws, pages };
}

/**
 * The address of the page a share link shows (its one page, or `pageSlug` within its
 * workspace), while the link still opens it; null otherwise. The live stream of a share
 * link's view asks again at every change, so a revoked link stops telling anything.
 */
export async function sharedPageSlug(deps: StoreDeps, secret: string, pageSlug: string | undefined): Promise<string | null> {
  if (secret.length < 20 || secret.length > 64) return null;
  const link = await deps.database.c.shareLinks.findOne({ _id: sha256(secret) });
  if (!link || link.revokedAt || (link.expiresAt && link.expiresAt <= now())) return null;
  const ws = await findWorkspace(deps, link.workspaceId);
  if (!ws || isHidden(ws) || !(await makerMayStillShare(deps, link, ws))) return null;
  const page = link.pageId ? await deps.database.c.pages.findOne({ _id: link.pageId }) : pageSlug !== undefined ? await findPageBySlug(deps, pageSlug) : null;
  if (!page || page.workspaceId !== ws._id || page.deletingAt || (pageSlug !== undefined && pageSlug !== page.slug)) return null;
  return page.slug;
}
