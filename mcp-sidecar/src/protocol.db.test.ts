// Both protocol generations at one /mcp, through the real SDK clients (v2 in both modes, and
// the 1.x client older agents ship) and raw HTTP where statuses and headers are the point.
import { gzipSync } from "node:zlib";
import { connectDatabase } from "@atelier/shared/db";
import { advanceClock, nowMs, resetClock } from "@atelier/shared/domain/clock";
import { TOOL_NAMES } from "@atelier/shared/domain/agent-catalog";
import { createPage } from "@atelier/shared/domain/pages/create-page";
import { registerAnonymous } from "@atelier/shared/domain/registrations";
import { setVisibility } from "@atelier/shared/domain/workspaces";
import type { UserDoc } from "@atelier/shared/db";
import { testMongoUri } from "@atelier/shared/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RESOURCES_PAGE_SIZE } from "./mcp-server";
import { connectClient, connectClientV1, makeToken, makeUser, modernCall, rawCall, startTestSidecar, toolCall, type TestSidecar } from "./testing";

let sc: TestSidecar;
let owner: UserDoc;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

interface RpcAnswer {
  result?: Record<string, unknown> & { isError?: boolean; content?: { text: string }[]; structuredContent?: Record<string, unknown> };
  error?: { code: number; message: string; data?: unknown };
}

beforeAll(async () => {
  sc = await startTestSidecar({}, "protocol");
  owner = await makeUser(sc, `proto-${Date.now()}@example.com`);
});
afterAll(async () => {
  await sc.close();
});

/** A public workspace with one page, made through the domain. */
async function publicPage(): Promise<{ ws: string; slug: string }> {
  const ws = uniq("pub");
  const { credential } = await makeToken(sc, owner);
  const c = await connectClient(sc, credential);
  await c.callTool({ name: "create_workspace", arguments: { slug: ws, name: "Public" } });
  const slug = uniq("open");
  await c.callTool({ name: "create_page", arguments: { slug, title: "Open", body_markdown: "for everyone", workspace: ws } });
  await c.close();
  await setVisibility(sc.deps, { kind: "user", user: owner }, ws, "public");
  return { ws, slug };
}

describe("the 2026-07-28 generation (stateless: server/discover, _meta, standard headers)", () => {
  it("serves the v2 client pinned to 2026-07-28: discover, tools, a write and a resource", async () => {
    const { credential, tokenId } = await makeToken(sc, owner, { label: "Modern bot" });
    const client = await connectClient(sc, credential, "modern");
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getServerVersion()).toMatchObject({ name: "atelier" });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    const slug = uniq("modern");
    const created = await client.callTool({ name: "create_page", arguments: { slug, title: "From 2026", body_markdown: "stateless" } });
    expect(created.isError).toBeFalsy();
    expect((created.structuredContent as { page: { created_by: unknown } }).page.created_by).toMatchObject({
      kind: "agent",
      token_id: tokenId,
      label: "Modern bot",
    });
    const got = await client.callTool({ name: "get_page", arguments: { slug } });
    expect((got.structuredContent as { page: { title: string } }).page.title).toBe("From 2026");
    const res = await client.readResource({ uri: `artifact://${slug}` });
    expect(res.contents[0]).toMatchObject({ mimeType: "text/markdown", text: expect.stringContaining("stateless") });
    await client.close();
  });

  it("answers server/discover with the versions, capabilities and cache hints", async () => {
    const { body, headers } = modernCall("server/discover");
    const res = await rawCall(sc, body, headers);
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as RpcAnswer;
    expect(result?.supportedVersions).toContain("2026-07-28");
    expect(result?.capabilities).toMatchObject({ tools: {}, resources: {} });
    expect(result).toMatchObject({ ttlMs: expect.any(Number), cacheScope: "public" });
  });

  it("puts ttlMs and cacheScope on every list and on resources/read: public only for a page anyone may read", async () => {
    const { slug } = await publicPage();
    const { credential } = await makeToken(sc, owner);
    const auth = { authorization: `Bearer ${credential}` };
    for (const method of ["tools/list", "resources/list", "resources/templates/list"]) {
      const { body, headers } = modernCall(method);
      const { result } = (await (await rawCall(sc, body, { ...headers, ...auth })).json()) as RpcAnswer;
      expect(result, method).toMatchObject({ ttlMs: expect.any(Number) });
      expect(["public", "private"], method).toContain(result?.cacheScope);
    }
    const tools = (await (await rawCall(sc, modernCall("tools/list").body, { ...modernCall("tools/list").headers, ...auth })).json()) as RpcAnswer;
    expect(tools.result?.cacheScope).toBe("private");

    const pub = modernCall("resources/read", { uri: `artifact://${slug}` });
    expect(((await (await rawCall(sc, pub.body, pub.headers)).json()) as RpcAnswer).result).toMatchObject({ cacheScope: "public", ttlMs: 0 });
    const privateSlug = uniq("mine");
    const c = await connectClient(sc, credential);
    await c.callTool({ name: "create_page", arguments: { slug: privateSlug, title: "Mine", body_markdown: "private" } });
    await c.close();
    const priv = modernCall("resources/read", { uri: `artifact://${privateSlug}` });
    expect(((await (await rawCall(sc, priv.body, { ...priv.headers, ...auth })).json()) as RpcAnswer).result).toMatchObject({ cacheScope: "private" });

    // The 2025 generation never carries cache fields.
    const legacy = (await (await rawCall(sc, { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: `artifact://${slug}` } })).json()) as RpcAnswer;
    expect(legacy.result?.contents).toBeDefined();
    expect(legacy.result).not.toHaveProperty("ttlMs");
    expect(legacy.result).not.toHaveProperty("cacheScope");
  });

  it("refuses headers that disagree with the body with 400 and the header-mismatch error, running nothing", async () => {
    const { credential } = await makeToken(sc, owner);
    const slug = uniq("mismatch");
    const { body, headers } = modernCall("tools/call", { name: "create_page", arguments: { slug, title: "t", body_markdown: "x" } });
    const wrongs: Record<string, string>[] = [{ "mcp-name": "get_page" }, { "mcp-method": "tools/list" }, { "mcp-protocol-version": "2025-11-25" }];
    for (const wrong of wrongs) {
      const res = await rawCall(sc, body, { ...headers, ...wrong, authorization: `Bearer ${credential}` });
      expect(res.status, JSON.stringify(wrong)).toBe(400);
      expect(((await res.json()) as RpcAnswer).error?.code, JSON.stringify(wrong)).toBe(-32020);
    }
    const missing = { ...headers, authorization: `Bearer ${credential}` } as Record<string, string>;
    delete missing["mcp-name"];
    expect((await rawCall(sc, body, missing)).status).toBe(400);
    expect(await sc.database.c.pages.countDocuments({ slug })).toBe(0);
  });

  it("answers subscriptions/listen with an acknowledgement of what it honours: resource subscriptions, no list changes", async () => {
    const { body, headers } = modernCall("subscriptions/listen", { notifications: { toolsListChanged: true, resourceSubscriptions: ["artifact://x"] } });
    const controller = new AbortController();
    const res = await fetch(`${sc.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = res.body?.getReader();
    let text = "";
    while (reader && !text.includes("\n\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    const ack = JSON.parse(/data: (.*)/.exec(text)?.[1] ?? "{}") as { method: string; params: { notifications: Record<string, unknown> } };
    expect(ack.method).toBe("notifications/subscriptions/acknowledged");
    // The filter acknowledged is what the server honours: the resources (subscriptions.ts), not the tool list (it never changes).
    expect(ack.params.notifications).not.toHaveProperty("toolsListChanged");
    expect(ack.params.notifications.resourceSubscriptions).toEqual(["artifact://x"]);
  });
});

describe("the 2025 generation (initialize handshake)", () => {
  it("serves the 1.x SDK client, as older agents ship it", async () => {
    const { slug } = await publicPage();
    const client = await connectClientV1(sc);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("get_page");
    const r = await client.callTool({ name: "get_page", arguments: { slug } });
    expect((r.structuredContent as { page: { title: string } }).page.title).toBe("Open");
    await client.close();
  });

  it("serves the v2 client in its default (initialize) mode", async () => {
    const client = await connectClient(sc);
    expect(client.getProtocolEra()).toBe("legacy");
    expect((await client.callTool({ name: "whoami", arguments: {} })).structuredContent).toMatchObject({ authenticated: false });
    await client.close();
  });
});

describe("tool errors carry the same coded details as tRPC", () => {
  const textOf = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0]?.text ?? "{}") as Record<string, unknown>;

  it("a stale expected_version: version_conflict with details.current_version, in structuredContent on 2026-07-28 and in the text on both", async () => {
    const { credential } = await makeToken(sc, owner);
    const slug = uniq("stale");
    const modern = await connectClient(sc, credential, "modern");
    await modern.callTool({ name: "create_page", arguments: { slug, title: "One", body_markdown: "v1" } });
    await modern.callTool({ name: "update_page", arguments: { slug, body_markdown: "v2", expected_version: 1 } });
    const stale = await modern.callTool({ name: "update_page", arguments: { slug, body_markdown: "v3?", expected_version: 1 } });
    expect(stale.isError).toBe(true);
    expect(stale.structuredContent).toMatchObject({ error: "version_conflict", details: { current_version: 2 } });
    expect(textOf(stale)).toEqual(stale.structuredContent);
    await modern.close();

    for (const legacy of [await connectClient(sc, credential), await connectClientV1(sc, credential)]) {
      await legacy.listTools();
      const r = await legacy.callTool({ name: "update_page", arguments: { slug, body_markdown: "v3?", expected_version: 1 } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatchObject({ error: "version_conflict", message: expect.stringContaining("version 2"), details: { current_version: 2 } });
      await legacy.close();
    }
  });

  it("bad arguments: invalid_request with each field's path and code, on both generations", async () => {
    const { credential } = await makeToken(sc, owner);
    const modern = await connectClient(sc, credential, "modern");
    const bad = await modern.callTool({ name: "create_page", arguments: { slug: "Not A Slug!", title: "" } });
    expect(bad.isError).toBe(true);
    const issues = (bad.structuredContent as { details: { issues: { path: string; code: string }[] } }).details.issues;
    expect(issues.map((i) => i.path)).toEqual(expect.arrayContaining(["slug", "title"]));
    for (const i of issues) expect(i.code).toEqual(expect.any(String));
    await modern.close();
    const legacy = await connectClientV1(sc, credential);
    const r = await legacy.callTool({ name: "create_page", arguments: { slug: "Not A Slug!", title: "" } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatchObject({ error: "invalid_request", details: { issues: expect.arrayContaining([expect.objectContaining({ path: "slug" })]) } });
    await legacy.close();
  });

  it("a field the domain refuses (an unknown column) names its path and code", async () => {
    const { credential } = await makeToken(sc, owner);
    const client = await connectClient(sc, credential, "modern");
    const table = uniq("cols");
    await client.callTool({ name: "create_collection", arguments: { slug: table, name: "Cols", kind: "table", columns: [{ name: "n", type: "number" }] } });
    const r = await client.callTool({ name: "insert_rows", arguments: { collection: table, rows: [{ nope: 1 }] } });
    expect(r.structuredContent).toMatchObject({ error: "invalid_request", details: { issues: [{ path: "rows.0.nope", code: "unknown_column" }] } });
    await client.close();
  });
});

describe("protocol errors", () => {
  it("logs an unsupported protocol version (either generation) as a client error: one warn line, no stack (issue 23 item 16)", async () => {
    // 2025 generation: an unknown MCP-Protocol-Version header; 2026-07-28: an unknown version in `_meta` (and the header).
    const modern = modernCall("tools/list");
    const params = (modern.body as { params: { _meta: Record<string, unknown> } }).params;
    params._meta = { ...params._meta, "io.modelcontextprotocol/protocolVersion": "2099-12-31" };
    const cases: [string, unknown, Record<string, string>][] = [
      ["1999-01-01", toolCall("whoami"), { "mcp-protocol-version": "1999-01-01" }],
      ["2099-12-31", modern.body, { ...modern.headers, "mcp-protocol-version": "2099-12-31" }],
    ];
    for (const [version, body, headers] of cases) {
      const before = sc.logLines.length;
      const res = await rawCall(sc, body, headers);
      expect(res.status, version).toBe(400);
      await new Promise((r) => setTimeout(r, 50));
      const lines = sc.logLines.slice(before).map((l) => JSON.parse(l) as { level: number; msg: string; reason?: string; err?: unknown });
      const refusals = lines.filter((l) => l.msg !== "request completed");
      expect(refusals, version).toHaveLength(1);
      expect(refusals[0]).toMatchObject({ level: 40, msg: "mcp request refused" });
      expect(refusals[0]?.reason).toMatch(/protocol version/i);
      expect(refusals[0]?.err).toBeUndefined();
      expect(sc.logLines.slice(before).join("")).not.toMatch(/"stack"|\n\s+at /);
    }
  });

  it("answers an unknown tool with -32602 on both generations, not a tool result", async () => {
    const legacy = (await (await rawCall(sc, toolCall("no_such_tool"))).json()) as RpcAnswer;
    expect(legacy.result).toBeUndefined();
    expect(legacy.error?.code).toBe(-32602);
    const { body, headers } = modernCall("tools/call", { name: "no_such_tool", arguments: {} });
    const modern = (await (await rawCall(sc, body, headers)).json()) as RpcAnswer;
    expect(modern.error?.code).toBe(-32602);
    const client = await connectClient(sc, undefined, "modern");
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.close();
  });

  it("answers a missing or unreadable resource with resource-not-found: -32002 up to 2025-11-25, -32602 from 2026-07-28", async () => {
    const { credential } = await makeToken(sc, owner);
    const privateSlug = uniq("secret");
    const c = await connectClient(sc, credential);
    await c.callTool({ name: "create_page", arguments: { slug: privateSlug, title: "Secret", body_markdown: "x" } });
    await c.close();
    for (const uri of ["artifact://does-not-exist", `artifact://${privateSlug}`, "file:///etc/passwd"]) {
      const legacy = (await (await rawCall(sc, { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri } })).json()) as RpcAnswer;
      expect(legacy.error, uri).toMatchObject({ code: -32002, data: { uri } });
      const { body, headers } = modernCall("resources/read", { uri });
      const modern = (await (await rawCall(sc, body, headers)).json()) as RpcAnswer;
      expect(modern.error, uri).toMatchObject({ code: -32602, data: { uri } });
    }
  });

  // The error table answers an unreachable database at the HTTP level (503, retry later),
  // for a resource read as for a tool call: never "not found".
  it("answers a database failure in a resource read with 503 unavailable, never as not found", async () => {
    const broken = await startTestSidecar({}, "broken");
    await broken.database.client.close();
    try {
      const legacy = await rawCall(broken, { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "artifact://anything" } });
      expect(legacy.status).toBe(503);
      expect(await legacy.json()).toMatchObject({ error: "unavailable" });
      const { body, headers } = modernCall("resources/read", { uri: "artifact://anything" });
      const modern = await rawCall(broken, body, headers);
      expect(modern.status).toBe(503);
      expect(await modern.json()).toMatchObject({ error: "unavailable" });
    } finally {
      const again = await connectDatabase(testMongoUri(), broken.database.name);
      await again.db.dropDatabase();
      await again.client.close();
      await broken.close();
    }
  });

  it("pages resources/list with nextCursor past the first page, without duplicates or gaps", async () => {
    const reader = await makeUser(sc, `many-${Date.now()}@example.com`);
    const principal = { kind: "user" as const, user: reader };
    const tag = reader._id
      .slice(-6)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "x");
    const slugs = Array.from({ length: RESOURCES_PAGE_SIZE + 5 }, (_, i) => `many-${tag}-${String(i).padStart(3, "0")}`);
    // Ten at a time: 105 page writes one after another outlast the test's time on a busy machine.
    for (let i = 0; i < slugs.length; i += 10) {
      await Promise.all(slugs.slice(i, i + 10).map((slug) => createPage(sc.deps, principal, { slug, title: slug, body_markdown: "x" })));
    }
    const { credential } = await makeToken(sc, reader);
    const auth = { authorization: `Bearer ${credential}` };
    for (const era of ["legacy", "modern"] as const) {
      const list = async (cursor?: string) => {
        const params = cursor === undefined ? {} : { cursor };
        const { body, headers } =
          era === "modern" ? modernCall("resources/list", params) : { body: { jsonrpc: "2.0", id: 1, method: "resources/list", params }, headers: {} };
        return (await (await rawCall(sc, body, { ...headers, ...auth })).json()) as RpcAnswer;
      };
      const first = (await list()).result as { resources: { name: string }[]; nextCursor?: string };
      expect(first.resources.length, era).toBe(RESOURCES_PAGE_SIZE);
      expect(first.nextCursor, era).toEqual(expect.any(String));
      const second = (await list(first.nextCursor)).result as { resources: { name: string }[]; nextCursor?: string };
      expect(second.nextCursor, era).toBeUndefined();
      expect(
        [...first.resources, ...second.resources].map((r) => r.name),
        era,
      ).toEqual(slugs);
      expect((await list("not-a-cursor!")).error?.code, era).toBe(-32602);
      // The SDK client follows nextCursor by itself.
      const client = await connectClient(sc, credential, era);
      expect(
        (await client.listResources()).resources.map((r) => r.name),
        era,
      ).toEqual(slugs);
      await client.close();
    }
  }, 90_000);
});

describe("HTTP answers", () => {
  it("refuses a body nested deeper than any call needs with 400 and a JSON-RPC parse error, never a 500", async () => {
    const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
    for (const body of [deep(100_000), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami","arguments":{"x":${deep(5_000)}}}}`]) {
      const res = await fetch(`${sc.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body,
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    }
  });

  it("reads the body itself: over 8 MB is 413 (declared or streamed), gzip is inflated within the limit, a JSON scalar or an unknown encoding is a parse error", async () => {
    const post = (body: BodyInit, headers: Record<string, string> = {}) =>
      fetch(`${sc.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body,
        duplex: "half",
      } as RequestInit);
    const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const big = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"${"x".repeat(8 * 1024 * 1024)}"}}`;
    const declared = await post(big);
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ error: "payload_too_large" });
    // No Content-Length: counted as it arrives.
    const chunks = [big.slice(0, 2_000_000), big.slice(2_000_000, 6_000_000), big.slice(6_000_000)];
    const streamed = await post(
      new ReadableStream({
        pull(c) {
          const next = chunks.shift();
          if (next === undefined) c.close();
          else c.enqueue(new TextEncoder().encode(next));
        },
      }),
    );
    expect(streamed.status).toBe(413);
    // Compressed: inflated, and the limit applies to what it inflates to.
    const gz = await post(gzipSync(list), { "content-encoding": "gzip" });
    expect(gz.status).toBe(200);
    expect(((await gz.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(10);
    const bomb = await post(gzipSync(big), { "content-encoding": "gzip" });
    expect(bomb.status).toBe(413);
    for (const [body, headers] of [
      ['"a string"', {}],
      ["42", {}],
      [list, { "content-encoding": "compress" }],
      [list, { "content-type": "application/json; charset=utf-16" }],
    ] as const) {
      const res = await post(body, headers);
      expect(res.status, body).toBe(400);
      expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    }
    // Not JSON at all: left to the SDK, which refuses the media type.
    expect((await post(list, { "content-type": "text/plain" })).status).toBe(415);
  });

  it("takes the scheme from X-Forwarded-Proto only from a trusted proxy, and writes one request line without the query", async () => {
    const host = new URL(sc.url).host;
    const call = toolCall("whoami");
    // The default TRUST_PROXY is loopback, and the test client is on loopback.
    expect((await rawCall(sc, call, { origin: `https://${host}`, "x-forwarded-proto": "https" })).status).toBe(200);
    expect((await rawCall(sc, call, { origin: `https://${host}` })).status).toBe(403);
    const untrusted = await startTestSidecar({ TRUST_PROXY: "10.0.0.1" }, "mcpproxy");
    try {
      expect((await rawCall(untrusted, call, { origin: `https://${new URL(untrusted.url).host}`, "x-forwarded-proto": "https" })).status).toBe(403);
    } finally {
      await untrusted.close();
    }
    const before = sc.logLines.length;
    await fetch(`${sc.url}/mcp?secret=shh`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(call),
    });
    await fetch(`${sc.url}/healthz`);
    const lines = sc.logLines.slice(before).map((l) => JSON.parse(l) as { msg: string; req?: { path: string; method: string }; res?: { statusCode: number } });
    const requests = lines.filter((l) => l.msg === "request completed");
    expect(requests).toEqual([expect.objectContaining({ req: expect.objectContaining({ method: "POST", path: "/mcp" }), res: { statusCode: 200 } })]);
    expect(sc.logLines.slice(before).join("")).not.toContain("shh");
  });

  it("answers PUT and PATCH (and GET, DELETE) with 405 and Allow", async () => {
    for (const method of ["PUT", "PATCH", "GET", "DELETE"]) {
      const res = await fetch(`${sc.url}/mcp`, {
        method,
        headers: { "content-type": "application/json", accept: "application/json" },
        body: method === "GET" ? undefined : "{}",
      });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow"), method).toBe("POST, OPTIONS");
      expect(await res.json(), method).toMatchObject({ error: "method_not_allowed" });
    }
  });

  it("refuses another host name (DNS rebinding) with 403, on both generations", async () => {
    const discover = modernCall("server/discover");
    for (const [body, headers] of [
      [
        { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } },
        {},
      ],
      [discover.body, discover.headers],
    ] as const) {
      const evil = await rawCall(sc, body, { ...headers, host: "evil.example.com", origin: "http://evil.example.com" });
      expect(evil.status).toBe(403);
      expect(await evil.json()).toMatchObject({ error: "forbidden" });
      expect((await rawCall(sc, body, headers)).status).toBe(200);
    }
  });

  it("lazy sign-in: a write without a token is 401 with the challenge on both generations; a token without the scope is 403 naming it", async () => {
    const write = { slug: uniq("x"), title: "t", body_markdown: "x" };
    const { body, headers } = modernCall("tools/call", { name: "create_page", arguments: write });
    for (const res of [await rawCall(sc, toolCall("create_page", write)), await rawCall(sc, body, headers)]) {
      expect(res.status).toBe(401);
      const h = res.headers.get("www-authenticate") ?? "";
      expect(h).toMatch(/^Bearer /);
      expect(h).toContain(`resource_metadata="${sc.config.BASE_URL}/.well-known/oauth-protected-resource"`);
      expect(h).toContain('scope="mcp:write"');
      expect(await res.json()).toMatchObject({ error: "unauthorized" });
    }
    const { credential } = await makeToken(sc, owner, { scopes: ["mcp:read"] });
    const res = await rawCall(sc, body, { ...headers, authorization: `Bearer ${credential}` });
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(res.headers.get("www-authenticate")).toContain('scope="mcp:write"');
    expect(await sc.database.c.pages.countDocuments({ slug: write.slug })).toBe(0);
    // The v2 client sees the 401 as an authorization failure, not a tool result.
    const anon = await connectClient(sc, undefined, "modern");
    await expect(anon.callTool({ name: "create_page", arguments: write })).rejects.toThrow(/401|Unauthorized|authoriz/i);
    await anon.close();
  });
});

// Each test writes up to 100 pages: on a busy two-core machine that can pass the default 30 s.
describe("JSON-RPC batches and the sandbox write throttle", { timeout: 120_000 }, () => {
  let bsc: TestSidecar;
  beforeAll(async () => {
    bsc = await startTestSidecar(
      { ANONYMOUS_REGISTRATION_ENABLED: "true", ANON_REG_PER_IP_PER_DAY: "1000", ANON_WRITES_PER_MINUTE: "100", ANON_MAX_PAGES: "1000" },
      "batch",
    );
  });
  afterAll(async () => {
    await bsc.close();
  });
  // The throttle counts in fixed one-minute windows: start each test at the beginning of one,
  // so that a slow machine cannot carry the test across a window's end.
  beforeEach(() => {
    advanceClock((60_000 - (nowMs() % 60_000) + 50) / 1000);
  });
  afterEach(() => resetClock());
  const sandbox = () => registerAnonymous(bsc.deps, { agentLabel: "Batch bot", requesterIp: `10.1.0.${Math.floor(Math.random() * 250)}` });
  const creates = (prefix: string, count: number, from = 0) =>
    Array.from({ length: count }, (_, i) => toolCall("create_page", { slug: `${prefix}-${from + i}`, title: "t", body_markdown: "x" }, from + i + 1));

  it("counts every write in a batch: 100 writes in one batch is 100, and one more is 429 with Retry-After", async () => {
    const reg = await sandbox();
    const auth = { authorization: `Bearer ${reg.credential}` };
    const res = await rawCall(bsc, creates(reg.sandbox_bucket.slug, 100), auth);
    expect(res.status).toBe(200);
    const answers = (await res.json()) as RpcAnswer[];
    expect(answers.length).toBe(100);
    expect(answers.every((a) => a.result && !a.result.isError)).toBe(true);
    expect(await bsc.database.c.pages.countDocuments({ workspaceId: reg.sandbox_bucket.id })).toBe(100);

    const more = await rawCall(bsc, toolCall("create_page", { slug: `${reg.sandbox_bucket.slug}-x`, title: "t", body_markdown: "x" }), auth);
    expect(more.status).toBe(429);
    expect(Number(more.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await more.json()).toMatchObject({ error: "rate_limited" });
    // Reads go on.
    expect((await rawCall(bsc, toolCall("list_pages", { workspace: reg.sandbox_bucket.slug }), auth)).status).toBe(200);
    expect(await bsc.database.c.pages.countDocuments({ workspaceId: reg.sandbox_bucket.id })).toBe(100);
  });

  it("refuses a batch that would pass the limit whole: 429, and none of it runs", async () => {
    const reg = await sandbox();
    const auth = { authorization: `Bearer ${reg.credential}` };
    expect((await rawCall(bsc, creates(reg.sandbox_bucket.slug, 60), auth)).status).toBe(200);
    const over = await rawCall(bsc, creates(reg.sandbox_bucket.slug, 41, 60), auth);
    expect(over.status).toBe(429);
    expect(await bsc.database.c.pages.countDocuments({ workspaceId: reg.sandbox_bucket.id })).toBe(60);
    // The refused batch counted nothing: the 40 writes left still fit.
    expect((await rawCall(bsc, creates(reg.sandbox_bucket.slug, 40, 60), auth)).status).toBe(200);
    expect(await bsc.database.c.pages.countDocuments({ workspaceId: reg.sandbox_bucket.id })).toBe(100);
  });

  it("accepts batches only on the versions that have them (2025-03-26 and before)", async () => {
    const reg = await sandbox();
    const auth = { authorization: `Bearer ${reg.credential}` };
    for (const version of ["2025-06-18", "2025-11-25", "2026-07-28"]) {
      const res = await rawCall(bsc, creates(`${reg.sandbox_bucket.slug}-${version.slice(0, 4)}`, 2), { ...auth, "mcp-protocol-version": version });
      expect(res.status, version).toBe(400);
      expect(((await res.json()) as RpcAnswer).error?.code, version).toBe(-32600);
    }
    expect(await bsc.database.c.pages.countDocuments({ workspaceId: reg.sandbox_bucket.id })).toBe(0);
    expect((await rawCall(bsc, creates(reg.sandbox_bucket.slug, 2), { ...auth, "mcp-protocol-version": "2025-03-26" })).status).toBe(200);
    expect(await bsc.database.c.pages.countDocuments({ workspaceId: reg.sandbox_bucket.id })).toBe(2);
  });
});
