// The agents of a workspace: the tokens (and sign-in grants) that acted in it, are confined
// to it, or were cut off from it — and the owner's switch to cut one off. Only members see
// the list; it names the person an agent acts for only when that person is a member.
import type { TokenDoc, WorkspaceDoc } from "../db/index";
import { AppError } from "../errors";
import type { AgentView } from "../schemas/workspaces";
import { actorOf, assertCan, roleOf, type Principal } from "./access";
import { now } from "./clock";
import type { StoreDeps } from "./deps";
import { recordEvent } from "./events";
import { endLinksOfMaker } from "./share-links";
import { tokenStatus } from "./tokens";
import { forgetWorkspace, readableWorkspace } from "./workspaces";

function assertMember(principal: Principal, ws: WorkspaceDoc): void {
  const userId = principal.kind === "user" ? principal.user._id : principal.kind === "token" ? principal.token.ownerId : null;
  if (!userId || roleOf(ws, userId) === null) throw new AppError("forbidden", "Only members of this workspace can see that.");
}

/** Whether a token belongs in a workspace's agent list (anything else is "no such agent": it does not leak). */
async function belongs(deps: StoreDeps, ws: WorkspaceDoc, t: TokenDoc): Promise<boolean> {
  if (t.workspaceIds?.includes(ws._id) || ws.blockedTokenIds.includes(t._id)) return true;
  if (t.ownerId && roleOf(ws, t.ownerId) !== null) return true;
  return (await deps.database.c.events.findOne({ workspaceId: ws._id, "actor.tokenId": t._id }, { projection: { _id: 1 } })) !== null;
}

export async function listAgents(deps: StoreDeps, principal: Principal, slug: string): Promise<AgentView[]> {
  const { database } = deps;
  const ws = await readableWorkspace(deps, principal, slug);
  assertMember(principal, ws);
  const recent = await database.c.events
    .find({ workspaceId: ws._id, "actor.kind": "agent" }, { projection: { actor: 1, at: 1 } })
    .sort({ at: -1, _id: 1 })
    .limit(2000)
    .toArray();
  const lastActive = new Map<string, Date>();
  for (const e of recent) if (e.actor.tokenId && !lastActive.has(e.actor.tokenId)) lastActive.set(e.actor.tokenId, e.at);
  const ids = [...new Set([...lastActive.keys(), ...ws.blockedTokenIds])];
  const [byId, confined] = await Promise.all([
    database.c.tokens
      .find({ _id: { $in: ids } }, { projection: { hash: 0 } })
      .limit(500)
      .toArray(),
    database.c.tokens
      .find({ workspaceIds: ws._id }, { projection: { hash: 0 } })
      .limit(500)
      .toArray(),
  ]);
  const tokens = [...new Map([...byId, ...confined].map((t) => [t._id, t])).values()];
  // Only members' addresses are shown: a token id alone never reveals who is behind it.
  const memberIds = tokens.flatMap((t) => (t.ownerId && roleOf(ws, t.ownerId) !== null ? [t.ownerId] : []));
  const owners = memberIds.length > 0 ? await database.c.users.find({ _id: { $in: memberIds } }, { projection: { email: 1 } }).toArray() : [];
  const emailOf = new Map(owners.map((u) => [u._id, u.email]));
  return tokens
    .map((t) => ({
      token_id: t._id,
      label: t.agentLabel ?? t.label,
      acting_for: t.ownerId ? (emailOf.get(t.ownerId) ?? null) : null,
      last_active_at: lastActive.get(t._id)?.toISOString() ?? null,
      blocked: ws.blockedTokenIds.includes(t._id),
      status: tokenStatus(t as TokenDoc),
    }))
    .sort((a, b) => (b.last_active_at ?? "").localeCompare(a.last_active_at ?? ""));
}

/** The owner cuts an agent off this workspace (or lets it back); its next call there is refused. */
export async function setAgentBlocked(deps: StoreDeps, principal: Principal, input: { workspace: string; tokenId: string; blocked: boolean }): Promise<void> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  assertCan(principal, ws, "manage");
  if (principal.kind === "token" && principal.token._id === input.tokenId) throw new AppError("forbidden", "A token cannot cut itself off.");
  const token = await deps.database.c.tokens.findOne({ _id: input.tokenId }, { projection: { hash: 0 } });
  if (!token || !(await belongs(deps, ws, token as TokenDoc))) throw new AppError("not_found", "No such agent in this workspace.");
  const t = now();
  await deps.database.c.workspaces.updateOne(
    { _id: ws._id },
    input.blocked
      ? { $addToSet: { blockedTokenIds: input.tokenId }, $set: { updatedAt: t } }
      : { $pull: { blockedTokenIds: input.tokenId }, $set: { updatedAt: t } },
  );
  forgetWorkspace(deps, ws);
  if (input.blocked) await endLinksOfMaker(deps, ws._id, { tokenId: input.tokenId });
  await recordEvent(deps, {
    workspaceId: ws._id,
    type: input.blocked ? "agent.blocked" : "agent.unblocked",
    actor: actorOf(principal),
    target: { kind: "token", id: input.tokenId, label: token.agentLabel ?? token.label },
  });
}
