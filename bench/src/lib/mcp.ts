// The client side of the MCP benchmarks: the HTTP request an MCP client sends to a stateless
// Streamable HTTP server, a one-off call for checks and cursor paging, the SDK the sidecar
// uses (for the no-op floor server), and an agent seeded through the shared domain.
import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import type { Config } from "@atelier/shared/config";
import type { Database, UserDoc } from "@atelier/shared/db";
import type { Principal } from "@atelier/shared/domain/access";
import { NO_CACHE } from "@atelier/shared/domain/cache";
import { createPage } from "@atelier/shared/domain/pages/create-page";
import { createUserToken } from "@atelier/shared/domain/tokens";
import { findOrCreateConfirmedUser } from "@atelier/shared/domain/users";
import { createWorkspaceFor, setVisibility } from "@atelier/shared/domain/workspaces";
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

/** One POST /mcp, as wrk sends it. An SSE answer (the SDK's default for 2025-era requests) is read as its one JSON-RPC message. */
export async function postMcp(url: string, req: WrkRequest): Promise<McpAnswer> {
  const t0 = performance.now();
  const res = await fetch(url, { method: req.method, headers: req.headers, body: req.body, signal: AbortSignal.timeout(30_000) });
  const buf = Buffer.from(await res.arrayBuffer());
  const ms = performance.now() - t0;
  const text = buf.toString("utf8");
  const contentType = res.headers.get("content-type");
  const payload = contentType?.includes("text/event-stream") ? (/^data: (.*)$/m.exec(text)?.[1] ?? "") : text;
  let json: unknown;
  try {
    json = payload.length > 0 ? JSON.parse(payload) : null;
  } catch {
    json = text.slice(0, 200);
  }
  return { status: res.status, contentType, bytes: buf.length, ms, json };
}

/** The `_meta` envelope and the standard headers of a 2026-07-28 request (no initialize, every request stands alone). */
export function modernRequest(method: string, params: Record<string, unknown>, token: string | null, id = 1): WrkRequest {
  const name = typeof params.name === "string" ? params.name : undefined;
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id,
    method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  });
  const headers: Record<string, string> = { ...MCP_HEADERS, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, ...(name ? { "Mcp-Name": name } : {}) };
  if (token) headers.Authorization = `Bearer ${token}`;
  return { method: "POST", headers, body };
}

/** The structuredContent of a successful tools/call answer; throws with the answer otherwise. */
export function toolResult<T>(a: McpAnswer, what: string): T {
  const r = (a.json as { result?: { isError?: boolean; structuredContent?: T } } | null)?.result;
  if (a.status !== 200 || !r || r.isError || r.structuredContent === undefined) {
    throw new Error(`${what} answered ${a.status} ${a.contentType}: ${JSON.stringify(a.json).slice(0, 500)}`);
  }
  return r.structuredContent;
}

/** The SDK v2 packages the sidecar resolves (and bundles): the server package and its node adapter, with the server's version. */
export function sidecarSdk(): { serverDir: string; nodeDir: string; version: string } {
  const serverDir = realpathSync(path.join(REPO_ROOT, "mcp-sidecar/node_modules/@modelcontextprotocol/server"));
  const nodeDir = realpathSync(path.join(REPO_ROOT, "mcp-sidecar/node_modules/@modelcontextprotocol/node"));
  const { version } = JSON.parse(readFileSync(path.join(serverDir, "package.json"), "utf8")) as { version: string };
  return { serverDir, nodeDir, version };
}

/** A confirmed person (with their private default workspace) and an MCP token of theirs, made through the shared domain. */
export async function seedAgent(database: Database, config: Config): Promise<{ user: UserDoc; token: string; tokenId: string }> {
  const user = await findOrCreateConfirmedUser({ database }, "bench@atelier.localhost");
  const { token, credential } = await createUserToken({ database, config, cache: NO_CACHE }, user, { label: "bench agent", scopes: ["mcp:read", "mcp:write"] });
  return { user, token: credential, tokenId: token._id };
}

/**
 * The bench person (seedAgent) with a public workspace `workspace` holding one page: what a
 * bench of public reads or live pages starts from. Returns the page's id and the person.
 */
export async function seedPublicPage(
  database: Database,
  config: Config,
  page: { workspace: string; slug: string; title: string; body_markdown: string },
): Promise<{ pageId: string; owner: Principal & { kind: "user" } }> {
  const deps = { database, config, cache: NO_CACHE };
  const { user } = await seedAgent(database, config);
  const owner = { kind: "user" as const, user };
  await createWorkspaceFor(deps, owner, { slug: page.workspace, name: page.workspace });
  await setVisibility(deps, owner, page.workspace, "public");
  const created = await createPage(deps, owner, page);
  return { pageId: created.page.page_id, owner };
}
