// Workspaces (buckets) and their default collection.
import type { Database, Role, SandboxInfo, Visibility, WorkspaceDoc } from "../db/index";
import { AppError, translateDbError } from "../errors";
import { newId } from "../ids";
import { actorOf, assertCan, can, notReadable, type Principal } from "./access";
import { now } from "./clock";
import { recordEvent } from "./events";
import { tokenStatus } from "./tokens";

export const DEFAULT_COLLECTION_SLUG = "pages";

export interface NewWorkspace {
  id?: string;
  slug: string;
  name: string;
  ownerId: string | null;
  visibility?: Visibility;
  sandbox?: SandboxInfo | null;
}

/**
 * Creates a workspace and its default `pages` collection. Both steps are idempotent for a
 * given id, so a retry after an interruption finishes the job instead of failing.
 */
export async function createWorkspace(database: Database, input: NewWorkspace): Promise<WorkspaceDoc> {
  const t = now();
  const doc: WorkspaceDoc = {
    _id: input.id ?? newId("ws"),
    slug: input.slug,
    name: input.name,
    visibility: input.visibility ?? "private",
    ownerId: input.ownerId,
    members: input.ownerId ? [{ userId: input.ownerId, role: "owner", addedAt: t }] : [],
    sandbox: input.sandbox ?? null,
    blockedTokenIds: [],
    usage: { pages: 0, bytes: 0 },
    usageDirtyAt: null,
    createdAt: t,
    updatedAt: t,
  };
  try {
    await database.c.workspaces.insertOne(doc);
  } catch (err) {
    const existing = input.id ? await database.c.workspaces.findOne({ _id: input.id }) : null;
    if (!existing) throw translateDbError(err, `The workspace slug "${input.slug}" is taken.`);
    await ensureDefaultCollection(database, existing._id);
    return existing;
  }
  await ensureDefaultCollection(database, doc._id);
  return doc;
}

export async function ensureDefaultCollection(database: Database, workspaceId: string): Promise<string> {
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

export function roleOf(workspace: Pick<WorkspaceDoc, "members">, userId: string): Role | null {
  return workspace.members.find((m) => m.userId === userId)?.role ?? null;
}

export async function getWorkspaceBySlug(database: Database, slug: string): Promise<WorkspaceDoc> {
  const ws = await database.c.workspaces.findOne({ slug });
  if (!ws) throw new AppError("not_found", "No such workspace.");
  return ws;
}

/**
 * The workspace a write goes to: the named one, or the caller's default — a person's
 * default workspace; for a token, the one workspace it is restricted to, else its owner's
 * default. A missing default is `not_found`.
 */
export async function resolveWorkspaceForWrite(database: Database, principal: Principal, slug?: string): Promise<WorkspaceDoc> {
  if (slug !== undefined) {
    const ws = await database.c.workspaces.findOne({ slug });
    if (!ws) throw new AppError("not_found", "No such workspace.");
    if (!can(principal, ws, "read")) throw notReadable(principal, ws);
    return ws;
  }
  let id: string | null = null;
  if (principal.kind === "user") id = principal.user.defaultWorkspaceId;
  else if (principal.kind === "token") {
    const t = principal.token;
    if (t.workspaceIds?.length === 1) id = t.workspaceIds[0] ?? null;
    else if (t.ownerId) id = (await database.c.users.findOne({ _id: t.ownerId }, { projection: { defaultWorkspaceId: 1 } }))?.defaultWorkspaceId ?? null;
  } else throw new AppError("unauthorized", "Sign in first.");
  const ws = id ? await database.c.workspaces.findOne({ _id: id }) : null;
  if (!ws) throw new AppError("not_found", "Your default workspace does not exist.");
  return ws;
}

/** A workspace the principal may read, by slug; `not_found` otherwise. */
export async function getReadableWorkspace(database: Database, principal: Principal, slug: string): Promise<WorkspaceDoc> {
  const ws = await database.c.workspaces.findOne({ slug });
  if (!ws) throw new AppError("not_found", "No such workspace.");
  if (!can(principal, ws, "read")) throw notReadable(principal, ws);
  return ws;
}

/** Workspaces the principal belongs to (for a token: those it can reach), newest first. */
export async function listWorkspacesFor(database: Database, principal: Principal): Promise<WorkspaceDoc[]> {
  switch (principal.kind) {
    case "nobody":
      return [];
    case "user":
      return database.c.workspaces.find({ "members.userId": principal.user._id, "sandbox.hiddenAt": { $in: [null] } }).sort({ createdAt: -1 }).limit(500).toArray();
    case "token": {
      const t = principal.token;
      const filter =
        t.workspaceIds !== null ? { _id: { $in: t.workspaceIds } } : t.ownerId ? { "members.userId": t.ownerId } : { _id: { $in: [] as string[] } };
      const found = await database.c.workspaces.find(filter).sort({ createdAt: -1 }).limit(500).toArray();
      return found.filter((ws) => can(principal, ws, "read"));
    }
  }
}

export function workspaceView(ws: WorkspaceDoc, principal: Principal) {
  const role = principal.kind === "user" ? roleOf(ws, principal.user._id) : principal.kind === "token" && principal.token.ownerId ? roleOf(ws, principal.token.ownerId) : null;
  return {
    id: ws._id,
    slug: ws.slug,
    name: ws.name,
    visibility: ws.visibility,
    role,
    can_write: can(principal, ws, "write"),
    can_manage: can(principal, ws, "manage"),
    sandbox: ws.sandbox ? { state: ws.sandbox.state } : null,
    usage: { pages: ws.usage.pages, bytes: ws.usage.bytes },
    created_at: ws.createdAt.toISOString(),
  };
}

/** A new workspace owned by the signed-in person (or the token's owner). */
export async function createWorkspaceFor(database: Database, principal: Principal, input: { slug: string; name: string }): Promise<WorkspaceDoc> {
  const ownerId = principal.kind === "user" ? principal.user._id : principal.kind === "token" ? principal.token.ownerId : null;
  if (principal.kind === "token" && (principal.token.kind === "anonymous" || !principal.token.scopes.includes("mcp:write"))) {
    throw new AppError("forbidden", "This token cannot create workspaces.");
  }
  if (!ownerId) throw new AppError("unauthorized", "Sign in first.");
  const ws = await createWorkspace(database, { slug: input.slug, name: input.name, ownerId });
  await recordEvent(database, { workspaceId: ws._id, type: "workspace.created", actor: actorOf(principal), target: { kind: "workspace", id: ws._id, label: ws.slug } });
  return ws;
}

export async function setVisibility(database: Database, principal: Principal, slug: string, visibility: Visibility): Promise<WorkspaceDoc> {
  const ws = await getReadableWorkspace(database, principal, slug);
  assertCan(principal, ws, "manage");
  if (ws.sandbox?.state === "unclaimed") throw new AppError("forbidden", "An unclaimed sandbox cannot be made public.");
  const t = now();
  await database.c.workspaces.updateOne({ _id: ws._id }, { $set: { visibility, updatedAt: t } });
  await recordEvent(database, { workspaceId: ws._id, type: `workspace.${visibility}`, actor: actorOf(principal), target: { kind: "workspace", id: ws._id, label: ws.slug } });
  return { ...ws, visibility, updatedAt: t };
}

/**
 * Adds a person to a workspace by e-mail (owners only). An address without an account gets
 * an unconfirmed one, confirmed on its first sign-in.
 */
export async function addMemberByEmail(
  database: Database,
  principal: Principal,
  input: { workspace: string; email: string; role: Role },
): Promise<{ userId: string; role: Role }> {
  const ws = await getReadableWorkspace(database, principal, input.workspace);
  assertCan(principal, ws, "manage");
  if (ws.sandbox?.state === "unclaimed") throw new AppError("forbidden", "An unclaimed sandbox cannot have collaborators.");
  const email = input.email.trim().toLowerCase();
  let user = await database.c.users.findOne({ email });
  if (!user) {
    const t = now();
    try {
      await database.c.users.insertOne({ _id: newId("usr"), email, confirmedAt: null, defaultWorkspaceId: null, createdAt: t });
    } catch (err) {
      if ((err as { code?: unknown }).code !== 11000) throw err;
    }
    user = await database.c.users.findOne({ email });
    if (!user) throw new AppError("internal_error", "Could not create the account.");
  }
  const userId = user._id;
  const t = now();
  const changed = await database.c.workspaces.updateOne(
    { _id: ws._id, "members.userId": { $ne: userId } },
    { $push: { members: { userId, role: input.role, addedAt: t } }, $set: { updatedAt: t } },
  );
  if (changed.modifiedCount === 0) {
    if (roleOf(ws, userId) === "owner" && input.role !== "owner" && ws.members.filter((m) => m.role === "owner").length === 1) {
      throw new AppError("forbidden", "A workspace keeps at least one owner.");
    }
    await database.c.workspaces.updateOne({ _id: ws._id, "members.userId": userId }, { $set: { "members.$.role": input.role, updatedAt: t } });
  }
  await recordEvent(database, { workspaceId: ws._id, type: "member.added", actor: actorOf(principal), target: { kind: "member", id: userId, label: email } });
  return { userId, role: input.role };
}

function assertMember(principal: Principal, ws: WorkspaceDoc): void {
  const userId = principal.kind === "user" ? principal.user._id : principal.kind === "token" ? principal.token.ownerId : null;
  if (!userId || roleOf(ws, userId) === null) throw new AppError("forbidden", "Only members of this workspace can see that.");
}

export async function listMembers(database: Database, principal: Principal, slug: string) {
  const ws = await getReadableWorkspace(database, principal, slug);
  assertMember(principal, ws);
  const users = await database.c.users.find({ _id: { $in: ws.members.map((m) => m.userId) } }, { projection: { email: 1, confirmedAt: 1 } }).toArray();
  const byId = new Map(users.map((u) => [u._id, u]));
  return ws.members.map((m) => ({
    user_id: m.userId,
    email: byId.get(m.userId)?.email ?? "(unknown)",
    role: m.role,
    confirmed: Boolean(byId.get(m.userId)?.confirmedAt),
    added_at: m.addedAt.toISOString(),
  }));
}

function ownersAfter(ws: WorkspaceDoc, userId: string, role: Role | null): number {
  return ws.members.filter((m) => (m.userId === userId ? role === "owner" : m.role === "owner")).length;
}

export async function setMemberRole(database: Database, principal: Principal, input: { workspace: string; userId: string; role: Role }): Promise<void> {
  const ws = await getReadableWorkspace(database, principal, input.workspace);
  assertCan(principal, ws, "manage");
  if (roleOf(ws, input.userId) === null) throw new AppError("not_found", "That person is not a member.");
  if (ownersAfter(ws, input.userId, input.role) === 0) throw new AppError("forbidden", "A workspace keeps at least one owner.");
  // Conditional on the member list we checked, so two changes cannot both remove the last owner.
  const r = await database.c.workspaces.updateOne(
    { _id: ws._id, updatedAt: ws.updatedAt },
    { $set: { members: ws.members.map((m) => (m.userId === input.userId ? { ...m, role: input.role } : m)), updatedAt: now() } },
  );
  if (r.modifiedCount !== 1) throw new AppError("conflict", "The members changed meanwhile; try again.");
  await recordEvent(database, { workspaceId: ws._id, type: "member.role_changed", actor: actorOf(principal), target: { kind: "member", id: input.userId, label: input.role } });
}

export async function removeMember(database: Database, principal: Principal, input: { workspace: string; userId: string }): Promise<void> {
  const ws = await getReadableWorkspace(database, principal, input.workspace);
  const self = principal.kind === "user" && principal.user._id === input.userId;
  if (!self) assertCan(principal, ws, "manage");
  if (roleOf(ws, input.userId) === null) throw new AppError("not_found", "That person is not a member.");
  if (ownersAfter(ws, input.userId, null) === 0) throw new AppError("forbidden", "A workspace keeps at least one owner.");
  const r = await database.c.workspaces.updateOne(
    { _id: ws._id, updatedAt: ws.updatedAt },
    { $set: { members: ws.members.filter((m) => m.userId !== input.userId), updatedAt: now() } },
  );
  if (r.modifiedCount !== 1) throw new AppError("conflict", "The members changed meanwhile; try again.");
  await recordEvent(database, { workspaceId: ws._id, type: "member.removed", actor: actorOf(principal), target: { kind: "member", id: input.userId, label: "" } });
}

/** The agents (tokens) that have acted in a workspace or are restricted to it, with whom they act for. */
export async function listAgents(database: Database, principal: Principal, slug: string) {
  const ws = await getReadableWorkspace(database, principal, slug);
  assertMember(principal, ws);
  const recent = await database.c.events
    .find({ workspaceId: ws._id, "actor.kind": "agent" }, { projection: { actor: 1, at: 1 } })
    .sort({ at: -1 })
    .limit(2000)
    .toArray();
  const lastActive = new Map<string, Date>();
  for (const e of recent) if (e.actor.tokenId && !lastActive.has(e.actor.tokenId)) lastActive.set(e.actor.tokenId, e.at);
  const ids = new Set([...lastActive.keys(), ...ws.blockedTokenIds]);
  const tokens = await database.c.tokens
    .find({ $or: [{ _id: { $in: [...ids] } }, { workspaceIds: ws._id }] }, { projection: { hash: 0 } })
    .limit(500)
    .toArray();
  const owners = await database.c.users.find({ _id: { $in: tokens.flatMap((t) => (t.ownerId ? [t.ownerId] : [])) } }, { projection: { email: 1 } }).toArray();
  const emailOf = new Map(owners.map((u) => [u._id, u.email]));
  return tokens
    .map((t) => ({
      token_id: t._id,
      label: t.agentLabel ?? t.label,
      acting_for: t.ownerId ? (emailOf.get(t.ownerId) ?? null) : null,
      last_active_at: lastActive.get(t._id)?.toISOString() ?? null,
      blocked: ws.blockedTokenIds.includes(t._id),
      status: tokenStatus(t),
    }))
    .sort((a, b) => (b.last_active_at ?? "").localeCompare(a.last_active_at ?? ""));
}

/** The owner cuts an agent off this workspace (or lets it back); its next call there is refused. */
export async function setAgentBlocked(database: Database, principal: Principal, input: { workspace: string; tokenId: string; blocked: boolean }): Promise<void> {
  const ws = await getReadableWorkspace(database, principal, input.workspace);
  assertCan(principal, ws, "manage");
  if (principal.kind === "token" && principal.token._id === input.tokenId) throw new AppError("forbidden", "A token cannot cut itself off.");
  await database.c.workspaces.updateOne(
    { _id: ws._id },
    input.blocked ? { $addToSet: { blockedTokenIds: input.tokenId }, $set: { updatedAt: now() } } : { $pull: { blockedTokenIds: input.tokenId }, $set: { updatedAt: now() } },
  );
  await recordEvent(database, { workspaceId: ws._id, type: input.blocked ? "agent.blocked" : "agent.unblocked", actor: actorOf(principal), target: { kind: "token", id: input.tokenId, label: "" } });
}

/** Recent changes in a workspace, newest first, 50 at a time. */
export async function listActivity(database: Database, principal: Principal, input: { workspace: string; cursor?: string }) {
  const ws = await getReadableWorkspace(database, principal, input.workspace);
  assertMember(principal, ws);
  const filter: Record<string, unknown> = { workspaceId: ws._id };
  if (input.cursor) {
    const [atMs, id] = Buffer.from(input.cursor, "base64url").toString("utf8").split("|");
    const at = new Date(Number(atMs));
    if (!id || Number.isNaN(at.getTime())) throw new AppError("invalid_request", "cursor: is not one we gave out");
    filter.$or = [{ at: { $lt: at } }, { at, _id: { $lt: id } }];
  }
  const events = await database.c.events.find(filter).sort({ at: -1, _id: -1 }).limit(51).toArray();
  const page = events.slice(0, 50);
  const last = page[page.length - 1];
  return {
    events: page.map((e) => ({
      id: e._id,
      type: e.type,
      actor: { kind: e.actor.kind, user_id: e.actor.userId, token_id: e.actor.tokenId ?? null, label: e.actor.label },
      target: e.target,
      at: e.at.toISOString(),
    })),
    next_cursor: events.length > 50 && last ? Buffer.from(`${last.at.getTime()}|${last._id}`).toString("base64url") : null,
  };
}
