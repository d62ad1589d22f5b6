// One /mcp request's scope: who is asking, what they may call, which protocol generation the
// request speaks, and the failure (if any) that the error table answers at the HTTP level.
// The endpoint builds it before the SDK sees the request (mcp-endpoint.ts) and hands it to
// the per-request server (mcp-server.ts); nothing travels through the SDK's auth data.
import { mcpToolAccess, type Principal } from "@atelier/shared/domain/access";
import { AppError } from "@atelier/shared/errors";
import type { ToolAccess } from "./tools/define";

/** The protocol generation of one request: `legacy` is 2024-11-05 … 2025-11-25, `modern` 2026-07-28. */
export type Era = "legacy" | "modern";

/** What the endpoint decided about the caller, before the request is routed to a generation. */
export interface McpCaller {
  readonly principal: Principal;
  /** The kinds of tools this caller may call (its limits: a sandbox token is not an owner). */
  readonly allowed: ReadonlySet<ToolAccess>;
}

export interface McpRequestScope extends McpCaller {
  readonly era: Era;
  /**
   * The first error a handler met that the error table answers at the HTTP level (the
   * database unreachable, a throttle): the endpoint answers the whole request with it (503
   * with Retry-After, 429), so clients see the status they retry on rather than a 200
   * carrying a tool error.
   */
  failure: AppError | null;
}

export function callerOf(principal: Principal): McpCaller {
  return { principal, allowed: mcpToolAccess(principal) };
}

export function requestScope(caller: McpCaller, era: Era): McpRequestScope {
  return { ...caller, era, failure: null };
}

/** Notes a domain error the table answers at the HTTP level, keeping the first. */
export function noteHttpLevel(scope: McpRequestScope, err: unknown): void {
  if (err instanceof AppError && err.rule.mcp === "http") scope.failure ??= err;
}
