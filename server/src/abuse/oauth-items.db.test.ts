// Issue 23, items 4–8: the OAuth authorization server as an attacker reaches it — a client
// registered by a stranger, requests bent to send a person elsewhere, grants that should be
// over, registrations that would make the server fetch URLs, misleading names, floods. Each
// test here failed before its fix (docs/reliability.md, "The abuse corpus").
import { advanceClock, resetClock } from "@atelier/shared/domain/clock";
import { sweepOnce } from "@atelier/shared/domain/sweeper";
import { authenticateBearer } from "@atelier/shared/domain/tokens";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Browser, signIn, startTestServer, trpcData, type TestServer } from "../testing";
import {
  authorizePath,
  connect,
  decide,
  pathOf,
  pkce,
  register,
  registerPublicClient,
  startAuthorization,
  startDocumentServer,
  tokenRequest,
  type AuthorizeParams,
  type TokenSet,
} from "../features/oauth/oauth-testing";

let srv: TestServer;
let victim: Browser;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;
/** A stranger's site: every client here registers its redirect URI on it. */
const EVIL = "https://evil.example/cb";

beforeAll(async () => {
  srv = await startTestServer({ OAUTH_AUTHORIZE_REQUESTS_PER_IP_PER_MINUTE: "1000" }, "abuseoauth");
  victim = await signIn(srv, `${uniq("victim")}@example.com`);
});
afterAll(async () => {
  await srv.close();
});
afterEach(() => resetClock());

const json = async (res: Response) => (await res.json()) as { error?: string; error_description?: string } & Record<string, unknown>;
/** Everything the grant side keeps: agents (token documents) and the authorization server's records but the failure notes. */
const footprint = async () => ({
  tokens: await srv.database.c.tokens.countDocuments({ kind: "oauth" }),
  grants: await srv.database.c.oauth.countDocuments({ model: "Grant" }),
  records: await srv.database.c.oauth.countDocuments({ model: { $nin: ["ClientDocumentFailure", "Client"] } }),
});
const good = (clientId: string, redirect = EVIL): AuthorizeParams => ({
  client_id: clientId,
  redirect_uri: redirect,
  code_challenge: pkce().challenge,
  code_challenge_method: "S256",
  state: "st",
});
const view = async (browser: Browser, uid: string) =>
  trpcData<{ client: { name: string; identity: string; registered_at: string | null; redirect: { kind: string; text: string } } }>(
    await browser.query("oauth.interaction", { uid }),
  );

describe("item 4: an authorization request that fails is shown here, never sent to a stranger's redirect URI", () => {
  let evilClient: string;
  beforeAll(async () => {
    evilClient = await registerPublicClient(srv, EVIL, "Totally Claude");
  });

  const bent: [string, (id: string) => string][] = [
    ["missing PKCE", (id) => authorizePath({ client_id: id, redirect_uri: EVIL, state: "s" })],
    ["prompt=none without a session", (id) => `${authorizePath(good(id))}&prompt=none`],
    ["a resource other than /mcp", (id) => authorizePath({ ...good(id), resource: "https://elsewhere.example/mcp" })],
    ["response_type=token", (id) => authorizePath({ ...good(id), response_type: "token" })],
    ["response_mode=form_post", (id) => `${authorizePath(good(id))}&response_mode=form_post`],
    ["response_mode=fragment", (id) => `${authorizePath(good(id))}&response_mode=fragment`],
    ["response_mode=web_message", (id) => `${authorizePath(good(id))}&response_mode=web_message`],
    ["scope=openid", (id) => authorizePath({ ...good(id), scope: "openid" })],
    ["an unknown scope beside a real one", (id) => authorizePath({ ...good(id), scope: "mcp:read admin" })],
  ];
  it.each(bent)("%s: an error page on our origin, no Location, nothing stored", async (_what, path) => {
    for (const browser of [new Browser(srv.url), victim]) {
      const before = await footprint();
      const res = await browser.request(path(evilClient), { headers: { accept: "text/html" } });
      expect(res.status, await res.clone().text()).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.headers.get("location")).toBeNull();
      const page = await res.text();
      expect(page).toContain("This sign-in request was refused");
      expect(page).not.toContain("evil.example");
      expect(await footprint()).toEqual(before);
    }
  });

  it("a client metadata document's client gets the same: prompt=none is refused here", async () => {
    const site = await startDocumentServer((req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ client_id: `${site.url}${req.url}`, client_name: "Doc", redirect_uris: [EVIL] }));
    });
    try {
      const res = await new Browser(srv.url).request(`${authorizePath(good(`${site.url}/c.json`))}&prompt=none`, { headers: { accept: "text/html" } });
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.text()).toContain("login_required");
    } finally {
      await site.close();
    }
  });

  it("Deny for a web client does not send the person on by itself; for a program on this computer it does", async () => {
    const uid = await startAuthorization(victim, good(evilClient));
    const decided = await trpcData<{ redirect_to: string; automatic: boolean }>(await victim.mutation("oauth.decide", { uid, allow: false }));
    expect(decided.automatic).toBe(false);
    // Followed by hand (the screen's "go back" link), it carries access_denied.
    const back = await victim.request(pathOf(decided.redirect_to));
    expect(new URL(back.headers.get("location") ?? "").searchParams.get("error")).toBe("access_denied");

    const loopback = "http://127.0.0.1:53999/cb";
    const local = await registerPublicClient(srv, loopback, "Local tool");
    const uid2 = await startAuthorization(victim, good(local, loopback));
    expect((await trpcData<{ automatic: boolean }>(await victim.mutation("oauth.decide", { uid: uid2, allow: false }))).automatic).toBe(true);
  });

  it("what discovery does not name is not served: PAR, the JWKS, client read-back, logout", async () => {
    const asm = await json(await fetch(`${srv.url}/.well-known/oauth-authorization-server`));
    expect(asm.pushed_authorization_request_endpoint).toBeUndefined();
    expect(asm.jwks_uri).toBeUndefined();
    expect(asm.response_modes_supported).toEqual(["query"]);
    const form = { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" } };
    const par = await fetch(`${srv.url}/oauth/par`, { ...form, body: new URLSearchParams({ ...good(evilClient), response_type: "code" } as never).toString() });
    expect(par.status).toBe(404);
    expect(await srv.database.c.oauth.countDocuments({ model: "PushedAuthorizationRequest" })).toBe(0);
    for (const [method, path] of [
      ["GET", "/oauth/jwks"],
      ["GET", `/oauth/register/${evilClient}`],
      ["POST", "/oauth/session/end/confirm"],
      ["GET", "/oauth/session/end"],
      ["POST", "/oauth/authorize"],
      ["POST", "/oauth/introspect"],
      ["POST", "/oauth/device/auth"],
    ] as const) {
      const res = await fetch(`${srv.url}${path}`, { ...form, method, body: method === "POST" ? "" : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await json(res)).toMatchObject({ error: "not_found" });
    }
  });
});

describe("item 5: the app and the authorization server agree on a grant", () => {
  let client: string;
  const REDIRECT = "http://127.0.0.1:53682/cb";
  beforeAll(async () => {
    client = await registerPublicClient(srv, REDIRECT, "Grant agent");
  });
  const statusOf = async (browser: Browser, tokenId: string) =>
    (await trpcData<{ token_id: string; status: string }[]>(await browser.query("tokens.list"))).find((t) => t.token_id === tokenId)?.status;
  const tokenIdOf = async (access: string) => (await authenticateBearer(srv.deps, access))._id;

  it("a refresh token used twice ends the grant, and the app lists the agent as revoked", async () => {
    const tokens = await connect(srv, victim, client, REDIRECT);
    const grantId = await tokenIdOf(tokens.access_token);
    expect(await statusOf(victim, grantId)).toBe("active");
    const refresh = (rt: string) => tokenRequest(srv, { grant_type: "refresh_token", refresh_token: rt, client_id: client });
    expect((await refresh(tokens.refresh_token ?? "")).status).toBe(200);
    expect((await refresh(tokens.refresh_token ?? "")).status).toBe(400);
    expect(await statusOf(victim, grantId)).toBe("revoked");
  });

  it("an authorization code replayed ends the grant, and the app lists the agent as revoked", async () => {
    const p = pkce();
    const uid = await startAuthorization(victim, { ...good(client, REDIRECT), code_challenge: p.challenge });
    const code = (await decide(victim, uid)).searchParams.get("code") ?? "";
    const exchange = () => tokenRequest(srv, { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: client, code_verifier: p.verifier });
    const first = (await (await exchange()).json()) as TokenSet;
    const grantId = await tokenIdOf(first.access_token);
    expect(await statusOf(victim, grantId)).toBe("active");
    expect((await exchange()).status).toBe(400);
    expect(await statusOf(victim, grantId)).toBe("revoked");
  });

  it("after the one workspace a grant is confined to is deleted, its refresh token no longer works", async () => {
    const slug = uniq("confined");
    expect((await victim.mutation("workspaces.create", { slug, name: "Confined" })).status).toBe(200);
    const tokens = await connect(srv, victim, client, REDIRECT, { allow: true, workspaces: [slug], duration_days: 30 });
    expect((await victim.mutation("workspaces.delete", { slug, confirm: slug })).status).toBe(200);
    const r = await tokenRequest(srv, { grant_type: "refresh_token", refresh_token: tokens.refresh_token ?? "", client_id: client });
    expect(r.status).toBe(400);
    expect(await json(r)).toMatchObject({ error: "invalid_grant" });
  });

  it("an authorization that cannot be granted whole (scope=openid) leaves no agent and no grant", async () => {
    const before = await footprint();
    const res = await victim.request(authorizePath({ ...good(client, REDIRECT), scope: "openid mcp:read" }), { headers: { accept: "text/html" } });
    expect(res.status).toBe(400);
    expect(await footprint()).toEqual(before);
  });
});

describe("item 6: dynamic registration is for public clients, fetches nothing, and expires unused", () => {
  it("no client_secret is issued or stored, whatever the request names", async () => {
    const res = await register(srv, { client_name: "No method named", redirect_uris: [EVIL] });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body.client_secret).toBeUndefined();
    expect(body.client_secret_expires_at).toBeUndefined();
    expect(body.token_endpoint_auth_method).toBe("none");
    const stored = await srv.database.c.oauth.findOne({ _id: `Client:${String(body.client_id)}` });
    expect(stored?.payload).not.toContain("client_secret");
    for (const meta of [
      { redirect_uris: [EVIL], token_endpoint_auth_method: "client_secret_basic" },
      { redirect_uris: [EVIL], client_secret: "chosen-by-me" },
    ]) {
      const refused = await register(srv, meta);
      expect(refused.status).toBe(400);
      expect(await json(refused)).toMatchObject({ error: "invalid_client_metadata" });
    }
  });

  it.each(["jwks_uri", "sector_identifier_uri", "request_uris", "backchannel_logout_uri", "post_logout_redirect_uris", "initiate_login_uri"])(
    "%s is refused with invalid_client_metadata, and nothing is fetched or stored",
    async (key) => {
      let hits = 0;
      const site = await startDocumentServer((_req, res) => {
        hits++;
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify([EVIL]));
      });
      try {
        const before = await srv.database.c.oauth.countDocuments({ model: "Client" });
        const url = `${site.url}/x.json`;
        const value = key === "request_uris" || key === "post_logout_redirect_uris" ? [url] : url;
        const res = await register(srv, { redirect_uris: [EVIL], [key]: value, ...(key === "sector_identifier_uri" ? { subject_type: "pairwise" } : {}) });
        expect(res.status).toBe(400);
        expect(await json(res)).toMatchObject({ error: "invalid_client_metadata", error_description: expect.stringContaining(key) });
        expect(hits).toBe(0);
        expect(await srv.database.c.oauth.countDocuments({ model: "Client" })).toBe(before);
      } finally {
        await site.close();
      }
    },
  );

  it("an unused registration expires and the sweeper removes it; a used one lives as long as its grant", async () => {
    const unused = await registerPublicClient(srv, EVIL, "Never used");
    const used = await registerPublicClient(srv, "http://127.0.0.1:53683/cb", "Used");
    await connect(srv, victim, used, "http://127.0.0.1:53683/cb", { allow: true, duration_days: 30 });
    advanceClock(srv.config.OAUTH_UNUSED_CLIENT_TTL_SECONDS + 60);
    await sweepOnce(srv.deps);
    expect(await srv.database.c.oauth.countDocuments({ _id: `Client:${unused}` })).toBe(0);
    expect(await srv.database.c.oauth.countDocuments({ _id: `Client:${used}` })).toBe(1);
    const res = await new Browser(srv.url).request(authorizePath(good(unused)), { headers: { accept: "application/json" } });
    expect(await json(res)).toMatchObject({ error: "invalid_client" });
    advanceClock(30 * 86_400);
    await sweepOnce(srv.deps);
    expect(await srv.database.c.oauth.countDocuments({ _id: `Client:${used}` })).toBe(0);
  });
});

describe("item 7: the consent screen cannot be made to mislead", () => {
  // A session of its own: item 6 moved the clock past the sessions of the earlier ones.
  let victim: Browser;
  beforeAll(async () => {
    victim = await signIn(srv, `${uniq("reader")}@example.com`);
  });

  it("a custom-scheme redirect is shown with its scheme, and invisible or reordering characters leave the name", async () => {
    const app = "com.evil.app://claude.ai/cb";
    const res = await register(srv, { application_type: "native", client_name: "Cl\u200baude\u202e\u2066 Desk\ufefftop\u0007", redirect_uris: [app] });
    expect(res.status).toBe(201);
    const id = String((await json(res)).client_id);
    const uid = await startAuthorization(victim, good(id, app));
    const v = await view(victim, uid);
    expect(v.client.name).toBe("Claude Desktop");
    expect(v.client.redirect).toEqual({ kind: "app", text: "com.evil.app://claude.ai/cb" });
    expect(v.client.identity).toBe("self_declared");
  });

  it("a registration says when it was really made, not 'a moment ago'", async () => {
    const id = await registerPublicClient(srv, EVIL, "Old registration");
    const madeAt = Date.now();
    advanceClock(3 * 86_400);
    const uid = await startAuthorization(victim, good(id));
    const v = await view(victim, uid);
    expect(Math.abs(Date.parse(v.client.registered_at ?? "") - madeAt)).toBeLessThan(60_000);
  });

  it("the sign-in step names the client only to the browser that started the request", async () => {
    const id = await registerPublicClient(srv, EVIL, "Claude\u200b Desktop");
    const stranger = new Browser(srv.url);
    const res = await stranger.request(authorizePath(good(id)), { headers: { accept: "text/html" } });
    const uid = /\/oauth\/interaction\/([A-Za-z0-9_-]+)/.exec(res.headers.get("location") ?? "")?.[1] ?? "";
    await stranger.request(`/oauth/interaction/${uid}`);
    const ctx = await trpcData<{ client: { name: string; identity: string } }>(await stranger.query("oauth.signInContext", { uid }));
    expect(ctx.client).toEqual({ name: "Claude Desktop", identity: "self_declared", document_host: null, logo_uri: null });
    expect((await new Browser(srv.url).query("oauth.signInContext", { uid })).status).toBe(404);
    expect((await victim.query("oauth.signInContext", { uid })).status).toBe(404);
  });
});

describe("item 8: floods are counted, and a failing client document costs one fetch", () => {
  let lim: TestServer;
  beforeAll(async () => {
    lim = await startTestServer({ OAUTH_AUTHORIZE_REQUESTS_PER_IP_PER_MINUTE: "3", OAUTH_REVOCATIONS_PER_IP_PER_MINUTE: "2" }, "abuseoauthlim");
  });
  afterAll(async () => {
    await lim.close();
  });

  it("the authorization endpoint answers 429 with Retry-After past its limit (a page for a browser)", async () => {
    const browser = new Browser(lim.url);
    for (let i = 0; i < 3; i++) expect((await browser.request(authorizePath(good("dcr_nobody")), { headers: { accept: "text/html" } })).status).toBe(400);
    const over = await browser.request(authorizePath(good("dcr_nobody")), { headers: { accept: "text/html" } });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(over.headers.get("content-type")).toContain("text/html");
    const api = await browser.request(authorizePath(good("dcr_nobody")), { headers: { accept: "application/json" } });
    expect(await json(api)).toMatchObject({ error: "rate_limited" });
  });

  it("the revocation endpoint answers 429 past its limit", async () => {
    const revoke = () =>
      fetch(`${lim.url}/oauth/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "token=x&client_id=dcr_nobody",
      });
    expect((await revoke()).status).not.toBe(429);
    expect((await revoke()).status).not.toBe(429);
    const over = await revoke();
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("a client document that fails is fetched once, not again on the next request, and its server's answer is not echoed", async () => {
    let hits = 0;
    const site = await startDocumentServer((_req, res) => {
      hits++;
      res.statusCode = 418;
      res.setHeader("content-type", "text/plain");
      res.end("SECRET-INTERNAL-BANNER");
    });
    try {
      const id = `${site.url}/client.json`;
      const first = await new Browser(srv.url).request(authorizePath(good(id)), { headers: { accept: "application/json" } });
      const body = JSON.stringify(await json(first));
      expect(body).toContain("invalid_client");
      expect(body).not.toContain("418");
      expect(body).not.toContain("SECRET-INTERNAL-BANNER");
      expect(hits).toBe(1);
      await new Browser(srv.url).request(authorizePath(good(id)), { headers: { accept: "application/json" } });
      expect(hits).toBe(1);
      // After the short pause, it is tried again.
      advanceClock(31);
      await new Browser(srv.url).request(authorizePath(good(id)), { headers: { accept: "application/json" } });
      expect(hits).toBe(2);
    } finally {
      await site.close();
    }
  });
});
