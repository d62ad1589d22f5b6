// Workspaces (buckets) and their default collection.
import type { Database, Role, SandboxInfo, Visibility, WorkspaceDoc } from "../db/index";
import { AppError, translateDbError } from "../errors";
import { newId } from "../ids";
import { now } from "./clock";

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
