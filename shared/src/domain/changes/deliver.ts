// "May this subscriber see this change?" — the one answer every subscriber uses: the app's
// event stream, the public page streams, MCP resource subscriptions and list_changes
// (docs/events.md#live-streams). Decided at delivery time, from the workspace as it is now:
// the follower drops the cached workspace before it hands a signal on, so a member removed,
// a token cut off or a workspace made private is refused for the very change that did it.
import type { ChangeDoc, ChangeSignalDoc, WorkspaceDoc } from "../../db/index";
import type { ChangeView } from "../../schemas/changes";
import { can, isInsider, type Principal } from "../access";
import type { StoreDeps } from "../deps";
import { tokenStatus } from "../tokens";
import { findWorkspace } from "../workspaces";
import { changeId } from "./feed";

/** What an outsider of a public workspace may see change: its content. */
const PUBLIC_TARGETS = new Set<ChangeDoc["target"]["kind"]>(["page", "row", "collection"]);
const PUBLIC_WORKSPACE_TYPES = new Set(["workspace.renamed", "workspace.public", "workspace.private"]);

/** Whether a change may be shown to a reader of the workspace (insider: a member or its agent). */
export function visibleTo(change: Pick<ChangeDoc, "type" | "target">, insider: boolean): boolean {
  if (insider) return true;
  return PUBLIC_TARGETS.has(change.target.kind) || PUBLIC_WORKSPACE_TYPES.has(change.type);
}

export function changeView(c: ChangeDoc, insider: boolean): ChangeView {
  return {
    seq: c.seq,
    type: c.type,
    actor: insider ? { kind: c.actor.kind, user_id: c.actor.userId, token_id: c.actor.tokenId ?? null } : { kind: c.actor.kind, user_id: null, token_id: null },
    target: { kind: c.target.kind, id: c.target.id },
    version: c.version ?? null,
    at: c.at.toISOString(),
  };
}

/**
 * The change as `principal` may see it in `ws` now, or null: nothing for a workspace it may
 * not read (any more), none outside a confined token's workspaces, and for an outsider of a
 * public workspace only content changes, without the ids of people.
 */
export function changeFor(principal: Principal, ws: WorkspaceDoc, c: ChangeDoc): ChangeView | null {
  if (c.hole || !can(principal, ws, "read")) return null;
  if (principal.kind === "token" && tokenStatus(principal.token) !== "active") return null;
  // A token confined to some workspaces (a sandbox's, or one limited by its owner) follows
  // those only, even where a public workspace would let it read.
  if (principal.kind === "token" && principal.token.workspaceIds !== null && !principal.token.workspaceIds.includes(ws._id)) return null;
  const insider = isInsider(principal, ws);
  return visibleTo(c, insider) ? changeView(c, insider) : null;
}

/** The reads of signals' changes under way or done (a signal is one object for every subscriber of a process). */
const changesOfSignals = new WeakMap<ChangeSignalDoc, Promise<ChangeDoc | null>>();

/** The change a workspace signal points at: one read per process, shared by every subscriber. */
export function changeOfSignal(deps: Pick<StoreDeps, "database">, s: ChangeSignalDoc): Promise<ChangeDoc | null> {
  if (s.kind !== "workspace" || s.seq === undefined) return Promise.resolve(null);
  let read = changesOfSignals.get(s);
  if (!read) changesOfSignals.set(s, (read = deps.database.c.changes.findOne({ _id: changeId(s.id, s.seq) })));
  return read;
}

/** A page's current address by its id, for a stream opened by id (null when there is none). */
export async function pageSlugById(deps: Pick<StoreDeps, "database">, pageId: string): Promise<string | null> {
  return (await deps.database.c.pages.findOne({ _id: pageId }, { projection: { slug: 1 } }))?.slug ?? null;
}

/**
 * A change delivered to a live subscriber: the workspace is read now (from this process's
 * cache, which the follower has already cleared of anything the change made stale).
 */
export async function deliverableChange(deps: StoreDeps, principal: Principal, c: ChangeDoc): Promise<ChangeView | null> {
  const ws = await findWorkspace(deps, c.workspaceId);
  if (!ws) return null;
  return changeFor(principal, ws, c);
}

/** Which changes can alter what a page's reader sees: the page, its workspace's visibility and tables it may show. */
export function touchesPage(c: Pick<ChangeDoc, "type" | "target">, pageId: string): boolean {
  if (c.target.kind === "page") return c.target.id === pageId;
  if (c.target.kind === "row" || c.target.kind === "collection") return true;
  return c.type === "workspace.private" || c.type === "workspace.public" || c.type === "workspace.renamed";
}

/**
 * What a page stream tells its reader: the document's current state (a short form of its
 * ETag: it changes whenever what is served changes, tables included), or that it is gone.
 */
export type PageStreamState = { kind: "document"; workspaceId: string; state: string } | { kind: "gone" };

/** The page states read for a signal, by `${reach}:${slug}`: one read per page per change, however many streams follow it. */
const statesOfSignals = new WeakMap<object, Map<string, Promise<PageStreamState>>>();

/** `pageStreamState` read once per signal (the object every subscriber of a process is handed). */
export function pageStreamStateAt(deps: StoreDeps, signal: object, slug: string, reach: "public" | "link"): Promise<PageStreamState> {
  let byPage = statesOfSignals.get(signal);
  if (!byPage) statesOfSignals.set(signal, (byPage = new Map()));
  const key = `${reach}:${slug}`;
  let read = byPage.get(key);
  if (!read) byPage.set(key, (read = pageStreamState(deps, slug, reach)));
  return read;
}

/**
 * The state of the document at `/a/{slug}` for a reader with no credentials (`public`) or
 * one holding a share link that the caller has just checked (`link`): gone once the page is
 * deleted or moved, and, for the public, once its workspace is not public.
 */
export async function pageStreamState(deps: StoreDeps, slug: string, reach: "public" | "link"): Promise<PageStreamState> {
  const a = await deps.database.c.artifacts.findOne({ _id: slug }, { projection: { etag: 1, public: 1, workspaceId: 1, redirect: 1, html: 1 } });
  if (!a || a.redirect || a.html === null) return { kind: "gone" };
  const ws = await findWorkspace(deps, a.workspaceId);
  if (!ws) return { kind: "gone" };
  if (reach === "public" && (!a.public || !can({ kind: "nobody" }, ws, "read"))) return { kind: "gone" };
  return { kind: "document", workspaceId: ws._id, state: a.etag.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 16) };
}
