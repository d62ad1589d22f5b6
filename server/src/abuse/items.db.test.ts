// Issue 13, the findings an attacker reaches through the app's HTTP surface (tRPC, browser
// routes, /agent/auth), each sent as the attacker sent it. Every test here failed before its
// fix (docs/reliability.md, "Abuse resistance", says which test proves which item).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createPage } from "@atelier/shared/domain/pages/create-page";
import { extractCode } from "@atelier/shared/testing";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signIn, startTestServer, trpcData, type TestServer } from "../testing";

let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

interface TrpcError {
  error: { data: { appCode: string | null; httpStatus: number } };
}
async function appCode(res: Response): Promise<string | null> {
  return ((await res.json()) as TrpcError).error.data.appCode;
}

describe("the app's HTTP surface", () => {
  let srv: TestServer;
  let victim: Browser;
  let attacker: Browser;
  let victimEmail: string;
  let victimId: string;
  let attackerWs: string;

  beforeAll(async () => {
    // Racing adds must reach the membership code; the invitation caps have their own tests.
    srv = await startTestServer({ INVITES_PER_INVITER_PER_HOUR: "1000", INVITES_PER_WORKSPACE_PER_HOUR: "1000" }, "abuseitems");
    victimEmail = `${uniq("victim")}@example.com`;
    victim = await signIn(srv, victimEmail);
    victimId = (await trpcData<{ id: string }>(await victim.query("me.get"))).id;
    attacker = await signIn(srv, `${uniq("attacker")}@example.com`);
    attackerWs = (await trpcData<{ defaultWorkspace: string }>(await attacker.query("me.get"))).defaultWorkspace;
  });
  afterAll(async () => {
    await srv.close();
  });

  async function publicWorkspace(owner: Browser): Promise<string> {
    const slug = uniq("pub");
    expect((await owner.mutation("workspaces.create", { slug, name: "Open" })).status).toBe(200);
    expect((await owner.mutation("workspaces.setVisibility", { slug, visibility: "public" })).status).toBe(200);
    return slug;
  }

  it("item 2: another person's token id cannot be cut off in my workspace, and my agents list never names them", async () => {
    const ws = await publicWorkspace(victim);
    const issued = await trpcData<{ token_id: string }>(await victim.mutation("tokens.create", { label: "Victim's agent", scopes: ["mcp:read", "mcp:write"] }));
    // The victim's agent writes a public page, as it would over MCP (seeded through the domain).
    const token = await srv.database.c.tokens.findOne({ _id: issued.token_id });
    if (!token) throw new Error("no token");
    const page = uniq("agent-page");
    await createPage(srv.deps, { kind: "token", token }, { slug: page, title: "By the agent", body_markdown: "x", workspace: ws });

    // What an outsider reads of the public page's history carries no ids.
    const history = await (await attacker.query("pages.history", { slug: page })).text();
    expect(history).not.toContain(issued.token_id);
    expect(history).not.toContain(victimId);
    expect(history).not.toContain(victimEmail);

    const before = await srv.database.c.workspaces.findOne({ slug: attackerWs });
    const block = await attacker.mutation("workspaces.blockAgent", { slug: attackerWs, token_id: issued.token_id });
    expect(block.status).toBe(404);
    expect(await appCode(block)).toBe("not_found");
    const after = await srv.database.c.workspaces.findOne({ slug: attackerWs });
    expect(after?.blockedTokenIds).toEqual(before?.blockedTokenIds);
    expect(await srv.database.c.events.countDocuments({ workspaceId: after?._id ?? "", type: "agent.blocked" })).toBe(0);

    const agents = await attacker.query("workspaces.agents", { slug: attackerWs });
    expect(agents.status).toBe(200);
    const text = await agents.text();
    expect(text).not.toContain(victimEmail);
    expect(text).not.toContain(issued.token_id);
    // And the victim's public workspace's agents are for members only.
    expect((await attacker.query("workspaces.agents", { slug: ws })).status).toBe(403);
  });

  it("item 3: a token cannot be confined to someone else's public workspace, so it never joins its agents list", async () => {
    const ws = await publicWorkspace(victim);
    const tokensBefore = await srv.database.c.tokens.countDocuments({});
    const res = await attacker.mutation("tokens.create", { label: "Squatter", scopes: ["mcp:read"], workspaces: [ws] });
    expect(res.status).toBe(400);
    expect(await appCode(res)).toBe("invalid_request");
    expect(await srv.database.c.tokens.countDocuments({})).toBe(tokensBefore);
    const agents = await trpcData<{ label: string }[]>(await victim.query("workspaces.agents", { slug: ws }));
    expect(agents.map((a) => a.label)).not.toContain("Squatter");
  });

  it("item 5: lowering a member's role takes effect, and racing adds leave one membership per person and one owner", async () => {
    const ws = uniq("team");
    expect((await victim.mutation("workspaces.create", { slug: ws, name: "Team" })).status).toBe(200);
    const email = `${uniq("member")}@example.com`;
    expect((await victim.mutation("workspaces.members.add", { slug: ws, email, role: "editor" })).status).toBe(200);
    expect((await victim.mutation("workspaces.members.add", { slug: ws, email, role: "viewer" })).status).toBe(200);
    const member = await signIn(srv, email);
    const refused = await member.mutation("pages.create", { slug: uniq("p"), title: "t", body_markdown: "x", workspace: ws });
    expect(refused.status).toBe(403);
    let doc = await srv.database.c.workspaces.findOne({ slug: ws });
    expect(doc?.members.filter((m) => m.userId !== victimId)).toEqual([expect.objectContaining({ role: "viewer" })]);

    // Twenty adds of the same person with different roles at once.
    const raced = `${uniq("raced")}@example.com`;
    const roles = ["editor", "viewer", "owner"] as const;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => victim.mutation("workspaces.members.add", { slug: ws, email: raced, role: roles[i % 3] })),
    );
    expect(answers.filter((r) => r.status >= 500)).toEqual([]);
    doc = await srv.database.c.workspaces.findOne({ slug: ws });
    const ids = doc?.members.map((m) => m.userId) ?? [];
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(3);
    // Concurrent demotions of the two owners: one owner always stays.
    const racedId = (await srv.database.c.users.findOne({ email: raced }))?._id ?? "";
    await victim.mutation("workspaces.members.setRole", { slug: ws, user_id: racedId, role: "owner" });
    await Promise.all([
      victim.mutation("workspaces.members.setRole", { slug: ws, user_id: racedId, role: "viewer" }),
      victim.mutation("workspaces.members.setRole", { slug: ws, user_id: victimId, role: "viewer" }),
    ]);
    doc = await srv.database.c.workspaces.findOne({ slug: ws });
    expect(doc?.members.filter((m) => m.role === "owner").length).toBeGreaterThanOrEqual(1);
    expect(new Set(doc?.members.map((m) => m.userId)).size).toBe(doc?.members.length);
  });

  it("item 7: a forged list_rows cursor on a public table is 400 invalid_cursor for a visitor, never a 500 or a query", async () => {
    const ws = await publicWorkspace(victim);
    const table = uniq("tbl");
    expect(
      (await victim.mutation("collections.create", { workspace: ws, slug: table, name: "T", kind: "table", columns: [{ name: "name", type: "text" }] })).status,
    ).toBe(200);
    expect((await victim.mutation("rows.insert", { workspace: ws, collection: table, rows: [{ name: "a" }, { name: "b" }, { name: "c" }] })).status).toBe(200);
    const visitor = new Browser(srv.url);
    const first = await trpcData<{ next_cursor: string }>(await visitor.query("rows.list", { workspace: ws, collection: table, limit: 1 }));
    expect(first.next_cursor).toBeTruthy();
    const [body, mac] = first.next_cursor.split(".");
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const forged = [
      "garbage",
      b64({ v: { $regex: ".*" }, id: "row_x" }),
      `${b64({ v: { $regex: ".*" }, id: { $gt: "" } })}.${mac}`,
      `${b64({ after: { $ne: null } })}.${mac}`,
      `${body}x.${mac}`,
      `${body}.${"A".repeat(mac?.length ?? 22)}`,
      `${b64("__proto__")}.${mac}`,
      ".",
      "x".repeat(1000),
    ];
    for (const cursor of forged) {
      const res = await visitor.query("rows.list", { workspace: ws, collection: table, limit: 1, cursor });
      expect(res.status, cursor).toBe(400);
      expect(await appCode(res), cursor).toBe("invalid_cursor");
    }
    // A cursor of another list is not a rows cursor either.
    const pageWs = await publicWorkspace(victim);
    for (const s of ["a1", "a2"]) await victim.mutation("pages.create", { slug: uniq(s), title: s, body_markdown: "x", workspace: pageWs });
    const pages = await trpcData<{ next_cursor: string }>(await visitor.query("pages.list", { workspace: pageWs, limit: 1 }));
    const wrongKind = await visitor.query("rows.list", { workspace: ws, collection: table, limit: 1, cursor: pages.next_cursor });
    expect(await appCode(wrongKind)).toBe("invalid_cursor");
    // The real one still works.
    expect((await visitor.query("rows.list", { workspace: ws, collection: table, limit: 1, cursor: first.next_cursor })).status).toBe(200);
  });

  it("item 9: a share link's secret never reaches the request log", async () => {
    const ws = uniq("shared");
    await victim.mutation("workspaces.create", { slug: ws, name: "Shared" });
    const link = await trpcData<{ url: string }>(await victim.mutation("workspaces.shareLinks.create", { slug: ws }));
    const path = new URL(link.url).pathname;
    const secret = path.split("/")[2] ?? "";
    expect(secret.length).toBeGreaterThan(10);
    expect((await new Browser(srv.url).request(path)).status).toBe(200);
    expect((await new Browser(srv.url).request(`${path}/no-such-page?token=${secret}`)).status).toBe(404);
    await new Promise((r) => setTimeout(r, 50));
    const logged = srv.logLines.join("");
    expect(logged).toContain("/s/[redacted]");
    expect(logged).not.toContain(secret);
  });

  it("item 11: reserved column names are refused, and a __proto__ key in a row neither writes nor breaks the table", async () => {
    const ws = uniq("cols");
    await victim.mutation("workspaces.create", { slug: ws, name: "Cols" });
    const before = await srv.database.c.collections.countDocuments({});
    for (const name of ["__proto__", "constructor", "prototype", "_id", "hasOwnProperty"]) {
      const res = await victim.request("/api/trpc/collections.create", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"workspace":"${ws}","slug":"${uniq("t")}","name":"T","kind":"table","columns":[{"name":"${name}","type":"text"}]}`,
      });
      expect(res.status, name).toBe(400);
      expect(JSON.stringify(await res.json()), name).toContain("reserved_name");
    }
    expect(await srv.database.c.collections.countDocuments({})).toBe(before);

    const table = uniq("tbl");
    await victim.mutation("collections.create", { workspace: ws, slug: table, name: "T", kind: "table", columns: [{ name: "name", type: "text" }] });
    const insert = (row: string) =>
      victim.request("/api/trpc/rows.insert", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"workspace":"${ws}","collection":"${table}","rows":[${row}]}`,
      });
    const rowsBefore = await srv.database.c.rows.countDocuments({});
    // Keys that are not columns are refused by name; nothing is written.
    for (const key of ["constructor", "prototype", "hasOwnProperty", "_id"]) {
      const res = await insert(`{"${key}":"x"}`);
      expect(res.status, key).toBe(400);
      expect(JSON.stringify(await res.json()), key).toContain("unknown_column");
    }
    expect(await srv.database.c.rows.countDocuments({})).toBe(rowsBefore);
    // A `__proto__` key never reaches the row (parsing drops it): it can neither set a value nor a prototype.
    const polluted = await trpcData<{ row_ids: string[] }>(await insert(`{"__proto__":{"name":"from the prototype"}}`));
    const stored = await srv.database.c.rows.findOne({ _id: polluted.row_ids[0] ?? "" });
    expect(stored?.values).toEqual({ name: null });
    expect(({} as Record<string, unknown>).name).toBeUndefined();
    // The table still takes ordinary rows.
    expect((await victim.mutation("rows.insert", { workspace: ws, collection: table, rows: [{ name: "fine" }] })).status).toBe(200);
  });
});

describe("item 10: a throttled verified-email registration writes nothing", () => {
  let srv: TestServer;
  let jwks: Server;
  let issuer: string;
  let privateKey: CryptoKey;
  beforeAll(async () => {
    const pair = await generateKeyPair("ES256");
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" };
    jwks = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((r) => jwks.listen(0, "127.0.0.1", r));
    issuer = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}`;
    srv = await startTestServer(
      {
        VERIFIED_EMAIL_REGISTRATION_ENABLED: "true",
        TRUSTED_ASSERTION_ISSUERS: JSON.stringify([{ issuer, jwks_uri: `${issuer}/jwks` }]),
        OTP_SENDS_PER_EMAIL_PER_HOUR: "3",
      },
      "abuseverified",
    );
  });
  afterAll(async () => {
    await srv.close();
    await new Promise<void>((r) => jwks.close(() => r()));
  });

  it("refuses past the per-address send limit with 429 before any registration record is written", async () => {
    const email = `${uniq("verified")}@example.com`;
    // A confirmed account; its sign-in code is the first of the three sends this hour.
    const b = new Browser(srv.url);
    await b.mutation("auth.requestCode", { email });
    await b.mutation("auth.verifyCode", { email, code: extractCode((await srv.smtp.waitFor(email)).raw) });
    const assertion = () =>
      new SignJWT({ email, email_verified: true, client_id: "agent-x" })
        .setProtectedHeader({ alg: "ES256", kid: "k1", typ: "oauth-id-jag+jwt" })
        .setIssuer(issuer)
        .setSubject("user-1")
        .setAudience(srv.config.BASE_URL)
        .setJti(`jti-${Math.random()}`)
        .setIssuedAt()
        .setExpirationTime("300s")
        .sign(privateKey);
    const post = async () =>
      fetch(`${srv.url}/agent/auth`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ type: "verified_email", requested_credential_type: "mcp_write_token", assertion: await assertion(), agent_label: "Bot" }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await post()).status);
    expect(statuses).toEqual([201, 201, 429, 429, 429, 429]);
    expect(await srv.database.c.registrations.countDocuments({ type: "verified_email" })).toBe(2);
    expect(await srv.database.c.loginCodes.countDocuments({ purpose: "verified_email" })).toBe(2);
  });
});

describe("item 12: forwarded headers count only from TRUST_PROXY peers", () => {
  let srv: TestServer;
  beforeAll(async () => {
    // The test client (loopback) is not a trusted proxy here.
    srv = await startTestServer({ TRUST_PROXY: "10.255.255.1" }, "abusefwd");
  });
  afterAll(async () => {
    await srv.close();
  });

  it("a cross-site POST that names its own site in X-Forwarded-Host is still refused, and sends nothing", async () => {
    const email = `${uniq("fwd")}@example.com`;
    const variants: Record<string, string>[] = [
      { origin: "https://evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
      { origin: "http://evil.example", "x-forwarded-host": "evil.example" },
      { origin: "https://evil.example", forwarded: "host=evil.example;proto=https", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
    ];
    for (const headers of variants) {
      const res = await fetch(`${srv.url}/api/trpc/auth.requestCode`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ email }),
      });
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
    const res = await fetch(`${srv.url}/api/artifacts/pages`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
      body: JSON.stringify({ slug: "x", title: "x", body_markdown: "x" }),
    });
    expect(res.status).toBe(403);
    expect(srv.smtp.messages.length).toBe(0);
    expect(await srv.database.c.loginCodes.countDocuments({})).toBe(0);
  });
});
