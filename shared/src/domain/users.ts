// Accounts. Atelier is its own identity provider: an account is an e-mail address proven
// with a code. Every account gets its default workspace when it is created (docs/contract.md#resources-and-identifiers).
import type { Database, UserDoc } from "../db/index";
import { translateDbError } from "../errors";
import { newId, sha256 } from "../ids";
import type { UserView } from "../schemas/common";
import { now } from "./clock";
import { createWorkspace } from "./workspaces";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The account for a proven address: created (confirmed) if new, confirmed if not yet. */
export async function findOrCreateConfirmedUser(deps: { database: Database }, rawEmail: string): Promise<UserDoc> {
  const { database } = deps;
  const email = normalizeEmail(rawEmail);
  const t = now();
  let user = await database.c.users.findOne({ email });
  if (!user) {
    const fresh: UserDoc = { _id: newId("usr"), email, confirmedAt: t, defaultWorkspaceId: null, createdAt: t };
    try {
      await database.c.users.insertOne(fresh);
      user = fresh;
    } catch (err) {
      // Someone else created it a moment ago: use theirs.
      user = await database.c.users.findOne({ email });
      if (!user) throw translateDbError(err);
    }
  }
  if (!user.confirmedAt) {
    await database.c.users.updateOne({ _id: user._id, confirmedAt: null }, { $set: { confirmedAt: t } });
    user = { ...user, confirmedAt: t };
  }
  return ensureDefaultWorkspace(deps, user);
}

/** Finishes account creation: the default workspace, with an id derived from the user's. */
export async function ensureDefaultWorkspace(deps: { database: Database }, user: UserDoc): Promise<UserDoc> {
  const { database } = deps;
  if (user.defaultWorkspaceId) return user;
  const id = `ws_${sha256(`default:${user._id}`).slice(0, 22)}`;
  const local = user.email.split("@")[0] ?? "me";
  const base =
    local
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "me";
  for (let attempt = 0; ; attempt++) {
    const slug = `${base}-${newId("ws")
      .slice(3, 9)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "x")}`;
    try {
      await createWorkspace(deps, { id, slug, name: `${local}'s workspace`, ownerId: user._id });
      break;
    } catch (err) {
      if (attempt >= 4) throw err; // slug collisions only; five in a row means something else
    }
  }
  await database.c.users.updateOne({ _id: user._id, defaultWorkspaceId: null }, { $set: { defaultWorkspaceId: id } });
  return { ...user, defaultWorkspaceId: id };
}

export async function userView(deps: { database: Database }, user: UserDoc): Promise<UserView> {
  const { database } = deps;
  const ws = user.defaultWorkspaceId ? await database.c.workspaces.findOne({ _id: user.defaultWorkspaceId }, { projection: { slug: 1 } }) : null;
  return { id: user._id, email: user.email, defaultWorkspace: ws?.slug ?? null };
}
