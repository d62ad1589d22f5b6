// The real MCP SDK client (v2), through nginx's /mcp.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { stack } from "./stack";

/**
 * A connected client. `era` picks the protocol generation: "legacy" is the 2025 initialize
 * handshake (the SDK's default), "modern" pins 2026-07-28 (stateless, server/discover).
 */
export async function mcpClient(credential?: string, base: string = stack.baseUrl, era: "legacy" | "modern" = "legacy"): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: credential ? { headers: { Authorization: `Bearer ${credential}` } } : {},
  });
  const client = new Client({ name: "atelier-e2e", version: "1.0.0" }, era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
  await client.connect(transport);
  return client;
}

export interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: { type: string; text?: string }[];
}

/** Calls a tool and fails on a tool error, returning its structured content. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = (await client.callTool({ name, arguments: args })) as ToolResult;
  if (r.isError) throw new Error(`${name} failed: ${r.content?.map((c) => c.text).join(" ") ?? ""}`);
  return r.structuredContent ?? {};
}

/** A raw JSON-RPC POST to /mcp, to see HTTP statuses. */
export function mcpPost(body: unknown, headers: Record<string, string> = {}, base: string = stack.baseUrl): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
}

export const toolCall = (name: string, args: Record<string, unknown> = {}, id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});
