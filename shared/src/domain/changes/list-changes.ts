// list_changes (and the app's resume): a workspace's changes after a position, in order,
// filtered by what the caller may read now (the one rule in deliver.ts, shared with the live
// streams). Members see every change with who made it; anyone else reading a public workspace
// sees the changes to its content (pages, tables, rows) with no ids of people, and never
// members, share links or agents.
import type { WorkspaceDoc } from "../../db/index";
import type { ChangeView, ChangesView, ListChangesInput } from "../../schemas/changes";
import type { Principal } from "../access";
import type { StoreDeps } from "../deps";
import { readableWorkspace } from "../workspaces";
import { changeFor } from "./deliver";
import { readChanges } from "./feed";

export { changeView, visibleTo } from "./deliver";

const DEFAULT_LIMIT = 100;

export async function listChanges(deps: StoreDeps, principal: Principal, input: ListChangesInput): Promise<ChangesView & { ws: WorkspaceDoc }> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  const limit = input.limit ?? DEFAULT_LIMIT;
  let after = Number(input.cursor ?? 0);
  if (after === 0) after = Math.max(0, ((await deps.database.c.changeHeads.findOne({ _id: ws._id }))?.floor ?? 1) - 1);
  const page = await readChanges(deps, ws._id, after, limit);
  return {
    ws,
    changes: page.changes.map((c) => changeFor(principal, ws, c)).filter((c): c is ChangeView => c !== null),
    next_cursor: String(page.next),
    more: page.next < page.head,
  };
}
