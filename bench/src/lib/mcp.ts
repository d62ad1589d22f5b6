// The client side of the MCP benchmarks: the HTTP request an MCP client sends to a stateless
// Streamable HTTP server, a one-off call for checks and cursor paging, the SDK the sidecar
// uses (for the no-op floor server), and an agent seeded through the shared domain.
import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import type { Config } from "@atelier/shared/config";
import type { Database, UserDoc } from "@atelier/shared/db";
import { NO_CACHE } from "@atelier/shared/domain/cache";
import { createUserToken } from "@atelier/shared/domain/tokens";
import { findOrCreateConfirmedUser } from "@atelier/shared/domain/users";
import { REPO_ROOT } from "@atelier/shared/devtools/embedded-db";
import type { WrkRequest } from "./wrk";

/**
 * What the SDK's stateless transport (enableJsonResponse, no session id) accepts, checked by
 * hand: a POST with `Content-Type: application/json` (else 415) and an Accept naming both
 * application/json and text/event-stream (else 406). No initialize is needed, and no
 * Mcp-Session-Id; Mcp-Protocol-Version may be left out (an unsupported one is a 400).
 */
export const MCP_HEADERS: Record<string, string> = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};

/**
 * Body substrings that make a 200 answer an error: a tool error result, or a JSON-RPC
 * error. Inside a tool's text content quotes are escaped (\"), so a page's own text never
 * matches.
 */
export const MCP_ERROR_MARKERS = ['"isError":true', '"error":{"code":'];

export function jsonRpc(method: string, params?: unknown, id = 1): string {
  return JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
}

export function toolCall(name: string, args: Record<string, unknown>, id = 1): string {
  return jsonRpc("tools/call", { name, arguments: args }, id);
}

export function mcpRequest(body: string, token: string | null): WrkRequest {
  return { method: "POST", headers: token ? { ...MCP_HEADERS, Authorization: `Bearer ${token}` } : { ...MCP_HEADERS }, body };
}

export interface McpAnswer {
  status: number;
  contentType: string | null;
  bytes: number;
  ms: number;
  json: unknown;
}

/** One POST /mcp, as wrk sends it. */
export async function postMcp(url: string, req: WrkRequest): Promise<McpAnswer> {
  const t0 = performance.now();
  const res = await fetch(url, { method: req.method, headers: req.headers, body: req.body, signal: AbortSignal.timeout(30_000) });
  const buf = Buffer.from(await res.arrayBuffer());
  const ms = performance.now() - t0;
  let json: unknown;
  try {
    json = buf.length > 0 ? JSON.parse(buf.toString("utf8")) : null;
  } catch {
    json = buf.toString("utf8").slice(0, 200);
  }
  return { status: res.status, contentType: res.headers.get("content-type"), bytes: buf.length, ms, json };
}

/** The structuredContent of a successful tools/call answer; throws with the answer otherwise. */
export function toolResult<T>(a: McpAnswer, what: string): T {
  const r = (a.json as { result?: { isError?: boolean; structuredContent?: T } } | null)?.result;
  if (a.status !== 200 || !r || r.isError || r.structuredContent === undefined) {
    throw new Error(`${what} answered ${a.status} ${a.contentType}: ${JSON.stringify(a.json).slice(0, 500)}`);
  }
  return r.structuredContent;
}

/** The SDK package the sidecar resolves (and bundles), with its version. */
export function sidecarSdk(): { dir: string; version: string } {
  const dir = realpathSync(path.join(REPO_ROOT, "mcp-sidecar/node_modules/@modelcontextprotocol/sdk"));
  const { version } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string };
  return { dir, version };
}

/** A confirmed person (with their private default workspace) and an MCP token of theirs, made through the shared domain. */
export async function seedAgent(database: Database, config: Config): Promise<{ user: UserDoc; token: string; tokenId: string }> {
  const user = await findOrCreateConfirmedUser({ database }, "bench@atelier.localhost");
  const { token, credential } = await createUserToken({ database, config, cache: NO_CACHE }, user, { label: "bench agent", scopes: ["mcp:read", "mcp:write"] });
  return { user, token: credential, tokenId: token._id };
}
