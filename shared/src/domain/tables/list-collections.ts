import type { TableView } from "../../schemas/tables";
import type { Principal } from "../access";
import type { StoreDeps } from "../deps";
import { resolveWorkspaceForWrite } from "../workspaces";
import { tableView } from "./table-view";

/** The collections of a workspace (the caller's default one when none is named). */
export async function listCollections(deps: StoreDeps, principal: Principal, workspace: string | undefined): Promise<TableView[]> {
  const ws = await resolveWorkspaceForWrite(deps, principal, workspace);
  return (await deps.database.c.collections.find({ workspaceId: ws._id }).sort({ slug: 1 }).limit(500).toArray()).map(tableView);
}
