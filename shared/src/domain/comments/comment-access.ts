// Who may read and write a workspace's comments (docs/comments.md): one rule, used by the
// comments themselves and by the mention mails (which check it again when a mail goes).
import type { WorkspaceDoc } from "../../db/index";
import { hasScope, isHidden, isInsider, type Principal } from "../access";

export type Need = "read" | "write";

/**
 * Whether `principal` may read or write the comments of `ws`: insiders only (a member of any
 * role, an agent acting for one with the scope, a sandbox's own token in its sandbox).
 */
export function mayComment(principal: Principal, ws: WorkspaceDoc, need: Need): boolean {
  if (isHidden(ws) || !isInsider(principal, ws)) return false;
  if (principal.kind === "user") return true;
  if (principal.kind !== "token") return false;
  return need === "read" ? hasScope(principal.token, "mcp:read") || hasScope(principal.token, "mcp:write") : hasScope(principal.token, "mcp:write");
}
