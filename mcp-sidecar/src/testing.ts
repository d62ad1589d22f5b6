// A whole sidecar for tests: the real app on a loopback port, a fresh real database, and
// helpers to make people and tokens through the real domain services.
import { ViewCounter } from "@atelier/shared/domain/analytics/counter";
import { findOrCreateConfirmedUser } from "@atelier/shared/domain/users";
import { createUserToken } from "@atelier/shared/domain/tokens";
import { createServer, type Server } from "node:http";
import { freePort } from "@atelier/shared/devtools/embedded-db";
import { keepAliveLongerThanPeers } from "@atelier/shared/process";
import { capturingLogger, testDatabase, testDeps, type TestDatabase, type TestDeps } from "@atelier/shared/testing";
import type { Config } from "@atelier/shared/config";
import type { Scope, UserDoc } from "@atelier/shared/db";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ChangeFollower } from "@atelier/shared/domain/changes/follower";
import { createSidecarApp } from "./app";

export interface TestSidecar {
  url: string;
  config: Config;
  database: TestDatabase;
  /** Domain deps on the same database (for seeding through the real domain, as another process would). */
  deps: TestDeps<TestDatabase>;
  logLines: string[];
  /** The sidecar's follower of the change feed (tests call poll() to skip its wait). */
  follower: ChangeFollower;
  /** The sidecar's batch of agent reads (flush it to see them stored). */
  views: ViewCounter;
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
  const appDeps = testDeps(database, { BASE_URL: url, ...env });
  // The process's follower of the change feed, as main.ts starts it (resource subscriptions listen to it).
  const follower = await new ChangeFollower(appDeps).start();
  const views = new ViewCounter({ database, config });
  const app = createSidecarApp({ ...appDeps, logger, follower, views });
  const server = await new Promise<Server>((resolve) => {
    const s = createServer(app).listen(port, "127.0.0.1", () => resolve(keepAliveLongerThanPeers(s)));
  });
  return {
    url,
    config,
    database,
    deps,
    logLines: lines,
    follower,
    views,
    async close() {
      await views.stop();
      await app.closeStreams();
      await follower.stop();
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

/**
 * A real MCP SDK client (v2) over Streamable HTTP, with or without a bearer token. `era`
 * picks the protocol generation: "legacy" is the 2025 `initialize` handshake (the client's
 * default), "modern" pins 2026-07-28 (server/discover, `_meta` and the standard headers on
 * every request; connecting fails unless the server offers it).
 */
export async function connectClient(sc: TestSidecar, credential?: string, era: "legacy" | "modern" = "legacy"): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${sc.url}/mcp`), {
    requestInit: credential ? { headers: { Authorization: `Bearer ${credential}` } } : {},
  });
  const client = new Client({ name: "atelier-test", version: "1.0.0" }, era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
  await client.connect(transport);
  return client;
}

/** The 1.x SDK client, as older agents still ship it (initialize handshake, 2025-11-25 at most). */
export async function connectClientV1(sc: TestSidecar, credential?: string): Promise<ClientV1> {
  const transport = new StreamableHTTPClientTransportV1(new URL(`${sc.url}/mcp`), {
    requestInit: credential ? { headers: { Authorization: `Bearer ${credential}` } } : {},
  });
  const client = new ClientV1({ name: "atelier-test-v1", version: "1.0.0" });
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

/** The `_meta` envelope every 2026-07-28 request carries. */
export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw-test", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A 2026-07-28 request: its body (with `_meta`) and the standard headers that mirror it. */
export function modernCall(method: string, params: Record<string, unknown> = {}, id: number | string = 1): { body: unknown; headers: Record<string, string> } {
  const name = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
  return {
    body: { jsonrpc: "2.0", id, method, params: { ...params, _meta: MODERN_META } },
    headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(name !== undefined ? { "mcp-name": name } : {}) },
  };
}

/** Every resources/updated notification a client receives, and a way to wait for one. */
// Resource subscriptions (2026-07-28 listen streams) in tests.
export class Updates {
  readonly uris: string[] = [];
  private waiters: { uri: string; resolve: () => void }[] = [];
  constructor(client: Client) {
    client.setNotificationHandler("notifications/resources/updated", (note) => {
      this.uris.push(note.params.uri);
      for (const w of this.waiters.filter((w) => w.uri === note.params.uri)) w.resolve();
      this.waiters = this.waiters.filter((w) => w.uri !== note.params.uri);
    });
  }
  /** Resolves when a notification for `uri` arrives after `from` notifications were seen. */
  async next(uri: string, from: number): Promise<void> {
    if (this.uris.slice(from).includes(uri)) return;
    await new Promise<void>((resolve) => this.waiters.push({ uri, resolve }));
  }
}
