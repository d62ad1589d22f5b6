// Workspaces (buckets): creation with their default collection, lookups by slug, visibility,
// and the view every adapter answers with. A slug is a key document of its own
// (`workspaceSlugs`, keyed by the slug), so a lookup by slug is a primary-key lookup and a
// slug is unique by construction.
// Longer than 300 lines: the workspace's lookups, its view and its few changes share the
// slug-key and cache rules above; moved apart they would each restate them.
import type { SandboxInfo, Visibility, WorkspaceDoc } from "../db/index";
import { AppError, invalidField, isDuplicateKey, translateDbError } from "../errors";
import { newId } from "../ids";
import type { WorkspaceView } from "../schemas/workspaces";
import { actorOf, assertCan, can, isHidden, notReadable, roleOf, type Principal } from "./access";
import { syncArtifactVisibility } from "./artifacts";
import { now } from "./clock";
import type { Deps, StoreDeps } from "./deps";
import { recordEvent } from "./events";
import { deleteOAuthGrant } from "./oauth-store";
import { forgetToken } from "./tokens";

export const DEFAULT_COLLECTION_SLUG = "pages";

const wsKey = (id: string) => `ws:${id}`;
const slugKey = (slug: string) => `wsslug:${slug}`;

/** Drops this process's cached copy of a workspace after a change (docs/ARCHITECTURE.md#state). */
export function forgetWorkspace(deps: Pick<Deps, "cache">, ws: Pick<WorkspaceDoc, "_id" | "slug">): void {
  deps.cache.delete(wsKey(ws._id));
  deps.cache.delete(slugKey(ws.slug));
}

/** Drops this process's cached copy of a workspace known by id only (another process changed it). */
export function forgetWorkspaceById(deps: Pick<Deps, "cache">, id: string): void {
  deps.cache.delete(wsKey(id));
}

/** A workspace by id (cached for at most CACHE_TTL_MS), or null. */
export function findWorkspace(deps: StoreDeps, id: string): Promise<WorkspaceDoc | null> {
  return deps.cache.through(wsKey(id), () => deps.database.c.workspaces.findOne({ _id: id }), { bytes: (w) => (w ? 512 + 100 * w.members.length : 0) });
}

/** A workspace by slug: the slug's key document, then the workspace, both primary-key lookups. */
export async function findWorkspaceBySlug(deps: StoreDeps, slug: string): Promise<WorkspaceDoc | null> {
  const id = await deps.cache.through(slugKey(slug), async () => (await deps.database.c.workspaceSlugs.findOne({ _id: slug }))?.workspaceId ?? null);
  if (!id) return null;
  const ws = await findWorkspace(deps, id);
  return ws && ws.slug === slug ? ws : null;
}

/** A workspace the principal may read, by slug; `not_found` otherwise (existence does not leak). */
export async function readableWorkspace(deps: StoreDeps, principal: Principal, slug: string): Promise<WorkspaceDoc> {
  const ws = await findWorkspaceBySlug(deps, slug);
  if (!ws) throw new AppError("not_found", "No such workspace.");
  if (!can(principal, ws, "read")) throw notReadable(principal, ws);
  return ws;
}

export interface NewWorkspace {
  id?: string;
  slug: string;
  name: string;
  ownerId: string | null;
  visibility?: Visibility;
  sandbox?: SandboxInfo | null;
}

/**
 * Creates a workspace and its default `pages` collection: the slug's key first (a taken slug
 * is `conflict`), then the workspace, then the collection. Each step is idempotent for a
 * given id, so a retry after an interruption finishes the job; a key left pending by a
 * process that stopped is removed by the sweeper.
 */
export async function createWorkspace(deps: Pick<Deps, "database">, input: NewWorkspace): Promise<WorkspaceDoc> {
  const { database } = deps;
  const t = now();
  const id = input.id ?? newId("ws");
  try {
    await database.c.workspaceSlugs.insertOne({ _id: input.slug, workspaceId: id, pending: true, createdAt: t });
  } catch (err) {
    if (!isDuplicateKey(err)) throw translateDbError(err);
    const key = await database.c.workspaceSlugs.findOne({ _id: input.slug });
    if (key?.workspaceId !== id) throw new AppError("conflict", `The workspace slug "${input.slug}" is taken.`);
  }
  const doc: WorkspaceDoc = {
    _id: id,
    slug: input.slug,
    name: input.name,
    visibility: input.visibility ?? "private",
    ownerId: input.ownerId,
    members: input.ownerId ? [{ userId: input.ownerId, role: "owner", addedAt: t }] : [],
    membersVersion: 0,
    sandbox: input.sandbox ?? null,
    capped: input.sandbox?.state === "unclaimed",
    blockedTokenIds: [],
    usage: { pages: 0, bytes: 0 },
    usageDirtyAt: null,
    visibilitySyncAt: null,
    createdAt: t,
    updatedAt: t,
  };
  let ws = doc;
  try {
    await database.c.workspaces.insertOne(doc);
  } catch (err) {
    const existing = isDuplicateKey(err) ? await database.c.workspaces.findOne({ _id: id }) : null;
    if (!existing) throw translateDbError(err);
    ws = existing;
  }
  await ensureDefaultCollection(deps, ws._id);
  await database.c.workspaceSlugs.updateOne({ _id: input.slug, workspaceId: id }, { $set: { pending: false } });
  return ws;
}

export async function ensureDefaultCollection(deps: Pick<Deps, "database">, workspaceId: string): Promise<string> {
  const { database } = deps;
  const existing = await database.c.collections.findOne({ workspaceId, slug: DEFAULT_COLLECTION_SLUG }, { projection: { _id: 1 } });
  if (existing) return existing._id;
  const id = newId("col");
  try {
    await database.c.collections.insertOne({
      _id: id,
      workspaceId,
      slug: DEFAULT_COLLECTION_SLUG,
      name: "Pages",
      kind: "pages",
      isDefault: true,
      columns: [],
      bytes: 0,
      rowCount: 0,
      countDirtyAt: null,
      createdAt: now(),
    });
    return id;
  } catch (err) {
    const again = await database.c.collections.findOne({ workspaceId, slug: DEFAULT_COLLECTION_SLUG }, { projection: { _id: 1 } });
    if (again) return again._id;
    throw translateDbError(err);
  }
}

/**
 * The workspace a write goes to: the named one, or the caller's default — a person's
 * default workspace; for a token, the one workspace it is restricted to, else its owner's
 * default. A missing default is `not_found`.
 */
export async function resolveWorkspaceForWrite(deps: StoreDeps, principal: Principal, slug?: string): Promise<WorkspaceDoc> {
  if (slug !== undefined) return readableWorkspace(deps, principal, slug);
  let id: string | null = null;
  if (principal.kind === "user") id = principal.user.defaultWorkspaceId;
  else if (principal.kind === "token") {
    const t = principal.token;
    if (t.workspaceIds?.length === 1) id = t.workspaceIds[0] ?? null;
    else if (t.ownerId) id = (await deps.database.c.users.findOne({ _id: t.ownerId }, { projection: { defaultWorkspaceId: 1 } }))?.defaultWorkspaceId ?? null;
  } else throw new AppError("unauthorized", "Sign in first.");
  const ws = id ? await findWorkspace(deps, id) : null;
  if (!ws) throw new AppError("not_found", "Your default workspace does not exist.");
  return ws;
}

/** Workspaces the principal belongs to (for a token: those it can reach), newest first. */
export async function workspacesOf(deps: Pick<Deps, "database">, principal: Principal): Promise<WorkspaceDoc[]> {
  const { database } = deps;
  let found: WorkspaceDoc[];
  switch (principal.kind) {
    case "nobody":
      return [];
    case "user":
      found = await database.c.workspaces.find({ "members.userId": principal.user._id }).sort({ createdAt: -1, _id: 1 }).limit(500).toArray();
      break;
    case "token": {
      const t = principal.token;
      if (t.workspaceIds !== null)
        found = await database.c.workspaces
          .find({ _id: { $in: t.workspaceIds } })
          .sort({ createdAt: -1, _id: 1 })
          .limit(500)
          .toArray();
      else if (t.ownerId) found = await database.c.workspaces.find({ "members.userId": t.ownerId }).sort({ createdAt: -1, _id: 1 }).limit(500).toArray();
      else found = [];
      break;
    }
  }
  return found.filter((ws) => !isHidden(ws) && can(principal, ws, "read"));
}

export function workspaceView(ws: WorkspaceDoc, principal: Principal): WorkspaceView {
  const userId = principal.kind === "user" ? principal.user._id : principal.kind === "token" ? principal.token.ownerId : null;
  return {
    id: ws._id,
    slug: ws.slug,
    name: ws.name,
    visibility: ws.visibility,
    role: userId ? roleOf(ws, userId) : null,
    can_write: can(principal, ws, "write"),
    can_manage: can(principal, ws, "manage"),
    sandbox: ws.sandbox ? { state: ws.sandbox.state } : null,
    usage: { pages: ws.usage.pages, bytes: ws.usage.bytes },
    created_at: ws.createdAt.toISOString(),
  };
}

// ---- use cases ------------------------------------------------------------------------

export async function listWorkspaces(deps: StoreDeps, principal: Principal): Promise<WorkspaceView[]> {
  return (await workspacesOf(deps, principal)).map((ws) => workspaceView(ws, principal));
}

export async function getWorkspace(deps: StoreDeps, principal: Principal, slug: string): Promise<WorkspaceView> {
  return workspaceView(await readableWorkspace(deps, principal, slug), principal);
}

/**
 * Whether the principal may create workspaces: a person, or a token that acts for a person
 * with `mcp:write`, is not confined to some workspaces (a sandbox's own token, claimed or
 * not, stays confined to it; docs/contract.md#sandboxes-limits-and-lifecycle), and has not been cut off by its owner anywhere.
 */
async function assertMayCreateWorkspaces(deps: Pick<Deps, "database">, principal: Principal): Promise<string> {
  if (principal.kind === "user") return principal.user._id;
  if (principal.kind === "nobody") throw new AppError("unauthorized", "Sign in first.");
  const t = principal.token;
  if (!t.ownerId || t.kind === "anonymous") {
    throw new AppError("forbidden", "An unclaimed sandbox token cannot create workspaces; a person must claim the sandbox first.");
  }
  if (!t.scopes.includes("mcp:write")) throw new AppError("forbidden", "Creating a workspace needs the mcp:write scope.");
  if (t.workspaceIds !== null) throw new AppError("forbidden", "This token is confined to its workspaces and cannot create new ones.");
  const cutOff = await deps.database.c.workspaces.findOne({ blockedTokenIds: t._id }, { projection: { _id: 1 } });
  if (cutOff) throw new AppError("forbidden", "This agent has been cut off by its owner and cannot create workspaces.");
  return t.ownerId;
}

/** A new workspace owned by the signed-in person (or the person the token acts for). */
export async function createWorkspaceFor(deps: StoreDeps, principal: Principal, input: { slug: string; name: string }): Promise<WorkspaceView> {
  const ownerId = await assertMayCreateWorkspaces(deps, principal);
  const ws = await createWorkspace(deps, { slug: input.slug, name: input.name, ownerId });
  await recordEvent(deps, {
    workspaceId: ws._id,
    type: "workspace.created",
    actor: actorOf(principal),
    target: { kind: "workspace", id: ws._id, label: ws.name },
  });
  return workspaceView(ws, principal);
}

/**
 * Publishes or unpublishes a workspace. The workspace changes first, then the copies of its
 * visibility on its pages' artifacts (so GET /a/{slug} stays one lookup); a page's first
 * document (or a moved page's new address) written meanwhile checks the workspace again after
 * writing its artifact, and later versions leave the copy alone (artifacts.ts, writeRendition). The mark set with the
 * change lets the sweeper finish the copies if this process stops in between.
 */
export async function setVisibility(deps: StoreDeps, principal: Principal, slug: string, visibility: Visibility): Promise<WorkspaceView> {
  const ws = await readableWorkspace(deps, principal, slug);
  assertCan(principal, ws, "manage");
  if (ws.sandbox?.state === "unclaimed") throw new AppError("forbidden", "An unclaimed sandbox cannot be made public.");
  const t = now();
  await deps.database.c.workspaces.updateOne({ _id: ws._id }, { $set: { visibility, updatedAt: t, visibilitySyncAt: t } });
  const next = { ...ws, visibility, updatedAt: t };
  forgetWorkspace(deps, ws);
  await syncArtifactVisibility(deps, next);
  await recordEvent(deps, {
    workspaceId: ws._id,
    type: `workspace.${visibility}`,
    actor: actorOf(principal),
    target: { kind: "workspace", id: ws._id, label: ws.name },
  });
  return workspaceView(next, principal);
}

/** Renames a workspace (owners only). The slug, and so every address, stays. */
export async function renameWorkspace(deps: StoreDeps, principal: Principal, input: { slug: string; name: string }): Promise<WorkspaceView> {
  const ws = await readableWorkspace(deps, principal, input.slug);
  assertCan(principal, ws, "manage");
  const t = now();
  await deps.database.c.workspaces.updateOne({ _id: ws._id }, { $set: { name: input.name, updatedAt: t } });
  forgetWorkspace(deps, ws);
  await recordEvent(deps, {
    workspaceId: ws._id,
    type: "workspace.renamed",
    actor: actorOf(principal),
    target: { kind: "workspace", id: ws._id, label: input.name },
  });
  return workspaceView({ ...ws, name: input.name, updatedAt: t }, principal);
}

/**
 * Deletes a workspace and everything it holds (its owners only, people not agents, and
 * never someone's default workspace, where agents write when they name none). The person
 * types the workspace's slug to confirm (in any case). The workspace is marked first, so from that
 * moment nobody can open it or its pages; the steps after the mark are idempotent and the
 * sweeper finishes them if this process stops.
 */
export async function deleteWorkspace(deps: StoreDeps, principal: Principal, input: { slug: string; confirm: string }): Promise<{ slug: string }> {
  const ws = await readableWorkspace(deps, principal, input.slug);
  assertCan(principal, ws, "manage");
  if (principal.kind !== "user" || roleOf(ws, principal.user._id) !== "owner") {
    throw new AppError("forbidden", "Only an owner, signed in, can delete a workspace.");
  }
  // Capital letters and spaces around it don't matter (an address is lower-case anyway); the app says so.
  if (input.confirm.trim().toLowerCase() !== ws.slug)
    throw invalidField("confirm", "mismatch", `type the workspace's address "${ws.slug}" to confirm`, { expected: ws.slug });
  const someonesDefault = await deps.database.c.users.findOne({ defaultWorkspaceId: ws._id }, { projection: { _id: 1 } });
  if (someonesDefault) {
    throw new AppError("forbidden", "This is a person's default workspace (where their agents write when they name none); it cannot be deleted.", {
      details: { reason: "default_workspace" },
    });
  }
  const marked = await deps.database.c.workspaces.updateOne({ _id: ws._id, deletingAt: null }, { $set: { deletingAt: now() } });
  forgetWorkspace(deps, ws);
  if (marked.modifiedCount !== 1) throw new AppError("not_found", "No such workspace.");
  await finishWorkspaceDelete(deps, { _id: ws._id, slug: ws.slug });
  return { slug: ws.slug };
}

/** What a workspace owns, by its id: removed when the workspace is deleted. */
const OWNED_BY_WORKSPACE = [
  "pageViews",
  "artifacts",
  "shareLinks",
  "comments",
  "pages",
  "revisions",
  "rows",
  "rowRevisions",
  "rowChanges",
  "collections",
  "events",
  "changes",
  "webhooks",
  "webhookDeliveries",
  "mentionMails",
  "workspaceSlugs",
  "uploads",
  "files",
  "fileChunks",
  "searchTerms",
  "searchDocs",
] as const;

/**
 * The steps of a workspace delete after its mark, each idempotent: its addresses and share
 * links first (so nothing is served a moment longer), then its content, then the tokens
 * confined to it lose it (one confined to nothing else is revoked: never widened to every
 * workspace), then the workspace itself.
 */
export async function finishWorkspaceDelete(deps: StoreDeps, ws: Pick<WorkspaceDoc, "_id" | "slug">): Promise<void> {
  const { database, cache } = deps;
  const slugs = await database.c.artifacts.find({ workspaceId: ws._id }, { projection: { _id: 1 } }).toArray();
  for (const name of OWNED_BY_WORKSPACE) await (database.c[name] as unknown as typeof database.c.pages).deleteMany({ workspaceId: ws._id });
  await database.c.changeHeads.deleteOne({ _id: ws._id });
  for (const a of slugs) {
    cache.delete(`art:${a._id}`);
    cache.delete(`pageslug:${a._id}`);
  }
  cache.deleteTag(`artws:${ws._id}`);
  const confined = await database.c.tokens.find({ workspaceIds: ws._id }, { projection: { hash: 1, workspaceIds: 1, revokedAt: 1, kind: 1 } }).toArray();
  for (const t of confined) {
    const rest = (t.workspaceIds ?? []).filter((id) => id !== ws._id);
    await database.c.tokens.updateOne(
      { _id: t._id },
      rest.length === 0 && !t.revokedAt ? { $pull: { workspaceIds: ws._id }, $set: { revokedAt: now() } } : { $pull: { workspaceIds: ws._id } },
    );
    // A connected agent left with no workspace ends at the authorization server too: its refresh token stops.
    if (rest.length === 0 && t.kind === "oauth") await deleteOAuthGrant(deps, t._id);
    forgetToken(deps, t);
  }
  await database.c.registrations.updateMany({ workspaceId: ws._id }, { $set: { workspaceId: null } });
  await database.c.workspaces.deleteOne({ _id: ws._id });
  forgetWorkspace(deps, ws);
}
