import { sha256 } from "@atelier/shared/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signIn, startTestServer, trpcData, type TestServer } from "../../testing";

let srv: TestServer;
let b: Browser;
beforeAll(async () => {
  srv = await startTestServer({}, "tokens");
  b = await signIn(srv, `tokens-${Date.now()}@example.com`);
});
afterAll(async () => {
  await srv.close();
});

interface Issued {
  token_id: string;
  credential: string;
  scopes: string[];
  expires_at: string;
}
interface View {
  token_id: string;
  hint: string;
  status: string;
  workspaces: string[] | null;
  label: string;
}

describe("tokens over tRPC", () => {
  it("creates a token whose credential is shown once and stored only as a hash", async () => {
    const issued = await trpcData<Issued>(await b.mutation("tokens.create", { label: "Claude", scopes: ["mcp:read", "mcp:write"], expiresInDays: 30 }));
    expect(issued.credential).toMatch(/^service_mcp_[A-Za-z0-9_-]{43}$/);
    expect(issued.token_id).toMatch(/^tok_/);
    const days = (Date.parse(issued.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    const stored = await srv.database.c.tokens.findOne({ _id: issued.token_id });
    expect(stored?.hash).toBe(sha256(issued.credential));
    expect(JSON.stringify(stored)).not.toContain(issued.credential.slice(12));

    const list = await trpcData<View[]>(await b.query("tokens.list"));
    const listed = list.find((t) => t.token_id === issued.token_id);
    expect(listed?.hint).toBe(`${issued.credential.slice(0, 18)}…`);
    expect(JSON.stringify(list)).not.toContain(issued.credential.slice(18));
  });

  it("defaults to 90 days and refuses more than 365", async () => {
    const issued = await trpcData<Issued>(await b.mutation("tokens.create", { label: "default", scopes: ["mcp:read"] }));
    expect(Math.round((Date.parse(issued.expires_at) - Date.now()) / 86_400_000)).toBe(90);
    expect((await b.mutation("tokens.create", { label: "long", scopes: ["mcp:read"], expiresInDays: 366 })).status).toBe(400);
    expect((await b.mutation("tokens.create", { label: "none", scopes: [] })).status).toBe(400);
    expect((await b.mutation("tokens.create", { label: "bad", scopes: ["admin"] })).status).toBe(400);
    const before = await srv.database.c.tokens.countDocuments({});
    expect((await b.mutation("tokens.create", { label: "nul\u0000byte", scopes: ["mcp:read"] })).status).toBe(400);
    expect((await b.mutation("tokens.create", { label: "line\nbreak", scopes: ["mcp:read"] })).status).toBe(400);
    expect(await srv.database.c.tokens.countDocuments({})).toBe(before);
  });

  it("restricts a token to chosen workspaces, and only to the person's own", async () => {
    const me = await trpcData<{ defaultWorkspace: string }>(await b.query("me.get"));
    const ok = await trpcData<Issued>(await b.mutation("tokens.create", { label: "one", scopes: ["mcp:read"], workspaces: [me.defaultWorkspace] }));
    const list = await trpcData<View[]>(await b.query("tokens.list"));
    expect(list.find((t) => t.token_id === ok.token_id)?.workspaces).toEqual([me.defaultWorkspace]);
    const other = await signIn(srv, `other-${Date.now()}@example.com`);
    const theirs = await trpcData<{ defaultWorkspace: string }>(await other.query("me.get"));
    const refused = await b.mutation("tokens.create", { label: "theirs", scopes: ["mcp:read"], workspaces: [theirs.defaultWorkspace] });
    expect(refused.status).toBe(400);
  });

  it("rotates (same token id, new secret, old secret dead) and revokes", async () => {
    const first = await trpcData<Issued>(await b.mutation("tokens.create", { label: "rot", scopes: ["mcp:read"] }));
    const rotated = await trpcData<Issued>(await b.mutation("tokens.rotate", { token_id: first.token_id }));
    expect(rotated.token_id).toBe(first.token_id);
    expect(rotated.credential).not.toBe(first.credential);
    expect(await srv.database.c.tokens.countDocuments({ hash: sha256(first.credential) })).toBe(0);
    expect(await srv.database.c.tokens.countDocuments({ hash: sha256(rotated.credential) })).toBe(1);

    const revoked = await trpcData<View>(await b.mutation("tokens.revoke", { token_id: first.token_id }));
    expect(revoked.status).toBe("revoked");
    expect((await b.mutation("tokens.revoke", { token_id: first.token_id })).status).toBe(409);
  });

  it("does not let one person touch another's tokens", async () => {
    const mine = await trpcData<Issued>(await b.mutation("tokens.create", { label: "mine", scopes: ["mcp:read"] }));
    const other = await signIn(srv, `thief-${Date.now()}@example.com`);
    expect((await other.mutation("tokens.revoke", { token_id: mine.token_id })).status).toBe(404);
    expect((await other.mutation("tokens.rotate", { token_id: mine.token_id })).status).toBe(404);
    expect((await trpcData<View[]>(await other.query("tokens.list"))).length).toBe(0);
  });

  it("needs a session", async () => {
    expect((await new Browser(srv.url).query("tokens.list")).status).toBe(401);
  });
});

describe("protected resource metadata", () => {
  it("is served at both well-known paths", async () => {
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const res = await fetch(`${srv.url}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        resource: `${srv.config.BASE_URL}/mcp`,
        authorization_servers: [srv.config.BASE_URL],
        scopes_supported: ["mcp:read", "mcp:write"],
        bearer_methods_supported: ["header"],
        resource_name: "Atelier MCP server",
        resource_documentation: `${srv.config.BASE_URL}/docs/connect/agents`,
      });
    }
  });
});
