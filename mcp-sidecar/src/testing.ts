// A whole sidecar for tests: the real app on a loopback port, a fresh real database, and
// helpers to make people and tokens through the real domain services.
import { findOrCreateConfirmedUser } from "@atelier/shared/domain/users";
import { createUserToken } from "@atelier/shared/domain/tokens";
import type { Server } from "node:http";
import { freePort } from "@atelier/shared/devtools/embedded-db";
import { keepAliveLongerThanPeers } from "@atelier/shared/process";
import { capturingLogger, testDatabase, testDeps, type TestDatabase, type TestDeps } from "@atelier/shared/testing";
import type { Config } from "@atelier/shared/config";
import type { Scope, UserDoc } from "@atelier/shared/db";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createSidecarApp } from "./app";

export interface TestSidecar {
  url: string;
  config: Config;
  database: TestDatabase;
  /** Domain deps on the same database (for seeding through the real domain, as another process would). */
  deps: TestDeps<TestDatabase>;
  logLines: string[];
  close(): Promise<void>;
}

export async function startTestSidecar(env: Record<string, string> = {}, label = "mcp"): Promise<TestSidecar> {
  const database = await testDatabase(label);
  const { logger, lines } = capturingLogger("debug");
  // BASE_URL is the sidecar itself, so Origin checks and metadata URLs line up.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const deps = testDeps(database, { BASE_URL: url, ...env });
  const { config } = deps;
  const app = createSidecarApp({ ...testDeps(database, { BASE_URL: url, ...env }), logger });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(port, "127.0.0.1", () => resolve(keepAliveLongerThanPeers(s)));
  });
  return {
    url,
    config,
    database,
    deps,
    logLines: lines,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await database.drop();
    },
  };
}

export async function makeUser(sc: TestSidecar, email: string): Promise<UserDoc> {
  return findOrCreateConfirmedUser(sc.deps, email);
}

export async function makeToken(
  sc: TestSidecar,
  user: UserDoc,
  opts: { scopes?: Scope[]; label?: string; workspaces?: string[]; expiresInDays?: number } = {},
): Promise<{ tokenId: string; credential: string }> {
  const { token, credential } = await createUserToken(sc.deps, user, {
    label: opts.label ?? "test agent",
    scopes: opts.scopes ?? ["mcp:read", "mcp:write"],
    expiresInDays: opts.expiresInDays,
    workspaces: opts.workspaces,
  });
  return { tokenId: token._id, credential };
}

/** A real MCP SDK client over Streamable HTTP, with or without a bearer token. */
export async function connectClient(sc: TestSidecar, credential?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${sc.url}/mcp`), {
    requestInit: credential ? { headers: { Authorization: `Bearer ${credential}` } } : {},
  });
  const client = new Client({ name: "atelier-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** A raw JSON-RPC POST, to look at HTTP statuses and headers. */
export function rawCall(sc: TestSidecar, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${sc.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

export const toolCall = (name: string, args: Record<string, unknown> = {}, id = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});
