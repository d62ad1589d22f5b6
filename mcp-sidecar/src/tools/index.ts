import type { Principal } from "@atelier/shared/domain/access";
import { mcpToolAccess } from "@atelier/shared/domain/access";
import { toolIcons } from "@atelier/shared/domain/server-card";
import { listing, type ToolAccess, type ToolDef } from "./define";
import { createShareLink } from "./create-share-link";
import { listPages } from "./list-pages";
import { getPage } from "./get-page";
import { searchPages } from "./search-pages";
import { getPageHistory } from "./get-page-history";
import { getPageStats } from "./get-page-stats";
import { createPage } from "./create-page";
import { updatePage } from "./update-page";
import { deletePage } from "./delete-page";
import { createCollection } from "./create-collection";
import { listCollections } from "./list-collections";
import { listRows } from "./list-rows";
import { insertRows } from "./insert-rows";
import { updateRow } from "./update-row";
import { deleteRow } from "./delete-row";
import { listWorkspaces } from "./list-workspaces";
import { getWorkspace } from "./get-workspace";
import { createWorkspace } from "./create-workspace";
import { setWorkspaceVisibility } from "./set-workspace-visibility";
import { addCollaborator } from "./add-collaborator";
import { whoami } from "./whoami";
import { editPage } from "./edit-page";
import { diffPageVersions } from "./diff-page-versions";
import { movePage } from "./move-page";
import { changeTable } from "./change-table";
import { listChanges } from "./list-changes";
import { exportWorkspace } from "./export-workspace";
import { importWorkspace } from "./import-workspace";
import { pushImage } from "./push-image";
import { createUploadUrl } from "./create-upload-url";
import { finishUpload } from "./finish-upload";
import { listFiles } from "./list-files";
import { deleteFile } from "./delete-file";
import { listComments } from "./list-comments";
import { addComment } from "./add-comment";
import { resolveComment } from "./resolve-comment";
import { addWebhook } from "./add-webhook";
import { listWebhooks } from "./list-webhooks";
import { removeWebhook } from "./remove-webhook";

export const TOOLS: readonly ToolDef[] = [
  whoami,
  listWorkspaces,
  getWorkspace,
  listPages,
  getPage,
  searchPages,
  getPageHistory,
  getPageStats,
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
  editPage,
  diffPageVersions,
  movePage,
  changeTable,
  listChanges,
  exportWorkspace,
  importWorkspace,
  pushImage,
  createUploadUrl,
  finishUpload,
  listFiles,
  deleteFile,
  listComments,
  addComment,
  resolveComment,
  addWebhook,
  listWebhooks,
  removeWebhook,
] as unknown as ToolDef[];

const BY_NAME = new Map<string, ToolDef>(TOOLS.map((t) => [t.name, t]));

export function findTool(name: string): ToolDef | undefined {
  return BY_NAME.get(name);
}

// Built once per process: the tools/list answers, one per kind of caller.
type Listing = ReturnType<typeof listing>;
const LISTINGS = new Map(TOOLS.map((t) => [t.name, listing(t)]));
const cache = new Map<string, { tools: Listing[] }>();

/** What a tool that writes says to a caller without a token (lazy sign-in, docs/contract.md#mcp-tools). */
export const SIGN_IN_NOTE = "Needs sign-in: called without a token, it answers 401 and your client signs in (or send a token with mcp:write).";

/**
 * The tools/list answer for a caller. Without a token: every tool, the ones that write
 * saying that they need sign-in, so that a client can call one and get the 401 that starts
 * its sign-in. With a token: the tools its scopes allow (an unclaimed sandbox never sees the
 * owners' tools).
 */
export function toolsListFor(principal: Principal, baseUrl: string): { tools: Listing[] } {
  const signedIn = principal.kind !== "nobody";
  const allowed: ReadonlySet<ToolAccess> = signedIn ? mcpToolAccess(principal) : new Set<ToolAccess>(["read", "write", "admin"]);
  const key = `${baseUrl} ${signedIn ? "token" : "nobody"}:${[...allowed].sort().join(",")}`;
  let hit = cache.get(key);
  if (!hit) {
    const tools = TOOLS.filter((t) => allowed.has(t.access)).flatMap((t) => {
      const found = LISTINGS.get(t.name);
      if (!found) return [];
      const l = { ...found, icons: toolIcons(baseUrl, t.name) };
      return signedIn || t.access === "read" ? [l] : [{ ...l, description: `${l.description} ${SIGN_IN_NOTE}` }];
    });
    hit = { tools };
    cache.set(key, hit);
  }
  return hit;
}
