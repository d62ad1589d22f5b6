import { listing, type ToolAccess, type ToolDef } from "./define";
import { createPage, deletePage, getPage, getPageHistory, listPages, searchPages, updatePage } from "./pages";
import { createShareLink } from "./share-links";
import { createCollection, deleteRow, insertRows, listCollections, listRows, updateRow } from "./tables";
import { whoami } from "./whoami";
import { addCollaborator, createWorkspace, getWorkspace, listWorkspaces, setWorkspaceVisibility } from "./workspaces";

export const TOOLS: readonly ToolDef[] = [
  whoami,
  listWorkspaces,
  getWorkspace,
  listPages,
  getPage,
  searchPages,
  getPageHistory,
  createPage,
  updatePage,
  deletePage,
  listCollections,
  listRows,
  createCollection,
  insertRows,
  updateRow,
  deleteRow,
  createWorkspace,
  setWorkspaceVisibility,
  addCollaborator,
  createShareLink,
] as unknown as ToolDef[];

const BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));

export function findTool(name: string): ToolDef | undefined {
  return BY_NAME.get(name);
}

// Built once per process: the tools/list answers for each set of allowed access levels.
const LISTINGS = new Map(TOOLS.map((t) => [t.name, listing(t)]));
const cache = new Map<string, { tools: ReturnType<typeof listing>[] }>();

export function toolsListFor(allowed: ReadonlySet<ToolAccess>): { tools: ReturnType<typeof listing>[] } {
  const key = [...allowed].sort().join(",");
  let hit = cache.get(key);
  if (!hit) {
    hit = { tools: TOOLS.filter((t) => allowed.has(t.access)).flatMap((t) => LISTINGS.get(t.name) ?? []) };
    cache.set(key, hit);
  }
  return hit;
}
