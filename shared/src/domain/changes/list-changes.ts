// list_changes (and the app's resume): a workspace's changes after a position, in order,
// filtered by what the caller may read now. Members see every change with who made it;
// anyone else reading a public workspace sees the changes to its content (pages, tables,
// rows) with no ids of people, and never members, share links or agents.
import type { ChangeDoc, WorkspaceDoc } from "../../db/index";
import type { ChangeView, ChangesView, ListChangesInput } from "../../schemas/changes";
import { isInsider, type Principal } from "../access";
import type { StoreDeps } from "../deps";
import { readableWorkspace } from "../workspaces";
import { readChanges } from "./feed";

const DEFAULT_LIMIT = 100;
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

export async function listChanges(deps: StoreDeps, principal: Principal, input: ListChangesInput): Promise<ChangesView & { ws: WorkspaceDoc }> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  const insider = isInsider(principal, ws);
  const limit = input.limit ?? DEFAULT_LIMIT;
  let after = Number(input.cursor ?? 0);
  if (after === 0) after = Math.max(0, ((await deps.database.c.changeHeads.findOne({ _id: ws._id }))?.floor ?? 1) - 1);
  const page = await readChanges(deps, ws._id, after, limit);
  return {
    ws,
    changes: page.changes.filter((c) => visibleTo(c, insider)).map((c) => changeView(c, insider)),
    next_cursor: String(page.next),
    more: page.next < page.head,
  };
}
