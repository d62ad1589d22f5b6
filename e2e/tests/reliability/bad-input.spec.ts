// A corpus of bad input on every public route and on /mcp, through nginx: malformed JSON,
// wrong types, huge bodies, deep nesting, NUL bytes, invalid UTF-8, unicode slugs, header
// injection and request-smuggling attempts. Always a 4xx (for /mcp: a 4xx, or a JSON-RPC or
// tool error), never a 5xx, and nothing written.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Api, httpCall, rawHttp, uniqueEmail, type RawResponse } from "../support/api";
import { countAll, withDb } from "../support/db";
import { table, writeSection } from "../support/report";
import { stack } from "../support/stack";

/**
 * "4xx": must be refused. "safe": a read that may answer 200/3xx/404, but never 5xx. "mcp":
 * 4xx, or 200 carrying an error. A number: exactly that status.
 */
type Expect = "4xx" | "safe" | "mcp" | number;

interface Case {
  route: string;
  what: string;
  expect: Expect;
  run: () => Promise<{ status: number; body: string; location?: string }>;
}

interface Outcome extends Case {
  status: number;
  ok: boolean;
  note: string;
}

const JSON_TYPE = { "content-type": "application/json" };
const MB = 1024 * 1024;

const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
const deepArray = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const INVALID_UTF8 = (prefix: string, suffix: string) =>
  Buffer.concat([Buffer.from(prefix), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from(suffix)]);
const UNICODE_SLUGS = ["café", "😀-page", "ｓｌｕｇ", "slug\u202eevil", "zero\u200bwidth", "саfe", "a".repeat(65), "-leading", "UPPER", "dot.slug"];

/** Bodies that are not valid JSON at all. */
const MALFORMED = ["{", '{"title":}', "[1,2", "nul", "{'title': 'x'}", '{"title":"x"} trailing', "", "\u0000", '{"a":1,}'];

/** The same valid-shaped body with each field given a wrong type. */
function wrongTypes(base: Record<string, unknown>): { what: string; body: unknown }[] {
  const out: { what: string; body: unknown }[] = [];
  for (const key of Object.keys(base)) {
    for (const [name, v] of [
      ["number", 123],
      ["boolean", true],
      ["null", null],
      ["array", []],
      ["object", { nested: 1 }],
    ] as const) {
      out.push({ what: `${key} as ${name}`, body: { ...base, [key]: v } });
    }
  }
  for (const [name, v] of [
    ["array", []],
    ["string", "text"],
    ["number", 42],
    ["null", null],
  ] as const)
    out.push({ what: `body is a JSON ${name}`, body: v });
  const [first] = Object.keys(base);
  if (first) {
    const { [first]: _dropped, ...rest } = base;
    out.push({ what: `${first} missing`, body: rest });
    const others = JSON.stringify(rest).slice(1, -1);
    out.push({
      what: "__proto__ smuggling a field",
      body: JSON.parse(`{"__proto__":{"${first}":${JSON.stringify(base[first])}}${others ? `,${others}` : ""}}`) as unknown,
    });
  }
  return out;
}

test("bad input on every public route answers 4xx, never 5xx, and writes nothing", async () => {
  test.setTimeout(240_000);
  const api = new Api();
  await api.signIn(uniqueEmail("fuzz-owner"));
  const { credential } = await api.mutation<{ credential: string }>("tokens.create", { label: "fuzz", scopes: ["mcp:read", "mcp:write"], expiresInDays: 1 });
  const ownerHeaders = { ...JSON_TYPE, origin: stack.baseUrl, cookie: api.cookie };
  const bearer = `Bearer ${credential}`;
  const base = stack.baseUrl;

  const post = (path: string, body: Buffer | string, headers: Record<string, string>) => async () => {
    const r: RawResponse = await httpCall(`${base}${path}`, { method: "POST", headers, body });
    return { status: r.status, body: r.body };
  };
  const get =
    (path: string, headers: Record<string, string> = {}) =>
    async () => {
      const r = await httpCall(`${base}${path}`, { headers });
      return { status: r.status, body: r.body, location: typeof r.headers.location === "string" ? r.headers.location : undefined };
    };
  const raw = (bytes: string | Buffer) => async () => {
    const r = await rawHttp(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes, "latin1"));
    return { status: r.status, body: r.head };
  };

  const cases: Case[] = [];
  /** The JSON body corpus for one JSON route. */
  const jsonRoute = (
    route: string,
    path: string,
    headers: Record<string, string>,
    baseBody: Record<string, unknown>,
    expect: Expect,
    opts: { bigBytes: number; tooBigBytes: number },
  ) => {
    for (const m of MALFORMED) cases.push({ route, what: `malformed JSON ${JSON.stringify(m).slice(0, 20)}`, expect, run: post(path, m, headers) });
    for (const w of wrongTypes(baseBody)) cases.push({ route, what: `wrong type: ${w.what}`, expect, run: post(path, JSON.stringify(w.body), headers) });
    const firstKey = Object.keys(baseBody)[0] ?? "x";
    cases.push({
      route,
      what: "NUL bytes in every string",
      expect,
      run: post(path, JSON.stringify(Object.fromEntries(Object.entries(baseBody).map(([k, v]) => [k, typeof v === "string" ? `${v}\u0000evil` : v]))), headers),
    });
    cases.push({ route, what: "invalid UTF-8 in a string", expect, run: post(path, INVALID_UTF8(`{"${firstKey}":"`, '"}'), headers) });
    cases.push({
      route,
      what: "CR/LF header injection in every string",
      expect,
      run: post(
        path,
        JSON.stringify(Object.fromEntries(Object.entries(baseBody).map(([k, v]) => [k, typeof v === "string" ? `${v}\r\nSet-Cookie: injected=1\r\n` : v]))),
        headers,
      ),
    });
    cases.push({ route, what: `deep nesting (objects, 100000 levels)`, expect, run: post(path, deepObject(100_000), headers) });
    cases.push({ route, what: `deep nesting (arrays, 100000 levels)`, expect, run: post(path, deepArray(100_000), headers) });
    cases.push({ route, what: `deep nesting inside a field (5000 levels)`, expect, run: post(path, `{"${firstKey}":${deepObject(5_000)}}`, headers) });
    cases.push({
      route,
      what: `huge body (${(opts.bigBytes / MB).toFixed(1)} MB, over the app's limit)`,
      expect,
      run: post(path, JSON.stringify({ ...baseBody, [firstKey]: "x".repeat(opts.bigBytes) }), headers),
    });
    cases.push({
      route,
      what: `huge body (${(opts.tooBigBytes / MB).toFixed(1)} MB, over nginx's limit)`,
      expect,
      run: post(path, JSON.stringify({ ...baseBody, [firstKey]: "x".repeat(opts.tooBigBytes) }), headers),
    });
    cases.push({ route, what: "JSON sent as text/plain", expect, run: post(path, JSON.stringify(baseBody), { ...headers, "content-type": "text/plain" }) });
    cases.push({
      route,
      what: "JSON sent as form data",
      expect,
      run: post(path, "title=x&slug=y", { ...headers, "content-type": "application/x-www-form-urlencoded" }),
    });
    cases.push({
      route,
      what: "JSON declared as UTF-16",
      expect,
      run: post(path, JSON.stringify(baseBody), { ...headers, "content-type": "application/json; charset=utf-16" }),
    });
    cases.push({ route, what: "a cross-site Origin", expect, run: post(path, JSON.stringify(baseBody), { ...headers, origin: "https://evil.example" }) });
  };

  // Browser write route (needs the session).
  const validPage = { title: "Fuzz", slug: "fuzz-page", body_markdown: "x" };
  jsonRoute("POST /api/artifacts/pages", "/api/artifacts/pages", ownerHeaders, { slug: "café", title: "t", body_markdown: "x" }, "4xx", {
    bigBytes: 1.5 * MB,
    tooBigBytes: 3 * MB,
  });
  for (const s of UNICODE_SLUGS)
    cases.push({
      route: "POST /api/artifacts/pages",
      what: `unicode slug ${JSON.stringify(s).slice(0, 24)}`,
      expect: "4xx",
      run: post("/api/artifacts/pages", JSON.stringify({ ...validPage, slug: s }), ownerHeaders),
    });
  cases.push({
    route: "POST /api/artifacts/pages",
    what: "no session, bearer token instead",
    expect: "4xx",
    run: post("/api/artifacts/pages", JSON.stringify(validPage), { ...JSON_TYPE, authorization: bearer }),
  });
  cases.push({
    route: "POST /api/artifacts/pages",
    what: "forged session cookie",
    expect: "4xx",
    run: post("/api/artifacts/pages", JSON.stringify(validPage), { ...JSON_TYPE, cookie: `atelier_session=${randomBytes(40).toString("base64url")}` }),
  });
  cases.push({
    route: "POST /api/artifacts/pages",
    what: "session cookie with NUL and unicode",
    expect: "4xx",
    run: post("/api/artifacts/pages", JSON.stringify(validPage), { ...JSON_TYPE, cookie: "atelier_session=%00%FF\u00e9" }),
  });

  // Agent registration and claims.
  jsonRoute("POST /agent/auth", "/agent/auth", JSON_TYPE, { type: "anonymous\u0000", requested_credential_type: "mcp_write_token" }, "4xx", {
    bigBytes: 0.5 * MB,
    tooBigBytes: 3 * MB,
  });
  for (const t of ["verified_email", "ANONYMOUS", "anonymous ", "oauth", "😀"])
    cases.push({
      route: "POST /agent/auth",
      what: `type ${JSON.stringify(t)}`,
      expect: "4xx",
      run: post("/agent/auth", JSON.stringify({ type: t, requested_credential_type: "mcp_write_token" }), JSON_TYPE),
    });
  cases.push({
    route: "POST /agent/auth",
    what: "agent_label with NUL",
    expect: "4xx",
    run: post("/agent/auth", JSON.stringify({ type: "anonymous", requested_credential_type: "mcp_write_token", agent_label: "a\u0000b" }), JSON_TYPE),
  });
  cases.push({
    route: "POST /agent/auth",
    what: "agent_label of 10000 characters",
    expect: "4xx",
    run: post("/agent/auth", JSON.stringify({ type: "anonymous", requested_credential_type: "mcp_write_token", agent_label: "a".repeat(10_000) }), JSON_TYPE),
  });
  cases.push({
    route: "POST /agent/auth",
    what: "requested_credential_type unknown",
    expect: "4xx",
    run: post("/agent/auth", JSON.stringify({ type: "anonymous", requested_credential_type: "password" }), JSON_TYPE),
  });
  jsonRoute(
    "POST /agent/auth/claim",
    "/agent/auth/claim",
    JSON_TYPE,
    { claim_token: randomBytes(32).toString("base64url"), email: "person@example.test" },
    "4xx",
    { bigBytes: 0.5 * MB, tooBigBytes: 3 * MB },
  );
  for (const body of [
    { claim_token: "x", email: "a@b.test", otp: "123456" },
    { claim_token: "x" },
    { claim_token: "reg_\u0000", email: "a@b.test" },
    { claim_token: "😀".repeat(50), otp: "123456" },
    { claim_token: "x".repeat(5000), otp: "123456" },
    { claim_token: randomBytes(32).toString("base64url"), otp: "12345\u0000" },
    { claim_token: randomBytes(32).toString("base64url"), email: "victim@example.test\r\nBcc: other@example.test" },
    { claim_token: randomBytes(32).toString("base64url"), email: "ünïcode@exämple.test" },
  ]) {
    cases.push({
      route: "POST /agent/auth/claim",
      what: `claim body ${JSON.stringify(body).slice(0, 40)}`,
      expect: "4xx",
      run: post("/agent/auth/claim", JSON.stringify(body), JSON_TYPE),
    });
  }

  // tRPC, as the SPA calls it.
  jsonRoute("POST /api/trpc/auth.requestCode", "/api/trpc/auth.requestCode", { ...JSON_TYPE, origin: base }, { email: "not-an-email" }, "4xx", {
    bigBytes: 1.5 * MB,
    tooBigBytes: 3 * MB,
  });
  for (const email of ["a@b", "x@y.z\r\nBcc: victim@z.test", "nul\u0000@x.test", `${"a".repeat(300)}@x.test`, "@x.test", "ünï@x.test\u202e"]) {
    cases.push({
      route: "POST /api/trpc/auth.requestCode",
      what: `email ${JSON.stringify(email).slice(0, 30)}`,
      expect: "4xx",
      run: post("/api/trpc/auth.requestCode", JSON.stringify({ email }), { ...JSON_TYPE, origin: base }),
    });
  }
  jsonRoute(
    "POST /api/trpc/auth.verifyCode",
    "/api/trpc/auth.verifyCode",
    { ...JSON_TYPE, origin: base },
    { email: "nobody@example.test", code: "12345x" },
    "4xx",
    { bigBytes: 1.5 * MB, tooBigBytes: 3 * MB },
  );
  jsonRoute("POST /api/trpc/tokens.create", "/api/trpc/tokens.create", ownerHeaders, { label: "", scopes: ["mcp:admin"], expiresInDays: -1 }, "4xx", {
    bigBytes: 1.5 * MB,
    tooBigBytes: 3 * MB,
  });
  for (const input of [
    { label: "x", scopes: [], expiresInDays: 1 },
    { label: "x", scopes: ["mcp:read"], expiresInDays: 1e9 },
    { label: "x", scopes: ["mcp:read"], expiresInDays: 1.5 },
    // Names and labels take no control characters (shared/src/schemas/common.ts LabelSchema).
    { label: "x\u0000", scopes: ["mcp:read"], expiresInDays: 1 },
    { label: "tab\tin label", scopes: ["mcp:read"], expiresInDays: 1 },
    { label: "bell\u0007\u007f", scopes: ["mcp:read"], expiresInDays: 1 },
    { label: "x", scopes: ["mcp:read"], expiresInDays: 1, workspaces: ["café"] },
  ]) {
    cases.push({
      route: "POST /api/trpc/tokens.create",
      what: `input ${JSON.stringify(input).slice(0, 40)}`,
      expect: "4xx",
      run: post("/api/trpc/tokens.create", JSON.stringify(input), ownerHeaders),
    });
  }
  for (const name of ["nul\u0000name", "new\nline", "\u001b[31mred"]) {
    cases.push({
      route: "POST /api/trpc/workspaces.create",
      what: `name ${JSON.stringify(name)}`,
      expect: "4xx",
      run: post("/api/trpc/workspaces.create", JSON.stringify({ name, slug: `ctl-${Math.random().toString(36).slice(2, 8)}` }), ownerHeaders),
    });
  }
  jsonRoute("POST /api/trpc/workspaces.setVisibility", "/api/trpc/workspaces.setVisibility", ownerHeaders, { slug: "café", visibility: "everyone" }, "4xx", {
    bigBytes: 1.5 * MB,
    tooBigBytes: 3 * MB,
  });
  jsonRoute("POST /api/trpc/tokens.revoke", "/api/trpc/tokens.revoke", ownerHeaders, { token_id: "tok_\u0000" }, "4xx", {
    bigBytes: 1.5 * MB,
    tooBigBytes: 3 * MB,
  });
  for (const [what, path] of [
    // A query without input ignores what is sent as input: still only the caller's own data.
    ["input not JSON", "/api/trpc/me.get?input=%7B"],
    ["input invalid UTF-8", "/api/trpc/workspaces.get?input=%7B%22slug%22%3A%22%FF%FE%22%7D"],
    ["unicode slug", `/api/trpc/workspaces.get?input=${encodeURIComponent(JSON.stringify({ slug: "café" }))}`],
    ["NUL in slug", `/api/trpc/workspaces.get?input=${encodeURIComponent(JSON.stringify({ slug: "a\u0000b" }))}`],
    ["wrong type", `/api/trpc/workspaces.get?input=${encodeURIComponent(JSON.stringify({ slug: 7 }))}`],
    ["deep nesting in input", `/api/trpc/workspaces.get?input=${encodeURIComponent(deepObject(2_000))}`],
    ["batch with garbage", "/api/trpc/me.get,workspaces.get?batch=1&input=%7B%220%22%3A1%7D"],
    ["unknown procedure", "/api/trpc/admin.dropDatabase"],
    ["path traversal", "/api/trpc/..%2F..%2Fetc%2Fpasswd"],
    ["mutation called with GET", `/api/trpc/auth.requestCode?input=${encodeURIComponent(JSON.stringify({ email: "a@b.test" }))}`],
  ] as const) {
    const readOnly = what === "input not JSON" || what === "batch with garbage";
    cases.push({ route: "GET /api/trpc/*", what, expect: readOnly ? "safe" : "4xx", run: get(path, { cookie: api.cookie }) });
  }
  cases.push({ route: "POST /api/trpc/*", what: "query called with POST", expect: "4xx", run: post("/api/trpc/me.get", "{}", ownerHeaders) });

  // MCP.
  const mcpHeaders = { ...JSON_TYPE, accept: "application/json, text/event-stream", authorization: bearer };
  const call = (name: string, args: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
  jsonRoute(
    "POST /mcp",
    "/mcp",
    mcpHeaders,
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create_page", arguments: { slug: "café" } } },
    "mcp",
    { bigBytes: 4.5 * MB, tooBigBytes: 6 * MB },
  );
  for (const s of UNICODE_SLUGS)
    cases.push({
      route: "POST /mcp",
      what: `create_page with slug ${JSON.stringify(s).slice(0, 24)}`,
      expect: "mcp",
      run: post("/mcp", call("create_page", { slug: s, title: "t", body_markdown: "x" }), mcpHeaders),
    });
  for (const [what, body] of [
    ["create_page with wrong types", call("create_page", { slug: 1, title: [], body_markdown: {} })],
    ["create_page with NUL in every field", call("create_page", { slug: "nul\u0000", title: "t\u0000", body_markdown: "\u0000" })],
    ["create_workspace with NUL in its name", call("create_workspace", { slug: "ctl-nul-name", name: "a\u0000b" })],
    ["create_workspace with a newline in its name", call("create_workspace", { slug: "ctl-lf-name", name: "a\nb" })],
    ["create_page with body_markdown and body_html", call("create_page", { slug: "both-bodies", title: "t", body_markdown: "x", body_html: "<p>x</p>" })],
    ["create_page with a 2 MB body", call("create_page", { slug: "too-big-body", title: "t", body_markdown: "x".repeat(2 * MB) })],
    ["create_page with deep nesting in arguments", call("create_page", 0).replace('"arguments":0', `"arguments":${deepObject(3_000)}`)],
    ["update_page with a stale negative version", call("update_page", { slug: "does-not-exist", body_markdown: "x", expected_version: -1 })],
    ["unknown tool", call("drop_everything", {})],
    ["tool name with NUL", call("create_page\u0000", {})],
    ["arguments as a string", call("create_page", "slug=x")],
    ["jsonrpc 1.0", JSON.stringify({ jsonrpc: "1.0", id: 1, method: "tools/list" })],
    ["id as an object", JSON.stringify({ jsonrpc: "2.0", id: { x: 1 }, method: "tools/list" })],
    ["method as a number", JSON.stringify({ jsonrpc: "2.0", id: 1, method: 7 })],
    ["unknown method", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "admin/shutdown" })],
    [
      "batch of 1000 calls",
      JSON.stringify(Array.from({ length: 1000 }, (_, i) => JSON.parse(call("create_page", { slug: `batch-${i}`, title: 1 })) as unknown)),
    ],
    ["resources/read outside artifact://", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "file:///etc/passwd" } })],
    ["resources/read with traversal", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "artifact://../../x" } })],
    [
      "initialize with a bogus protocol version",
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "\u0000", capabilities: 7, clientInfo: null } }),
    ],
  ] as const) {
    cases.push({ route: "POST /mcp", what, expect: "mcp", run: post("/mcp", body, mcpHeaders) });
  }
  for (const [what, headers] of [
    ["no Accept header", { ...JSON_TYPE, authorization: bearer }],
    ["Accept text/html only", { ...JSON_TYPE, accept: "text/html", authorization: bearer }],
    ["Basic credentials", { ...mcpHeaders, authorization: "Basic YWRtaW46YWRtaW4=" }],
    ["Bearer with a forged token", { ...mcpHeaders, authorization: "Bearer service_mcp_forged" }],
    ["Bearer with 8 KB of token", { ...mcpHeaders, authorization: `Bearer ${"x".repeat(7_000)}` }],
    ["Bearer with unicode", { ...mcpHeaders, authorization: "Bearer tökén" }],
    ["cross-site Origin", { ...mcpHeaders, origin: "https://evil.example" }],
    ["Origin null", { ...mcpHeaders, origin: "null" }],
    ["Mcp-Session-Id of garbage", { ...mcpHeaders, "mcp-session-id": "\u00ff".repeat(10) }],
  ] as const) {
    // The server is stateless: a session id is ignored, and whoami is a valid read.
    cases.push({ route: "POST /mcp", what, expect: what.startsWith("Mcp-Session-Id") ? "safe" : "mcp", run: post("/mcp", call("whoami", {}), headers) });
  }
  for (const method of ["GET", "DELETE", "PUT", "PATCH"]) {
    cases.push({
      route: `${method} /mcp`,
      what: `${method} with a body`,
      expect: "4xx",
      run: async () => {
        const r = await httpCall(`${base}/mcp`, { method, headers: mcpHeaders, body: call("whoami", {}) });
        return { status: r.status, body: r.body };
      },
    });
  }

  // Browser reads with odd paths: 404 (or the redirect / SPA page), never 5xx, never a header
  // that the path put there.
  const weird = [
    "caf%C3%A9",
    "%F0%9F%98%80",
    "%00",
    "%FF%FE",
    "..%2F..%2Fetc%2Fpasswd",
    "%2e%2e",
    "x".repeat(5_000),
    "%0D%0ASet-Cookie:%20injected=1",
    "a%20b",
    "%E2%80%AE",
  ];
  for (const w of weird) {
    // nginx normalises /a/%2e%2e to "/", which redirects to /app/.
    const dots = w === "%2e%2e";
    cases.push({ route: "GET /a/{slug}", what: `slug ${w.slice(0, 24)}`, expect: dots ? "safe" : "4xx", run: get(`/a/${w}`, { cookie: api.cookie }) });
    cases.push({ route: "GET /artifacts/{pageId}", what: `id ${w.slice(0, 24)}`, expect: dots ? "safe" : "4xx", run: get(`/artifacts/${w}`) });
    cases.push({ route: "GET /b/{slug}", what: `slug ${w.slice(0, 24)}`, expect: "safe", run: get(`/b/${w}`) });
    cases.push({ route: "GET /b/{slug}/{pageSlug}", what: `page ${w.slice(0, 24)}`, expect: "safe", run: get(`/b/x/${w}`) });
    cases.push({ route: "GET /app/*", what: `path ${w.slice(0, 24)}`, expect: "safe", run: get(`/app/buckets/${w}`) });
    cases.push({
      route: "GET discovery",
      what: `/.well-known/oauth-protected-resource/${w.slice(0, 16)}`,
      expect: "safe",
      run: get(`/.well-known/oauth-protected-resource/${w}`),
    });
    cases.push({ route: "GET discovery", what: `/auth.md?${w.slice(0, 16)}`, expect: "safe", run: get(`/auth.md?x=${w}`) });
    cases.push({ route: "GET discovery", what: `/docs/connect/agents/${w.slice(0, 16)}`, expect: "safe", run: get(`/docs/connect/agents/${w}`) });
  }
  // The SPA's static files: a missing asset (a stale chunk after a deploy) is a 404, a range
  // past the end a 416, never taken for a bad JSON body.
  const asset = /\/app\/assets\/[\w.-]+\.js/.exec(await (await fetch(`${base}/app/`)).text())?.[0];
  if (!asset) throw new Error("no script asset in /app/");
  cases.push({ route: "GET /app/assets/*", what: "an asset that does not exist", expect: 404, run: get("/app/assets/index-doesnotexist.js") });
  cases.push({ route: "GET /app/assets/*", what: "an asset path with traversal", expect: "4xx", run: get("/app/assets/..%2f..%2findex.html") });
  cases.push({ route: "GET /app/assets/*", what: "a range past the end of an asset", expect: 416, run: get(asset, { range: "bytes=99999999-" }) });
  cases.push({
    route: "GET /healthz",
    what: "with a query and odd headers",
    expect: "safe",
    run: get("/healthz?%FF=%00", { "x-forwarded-for": "\u00ff", "x-forwarded-proto": "gopher" }),
  });

  // What no HTTP client library would send: straight onto the socket.
  const host = new URL(base).host;
  for (const [what, bytes] of [
    [
      "raw invalid UTF-8 in the path",
      Buffer.concat([Buffer.from("GET /a/"), Buffer.from([0xff, 0xfe, 0x80]), Buffer.from(` HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)]),
    ],
    ["raw NUL in the path", Buffer.from(`GET /a/x\u0000y HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, "latin1")],
    ["CR/LF injected in a header value", `GET /a/x HTTP/1.1\r\nHost: ${host}\r\nX-Test: a\rSet-Cookie: injected=1\r\nConnection: close\r\n\r\n`],
    ["NUL in a header value", Buffer.from(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\nX-Test: a\u0000b\r\nConnection: close\r\n\r\n`, "latin1")],
    ["bare LF line endings", `GET /healthz HTTP/1.1\nHost: ${host}\nConnection: close\n\n`],
    [
      "Content-Length and Transfer-Encoding both",
      `POST /agent/auth HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    ],
    [
      "two different Content-Lengths",
      `POST /agent/auth HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 40\r\nConnection: close\r\n\r\n{}`,
    ],
    [
      "invalid chunk size",
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    ],
    // nginx answers 501 here, as RFC 9112 asks for a transfer coding it does not know (see below).
    [
      "Transfer-Encoding obfuscated",
      `POST /agent/auth HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nTransfer-Encoding: xchunked\r\nConnection: close\r\n\r\n{}`,
    ],
    ["header of 20 KB", `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${"x".repeat(20_000)}\r\nConnection: close\r\n\r\n`],
    ["request line of 20 KB", `GET /a/${"x".repeat(20_000)} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`],
    ["unknown method", `BREW /a/x HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`],
    ["HTTP/1.0 without Host", "GET /api/trpc/me.get HTTP/1.0\r\n\r\n"],
    ["absolute-form target to another host", `GET http://evil.example/healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`],
    ["Host header with CR/LF payload", `GET /healthz HTTP/1.1\r\nHost: evil.example\r\n X-Folded: y\r\nConnection: close\r\n\r\n`],
  ] as const) {
    cases.push({ route: "raw HTTP", what, expect: "safe", run: raw(bytes) });
  }

  const before = await withDb(countAll);
  const outcomes: Outcome[] = [];
  const queue = [...cases];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const { status, body, location } = await c.run().catch((err: unknown) => ({
          status: 0,
          body: err instanceof Error ? err.message : String(err),
          location: undefined,
        }));
        let ok: boolean;
        let note = "";
        if (c.what === "Transfer-Encoding obfuscated" && status === 501)
          ok = true; // nginx, per RFC 9112 §6.1
        else if (typeof c.expect === "number") ok = status === c.expect;
        else if (c.expect === "4xx") ok = status >= 400 && status < 500;
        else if (c.expect === "safe") ok = status < 500 && !/injected=1/i.test(location ?? "");
        else if (status >= 400 && status < 500) ok = true;
        else if (status === 202 && body === "") {
          // Messages the MCP transport takes as notifications (an empty batch): accepted, nothing run.
          ok = true;
          note = "202, nothing run";
        } else if (status === 200) {
          // A JSON-RPC error, or a tool result flagged isError: a refusal at the protocol level.
          ok = /"error"\s*:|"isError"\s*:\s*true/.test(body) && !/"isError"\s*:\s*false/.test(body);
          note = "200 with a JSON-RPC or tool error";
        } else ok = false;
        if (status === 0 && c.route !== "raw HTTP") ok = false;
        outcomes.push({ ...c, status, ok, note: note || body.slice(0, 160) });
      }
    }),
  );
  const after = await withDb(countAll);
  writeFileSync(
    path.join(stack.artifactsDir, "reliability", "bad-input-outcomes.txt"),
    outcomes.map((o) => `${o.ok ? "ok  " : "FAIL"} ${o.status} ${o.route} | ${o.what} | ${o.note.replace(/\s+/g, " ").slice(0, 160)}`).join("\n"),
  );

  const routes = [...new Set(outcomes.map((o) => o.route))];
  const rows = routes.map((route) => {
    const os = outcomes.filter((o) => o.route === route);
    const count = (f: (o: Outcome) => boolean) => os.filter(f).length;
    return [
      `\`${route}\``,
      os.length,
      count((o) => o.status >= 400 && o.status < 500),
      count((o) => o.status === 200 && o.note.startsWith("200 with")),
      count((o) => o.status > 0 && o.status < 400 && !o.note.startsWith("200 with")),
      count((o) => o.status === 0),
      count((o) => o.status >= 500),
    ];
  });
  const fiveXx = outcomes.filter((o) => o.status >= 500 && !(o.what === "Transfer-Encoding obfuscated" && o.status === 501));
  const failed = outcomes.filter((o) => !o.ok);
  const statuses = [...new Set(outcomes.map((o) => o.status))].sort((x, y) => x - y);
  writeSection(
    "bad-input",
    3,
    "Bad input on every public route and on /mcp",
    [
      `${outcomes.length} bad requests through nginx (statuses seen: ${statuses.map((s) => (s === 0 ? "closed" : s)).join(", ")}). Document counts before and after, in ${Object.keys(before).length} collections: ${
        JSON.stringify(before) === JSON.stringify(after)
          ? "identical (nothing written)"
          : `different: ${Object.keys(after)
              .filter((k) => after[k] !== before[k])
              .map((k) => `${k} ${before[k]} → ${after[k]}`)
              .join(", ")}`
      }.`,
      "",
      table(["route", "tried", "4xx", "200 + JSON-RPC/tool error", "2xx/3xx (reads, redirects)", "closed by nginx", "5xx"], rows),
      "",
      "The one 501 is nginx refusing an unknown `Transfer-Encoding` before anything reaches the apps, as RFC 9112 §6.1 asks; it is not counted as a 5xx of Atelier's.",
      "",
      fiveXx.length === 0 ? "5xx: **none**." : `5xx: **${fiveXx.length}**: ${fiveXx.map((o) => `${o.route} ${o.what} → ${o.status}`).join("; ")}`,
    ].join("\n"),
  );

  expect(fiveXx.map((o) => `${o.route} | ${o.what} → ${o.status} ${o.note}`)).toEqual([]);
  expect(failed.map((o) => `${o.route} | ${o.what} → ${o.status} ${o.note}`)).toEqual([]);
  expect(after, "nothing written").toEqual(before);
});
