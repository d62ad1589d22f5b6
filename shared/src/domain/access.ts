// The one access function (docs/ARCHITECTURE.md#who-may-do-what). Every adapter asks it; none decides on its own.
import type { Actor, Role, Scope, TokenDoc, UserDoc, WorkspaceDoc } from "../db/index";
import { AppError } from "../errors";
import type { ActorView } from "../schemas/common";

/** Who is asking: a signed-in person, an agent's token, or nobody. */
export type Principal = { kind: "nobody" } | { kind: "user"; user: UserDoc } | { kind: "token"; token: TokenDoc };

/**
 * read: see the workspace and its pages. write: create, edit, delete content.
 * manage: visibility, members, share links, cutting agents off (owners only).
 */
export type Action = "read" | "write" | "manage";

type AccessWorkspace = Pick<WorkspaceDoc, "_id" | "visibility" | "members" | "sandbox" | "blockedTokenIds" | "ownerId" | "deletingAt">;

/** Nobody may open it: an expired sandbox, or a workspace being deleted. */
export function isHidden(ws: Pick<WorkspaceDoc, "sandbox" | "deletingAt">): boolean {
  if (ws.deletingAt) return true;
  return ws.sandbox !== null && (ws.sandbox.hiddenAt !== null || ws.sandbox.state === "expired");
}

function memberRole(ws: Pick<WorkspaceDoc, "members">, userId: string | null): Role | null {
  if (!userId) return null;
  return ws.members.find((m) => m.userId === userId)?.role ?? null;
}

/** A person's role in a workspace, or null when they are not a member. */
export function roleOf(ws: Pick<WorkspaceDoc, "members">, userId: string): Role | null {
  return memberRole(ws, userId);
}

const ROLE_ALLOWS: Record<Role, Record<Action, boolean>> = {
  owner: { read: true, write: true, manage: true },
  editor: { read: true, write: true, manage: false },
  viewer: { read: true, write: false, manage: false },
};

export function hasScope(token: Pick<TokenDoc, "scopes">, scope: Scope): boolean {
  return token.scopes.includes(scope);
}

/** The role a token acts with in a workspace before its scopes are applied, or null. */
function tokenRole(token: TokenDoc, ws: AccessWorkspace): Role | null {
  if (token.workspaceIds !== null && !token.workspaceIds.includes(ws._id)) return null;
  if (ws.blockedTokenIds.includes(token._id)) return null;
  // A sandbox's own token (confined to it) authors there while the sandbox is unclaimed, and
  // acts for its claimer afterwards. Judged from either document, so a process that has seen
  // only one side of a claim yet (either may come from its cache) decides as before or as
  // after the claim, never refusing what both allow.
  const ownSandbox = (token.kind === "anonymous" || token.kind === "claimed_anonymous") && ws.sandbox !== null && token.workspaceIds?.includes(ws._id) === true;
  if (ownSandbox) {
    if (ws.sandbox?.state === "unclaimed" && ws.ownerId === null) return "editor";
    if (ws.sandbox?.state === "claimed") return memberRole(ws, token.ownerId ?? ws.ownerId);
    return null;
  }
  if (token.kind === "anonymous") return null;
  return memberRole(ws, token.ownerId);
}

/** Whether `principal` may do `action` in `ws`. */
export function can(principal: Principal, ws: AccessWorkspace, action: Action): boolean {
  if (isHidden(ws)) return false;
  if (action === "read" && ws.visibility === "public") return true;
  switch (principal.kind) {
    case "nobody":
      return false;
    case "user": {
      const role = memberRole(ws, principal.user._id);
      return role !== null && ROLE_ALLOWS[role][action];
    }
    case "token": {
      const role = tokenRole(principal.token, ws);
      if (role === null || !ROLE_ALLOWS[role][action]) return false;
      if (action === "read") return hasScope(principal.token, "mcp:read") || hasScope(principal.token, "mcp:write");
      if (action === "manage" && principal.token.kind === "anonymous") return false;
      return hasScope(principal.token, "mcp:write");
    }
  }
}

/**
 * Whether `principal` may see a workspace's reading figures (issue 32): its owners and
 * editors, in person or through their agents (a token with a read scope is enough: the
 * figures are read, never changed). Viewers and outsiders of a public workspace may not.
 */
export function canSeeStats(principal: Principal, ws: AccessWorkspace): boolean {
  if (isHidden(ws)) return false;
  const role =
    principal.kind === "user"
      ? memberRole(ws, principal.user._id)
      : principal.kind === "token" && (hasScope(principal.token, "mcp:read") || hasScope(principal.token, "mcp:write"))
        ? tokenRole(principal.token, ws)
        : null;
  return role === "owner" || role === "editor";
}

/**
 * Throws unless allowed. Someone who may not read gets `not_found`, the same answer as for
 * a workspace that does not exist, so existence does not leak; a reader who may not change
 * gets `forbidden`.
 */
export function assertCan(principal: Principal, ws: AccessWorkspace, action: Action, what = "workspace"): void {
  if (can(principal, ws, action)) return;
  if (!can(principal, ws, "read")) throw notReadable(principal, ws, what);
  if (action === "manage" && principal.kind === "token" && principal.token.kind === "anonymous") {
    throw new AppError("forbidden", "An unclaimed sandbox token cannot publish, share or add collaborators; a person must claim the sandbox first.");
  }
  throw new AppError("forbidden", action === "manage" ? "Only the workspace owner can do that." : "You can read this workspace but not change it.");
}

/**
 * The refusal for a workspace the principal cannot read: `not_found`, except for a token
 * whose owner is a member (the owner already knows it exists): then `forbidden`, saying why.
 */
export function notReadable(principal: Principal, ws: AccessWorkspace, what = "workspace"): AppError {
  if (principal.kind === "token" && !isHidden(ws) && memberRole(ws, principal.token.ownerId) !== null) {
    return new AppError(
      "forbidden",
      ws.blockedTokenIds.includes(principal.token._id)
        ? "The workspace owner has cut this agent off that workspace."
        : "This token is not allowed in that workspace.",
    );
  }
  return new AppError("not_found", `No such ${what}.`);
}

/** The actor a write is recorded under: a person, or an agent acting for a person (or for nobody yet). */
export function actorOf(principal: Principal): Actor {
  switch (principal.kind) {
    case "user":
      return { kind: "user", userId: principal.user._id, label: principal.user.email };
    case "token":
      return {
        kind: "agent",
        userId: principal.token.ownerId,
        tokenId: principal.token._id,
        label: principal.token.agentLabel ?? principal.token.label,
      };
    case "nobody":
      throw new AppError("unauthorized", "Sign in first.");
  }
}

/** What kind of MCP tools a principal may see and call (docs/contract.md#mcp-tools). */
export function mcpToolAccess(principal: Principal): Set<"read" | "write" | "admin"> {
  if (principal.kind !== "token") return new Set(["read"]);
  const t = principal.token;
  const out = new Set<"read" | "write" | "admin">();
  if (hasScope(t, "mcp:read") || hasScope(t, "mcp:write")) out.add("read");
  if (hasScope(t, "mcp:write")) {
    out.add("write");
    if (t.kind !== "anonymous") out.add("admin");
  }
  return out;
}

/** The scope that grants a kind of tool, for WWW-Authenticate answers. */
export function scopeFor(access: "read" | "write" | "admin"): Scope {
  return access === "read" ? "mcp:read" : "mcp:write";
}

/**
 * Whether the principal belongs to the workspace (a member, a token acting for one, or a
 * sandbox's own token). Non-members reading a public workspace do not see who people are.
 */
export function isInsider(principal: Principal, ws: AccessWorkspace): boolean {
  if (principal.kind === "user") return memberRole(ws, principal.user._id) !== null;
  if (principal.kind === "token") return tokenRole(principal.token, ws) !== null;
  return false;
}

/** Who is reading, as far as attribution goes. */
export interface Reader {
  /** A member (or an agent of one): sees who people are. */
  insider: boolean;
  /** The workspace is an unclaimed sandbox: its own agent acts for nobody yet. */
  unclaimedSandbox: boolean;
}

export function readerIn(principal: Principal, ws: AccessWorkspace): Reader {
  return { insider: isInsider(principal, ws), unclaimedSandbox: ws.sandbox !== null && ws.sandbox.state === "unclaimed" && ws.ownerId === null };
}

/** An agent's label as outsiders see it: the label, unless it carries an e-mail address. */
function publicAgentLabel(label: string): string {
  return /\S@\S/.test(label) || label.trim() === "" ? "An agent" : label;
}

/**
 * An actor as a reader sees it. Members see who (the person, or the agent and the person it
 * acts for); outsiders see people as "A workspace member" and an agent by its label, with
 * no ids and `withheld` set: nothing that identifies a person (the ids would let them look
 * further). `unclaimed` is true only for the agent of a sandbox nobody has claimed yet, so
 * no reader mistakes a person's agent for an anonymous one.
 */
export function actorForReader(a: Actor, reader: Reader): ActorView {
  const unclaimed = a.kind === "agent" && a.userId === null && reader.unclaimedSandbox;
  if (reader.insider) return { kind: a.kind, user_id: a.userId, token_id: a.tokenId ?? null, label: a.label, withheld: false, unclaimed };
  if (a.kind === "agent") return { kind: "agent", user_id: null, token_id: null, label: publicAgentLabel(a.label), withheld: true, unclaimed };
  return { kind: "user", user_id: null, token_id: null, label: "A workspace member", withheld: true, unclaimed: false };
}
