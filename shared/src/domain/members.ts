// Who belongs to a workspace, with which role. The member list lives in the workspace and
// changes only as a whole, conditionally on `membersVersion`: each change reads the list,
// checks its rules (one membership per person, at least one owner) on the list it will
// write, and writes it only if nobody changed it meanwhile — otherwise it reads again. So
// a person has one membership and a workspace keeps an owner on every supported database.
import type { Member, Role, UserDoc, WorkspaceDoc } from "../db/index";
import { AppError, isDuplicateKey } from "../errors";
import { newId } from "../ids";
import type { MemberView } from "../schemas/workspaces";
import { actorOf, assertCan, roleOf, type Principal } from "./access";
import { now } from "./clock";
import type { Deps, StoreDeps } from "./deps";
import { invitationMail } from "./mail";
import { hit } from "./rate-limits";
import { recordEvent } from "./events";
import { endLinksOfMaker } from "./share-links";
import { normalizeEmail } from "./users";
import { forgetWorkspace, readableWorkspace } from "./workspaces";

const ATTEMPTS = 20;

/**
 * Applies `change` to the member list of `ws` until it lands on the list it was computed
 * from. `change` returns the new list, or throws to refuse.
 */
async function changeMembers(deps: StoreDeps, ws: WorkspaceDoc, change: (members: Member[]) => Member[]): Promise<WorkspaceDoc> {
  let current = ws;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const members = change(current.members);
    if (!members.some((m) => m.role === "owner") && current.ownerId !== null) throw new AppError("forbidden", "A workspace keeps at least one owner.");
    const t = now();
    const r = await deps.database.c.workspaces.updateOne(
      { _id: current._id, membersVersion: current.membersVersion },
      { $set: { members, membersVersion: current.membersVersion + 1, updatedAt: t } },
    );
    if (r.modifiedCount === 1) {
      forgetWorkspace(deps, current);
      return { ...current, members, membersVersion: current.membersVersion + 1, updatedAt: t };
    }
    // Someone changed the list (or the workspace went away): read it again, exactly.
    deps.cache.delete(`ws:${current._id}`);
    const fresh = await deps.database.c.workspaces.findOne({ _id: current._id });
    if (!fresh) throw new AppError("not_found", "No such workspace.");
    current = fresh;
    await new Promise((r) => setTimeout(r, Math.random() * 5 * (attempt + 1)));
  }
  throw new AppError("conflict", "The members are changing too fast; try again.");
}

function assertMember(principal: Principal, ws: WorkspaceDoc): void {
  const userId = principal.kind === "user" ? principal.user._id : principal.kind === "token" ? principal.token.ownerId : null;
  if (!userId || roleOf(ws, userId) === null) throw new AppError("forbidden", "Only members of this workspace can see that.");
}

export async function listMembers(deps: StoreDeps, principal: Principal, slug: string): Promise<MemberView[]> {
  const ws = await readableWorkspace(deps, principal, slug);
  assertMember(principal, ws);
  const users = await deps.database.c.users.find({ _id: { $in: ws.members.map((m) => m.userId) } }, { projection: { email: 1, confirmedAt: 1 } }).toArray();
  const byId = new Map(users.map((u) => [u._id, u]));
  return ws.members.map((m) => ({
    user_id: m.userId,
    email: byId.get(m.userId)?.email ?? "(unknown)",
    role: m.role,
    confirmed: Boolean(byId.get(m.userId)?.confirmedAt),
    added_at: m.addedAt.toISOString(),
  }));
}

/** The account for an address, created unconfirmed when there is none (confirmed on its first sign-in). */
async function accountFor(deps: StoreDeps, email: string): Promise<string> {
  const found = await deps.database.c.users.findOne({ email }, { projection: { _id: 1 } });
  if (found) return found._id;
  try {
    const id = newId("usr");
    await deps.database.c.users.insertOne({ _id: id, email, confirmedAt: null, defaultWorkspaceId: null, createdAt: now() });
    return id;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const again = await deps.database.c.users.findOne({ email }, { projection: { _id: 1 } });
    if (!again) throw new AppError("internal_error", "Could not create the account.");
    return again._id;
  }
}

/**
 * Adds a person to a workspace by e-mail, or sets their role if they are a member already
 * (owners only): one membership per person, the last role given wins. A person new to the
 * workspace is e-mailed an invitation with its link; someone without an account (or who
 * never signed in) is pending until they sign in with that address, which confirms the
 * account the membership already names. The mail is best effort: the membership stands
 * either way and `mailed` says whether it went (it is also skipped past the per-address
 * hourly cap shared with sign-in codes, so nobody can be flooded through invitations).
 */
export async function addMemberByEmail(
  deps: Deps,
  principal: Principal,
  input: { workspace: string; email: string; role: Role },
): Promise<{ userId: string; role: Role; ws: WorkspaceDoc; pending: boolean; mailed: boolean }> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  assertCan(principal, ws, "manage");
  if (ws.sandbox?.state === "unclaimed") throw new AppError("forbidden", "An unclaimed sandbox cannot have collaborators.");
  const email = normalizeEmail(input.email);
  const known = await deps.database.c.users.findOne({ email }, { projection: { _id: 1 } });
  if (!known || !ws.members.some((m) => m.userId === known._id)) await countInvitation(deps, principal, ws);
  const userId = await accountFor(deps, email);
  const t = now();
  const already = ws.members.some((m) => m.userId === userId);
  const next = await changeMembers(deps, ws, (members) =>
    members.some((m) => m.userId === userId)
      ? members.map((m) => (m.userId === userId ? { ...m, role: input.role } : m))
      : [...members, { userId, role: input.role, addedAt: t }],
  );
  await recordEvent(deps, { workspaceId: ws._id, type: "member.added", actor: actorOf(principal), target: { kind: "member", id: userId, label: email } });
  const account = await deps.database.c.users.findOne({ _id: userId }, { projection: { confirmedAt: 1 } });
  const pending = !account?.confirmedAt;
  const mailed = already ? false : await sendInvitation(deps, principal, next, { email, role: input.role, pending });
  return { userId, role: input.role, ws: next, pending, mailed };
}

/**
 * Invitations are mail that someone else makes us send, so they are counted before anything
 * is written: per inviter (a person and their agents together), per workspace, each per hour
 * and per day, and in all per hour. Past any of them the addition is refused (`rate_limited`,
 * with Retry-After) and writes nothing but the counters.
 */
async function countInvitation(deps: Deps, principal: Principal, ws: WorkspaceDoc): Promise<void> {
  const actor = actorOf(principal);
  const inviter = actor.userId ?? actor.tokenId ?? "unknown";
  const c = deps.config;
  const limits = [
    {
      counter: "invites-inviter-h",
      key: inviter,
      max: c.INVITES_PER_INVITER_PER_HOUR,
      windowSeconds: 3600,
      what: "You have invited too many people this hour",
    },
    { counter: "invites-inviter-d", key: inviter, max: c.INVITES_PER_INVITER_PER_DAY, windowSeconds: 86_400, what: "You have invited too many people today" },
    {
      counter: "invites-ws-h",
      key: ws._id,
      max: c.INVITES_PER_WORKSPACE_PER_HOUR,
      windowSeconds: 3600,
      what: "This workspace has invited too many people this hour",
    },
    {
      counter: "invites-ws-d",
      key: ws._id,
      max: c.INVITES_PER_WORKSPACE_PER_DAY,
      windowSeconds: 86_400,
      what: "This workspace has invited too many people today",
    },
    { counter: "invites-all-h", key: "all", max: c.INVITES_GLOBAL_PER_HOUR, windowSeconds: 3600, what: "Atelier is sending too many invitations right now" },
  ];
  for (const { what, ...limit } of limits) await hit(deps, limit, `${what}; try again later. Nobody was added.`);
}

async function sendInvitation(deps: Deps, principal: Principal, ws: WorkspaceDoc, input: { email: string; role: Role; pending: boolean }): Promise<boolean> {
  const workspacePath = `/buckets/${ws.slug}`;
  const link = input.pending ? `${deps.config.BASE_URL}/app/sign-in?next=${encodeURIComponent(workspacePath)}` : `${deps.config.BASE_URL}/app${workspacePath}`;
  const actor = actorOf(principal);
  try {
    // The address an invitation names is always one that signed in (so it is verified): the person's own, or the agent's person's.
    const inviter = actor.userId ? await deps.database.c.users.findOne({ _id: actor.userId }, { projection: { email: 1 } }) : null;
    if (!inviter) return false;
    await hit(deps, { counter: "invite-email", key: input.email, max: deps.config.OTP_SENDS_PER_EMAIL_PER_HOUR, windowSeconds: 3600 });
    await deps.mailer.send(
      invitationMail({
        to: input.email,
        inviterEmail: inviter.email,
        agentLabel: actor.kind === "agent" ? actor.label : null,
        workspaceName: ws.name,
        role: input.role,
        link,
        hasAccount: !input.pending,
      }),
    );
    return true;
  } catch {
    return false;
  }
}

export async function setMemberRole(deps: StoreDeps, principal: Principal, input: { workspace: string; userId: string; role: Role }): Promise<void> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  assertCan(principal, ws, "manage");
  await changeMembers(deps, ws, (members) => {
    if (!members.some((m) => m.userId === input.userId)) throw new AppError("not_found", "That person is not a member.");
    return members.map((m) => (m.userId === input.userId ? { ...m, role: input.role } : m));
  });
  if (input.role !== "owner") await endLinksOfMaker(deps, ws._id, { userId: input.userId });
  await recordEvent(deps, {
    workspaceId: ws._id,
    type: "member.role_changed",
    actor: actorOf(principal),
    target: { kind: "member", id: input.userId, label: input.role },
  });
}

/**
 * Removes a member (owners), or lets a member leave. Withdrawing a pending invitation is the
 * same: and an account that never signed in and belongs nowhere any more is forgotten (it
 * held only the address).
 */
export async function removeMember(deps: StoreDeps, principal: Principal, input: { workspace: string; userId: string }): Promise<void> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  const self = principal.kind === "user" && principal.user._id === input.userId;
  if (!self) assertCan(principal, ws, "manage");
  await changeMembers(deps, ws, (members) => {
    if (!members.some((m) => m.userId === input.userId)) throw new AppError("not_found", "That person is not a member.");
    return members.filter((m) => m.userId !== input.userId);
  });
  await endLinksOfMaker(deps, ws._id, { userId: input.userId });
  const user = await deps.database.c.users.findOne({ _id: input.userId }, { projection: { email: 1, confirmedAt: 1 } });
  const withdrawn = user !== null && !user.confirmedAt;
  await recordEvent(deps, {
    workspaceId: ws._id,
    type: withdrawn ? "member.invitation_withdrawn" : "member.removed",
    actor: actorOf(principal),
    target: { kind: "member", id: input.userId, label: withdrawn ? user.email : "" },
  });
  if (withdrawn) await forgetUnusedAccount(deps, user);
}

/** Deletes an account that never signed in and is a member nowhere; puts it back if an invitation raced in. */
async function forgetUnusedAccount(deps: StoreDeps, user: Pick<UserDoc, "_id" | "email">): Promise<void> {
  const { database } = deps;
  if (await database.c.workspaces.findOne({ "members.userId": user._id }, { projection: { _id: 1 } })) return;
  const gone = await database.c.users.findOneAndDelete({ _id: user._id, confirmedAt: null, defaultWorkspaceId: null });
  if (!gone) return;
  if (await database.c.workspaces.findOne({ "members.userId": user._id }, { projection: { _id: 1 } })) {
    await database.c.users.insertOne(gone).catch(() => undefined);
  }
}
