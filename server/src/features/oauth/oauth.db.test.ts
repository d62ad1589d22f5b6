// The authorization server against the real app and database: the flow, each bad input of
// issue 12 with the OAuth error its RFC names (and nothing stored), and what is never kept
// or logged in clear.
import { advanceClock, resetClock } from "@atelier/shared/domain/clock";
import { sweepOnce } from "@atelier/shared/domain/sweeper";
import { authenticateBearer } from "@atelier/shared/domain/tokens";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Browser, signIn, startTestServer, trpcData, type TestServer } from "../../testing";
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
  type TokenSet,
} from "./oauth-testing";

let srv: TestServer;
let b: Browser;
let clientId: string;
const REDIRECT = "http://127.0.0.1:53682/callback";
const RESOURCE = "http://localhost:3000/mcp";

beforeAll(async () => {
  srv = await startTestServer({ OAUTH_CLIENT_FETCH_TIMEOUT_SECONDS: "1", OAUTH_AUTHORIZE_REQUESTS_PER_IP_PER_MINUTE: "1000" }, "oauth");
  b = await signIn(srv, `oauth-${Date.now()}@example.com`);
  clientId = await registerPublicClient(srv, REDIRECT, "Flow Agent");
});
afterAll(async () => {
  await srv.close();
});
afterEach(() => resetClock());

const oauthCount = () => srv.database.c.oauth.countDocuments({});
/** Records other than the short-lived note that a client metadata document could not be used. */
const usableCount = () => srv.database.c.oauth.countDocuments({ model: { $ne: "ClientDocumentFailure" } });
const json = async (res: Response) => (await res.json()) as { error?: string; error_description?: string } & Record<string, unknown>;

async function authorizeJson(params: Parameters<typeof authorizePath>[0]): Promise<Response> {
  return b.request(authorizePath(params), { headers: { accept: "application/json" } });
}

/**
 * Starts an authorization that fails with a valid client and redirect URI: the error is shown
 * on our own page, never sent to the client (RFC 9700 §4.11.2). Answers the page's text.
 */
async function refusedHere(params: Parameters<typeof authorizePath>[0], extra = "", browser = b): Promise<string> {
  const res = await browser.request(authorizePath(params) + extra, { headers: { accept: "text/html" } });
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.headers.get("location")).toBeNull();
  const page = await res.text();
  expect(page).toContain("This sign-in request was refused");
  return page;
}

/** A fresh code for the registered client, and its PKCE verifier. */
async function freshCode(browser = b, decision: Record<string, unknown> = { allow: true }): Promise<{ code: string; verifier: string }> {
  const p = pkce();
  const uid = await startAuthorization(browser, {
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: p.challenge,
    code_challenge_method: "S256",
    scope: "mcp:read mcp:write",
    state: "x",
  });
  const back = await decide(browser, uid, decision);
  return { code: back.searchParams.get("code") ?? "", verifier: p.verifier };
}

const exchange = (code: string, verifier: string) =>
  tokenRequest(srv, { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });

describe("metadata", () => {
  it("names real endpoints, S256, the two scopes, CIMD and RFC 9207 support, and keeps agent_auth", async () => {
    const asm = await json(await fetch(`${srv.url}/.well-known/oauth-authorization-server`));
    expect(asm).toMatchObject({
      issuer: "http://localhost:3000",
      authorization_endpoint: "http://localhost:3000/oauth/authorize",
      token_endpoint: "http://localhost:3000/oauth/token",
      registration_endpoint: "http://localhost:3000/oauth/register",
      revocation_endpoint: "http://localhost:3000/oauth/revoke",
      code_challenge_methods_supported: ["S256"],
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      scopes_supported: ["mcp:read", "mcp:write"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      agent_auth: { skill: "http://localhost:3000/auth.md" },
    });
    expect(asm.token_endpoint_auth_methods_supported).toContain("none");
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const prm = await json(await fetch(`${srv.url}${path}`));
      expect(prm).toMatchObject({ resource: RESOURCE, authorization_servers: ["http://localhost:3000"] });
    }
  });

  it("each endpoint it names is answered by the authorization server, not the app's 404", async () => {
    // Without parameters each answers with its own OAuth error, which only the provider gives.
    expect(await json(await tokenRequest(srv, {}))).toMatchObject({ error: "invalid_request" });
    expect(await json(await register(srv, {}))).toMatchObject({ error: "invalid_redirect_uri" });
    const rev = await fetch(`${srv.url}/oauth/revoke`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" });
    expect(await json(rev)).toMatchObject({ error: "invalid_request" });
    expect(await json(await authorizeJson({ client_id: "", redirect_uri: REDIRECT }))).toMatchObject({ error: "invalid_request" });
    // The provider's own OpenID discovery is not exposed; ours is the one document.
    expect((await fetch(`${srv.url}/oauth/.well-known/openid-configuration`)).status).toBe(404);
  });
});

describe("the flow", () => {
  it("ends in a connected agent: a token document with the client's name, the person's choice of workspaces and duration", async () => {
    const me = await trpcData<{ defaultWorkspace: string }>(await b.query("me.get"));
    const p = pkce();
    const uid = await startAuthorization(b, {
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: p.challenge,
      code_challenge_method: "S256",
      scope: "mcp:read",
      state: "st",
    });
    const view = await trpcData<{
      client: { name: string; name_verified: boolean; via: string; identity: string; redirect: { kind: string; text: string }; registered_at: string };
      scopes: { scope: string }[];
      resource: string;
      workspaces: { slug: string }[];
    }>(await b.query("oauth.interaction", { uid }));
    expect(view.client).toMatchObject({
      name: "Flow Agent",
      name_verified: false,
      identity: "self_declared",
      via: "registration",
      redirect: { kind: "this_computer", text: "http://127.0.0.1:53682" },
    });
    expect(Date.now() - Date.parse(view.client.registered_at)).toBeLessThan(120_000);
    expect(view.scopes.map((s) => s.scope)).toEqual(["mcp:read"]);
    expect(view.resource).toBe(RESOURCE);
    expect(view.workspaces.map((w) => w.slug)).toContain(me.defaultWorkspace);

    const back = await decide(b, uid, { allow: true, workspaces: [me.defaultWorkspace], duration_days: 7 });
    // RFC 9207: the issuer comes back with the code, and the state is kept.
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get("iss")).toBe("http://localhost:3000");
    expect(back.searchParams.get("state")).toBe("st");
    const res = await exchange(back.searchParams.get("code") ?? "", p.verifier);
    const tokens = (await res.json()) as TokenSet;
    expect(res.status).toBe(200);
    expect(tokens.scope).toBe("mcp:read");

    const t = await authenticateBearer(srv.deps, tokens.access_token);
    expect(t).toMatchObject({ kind: "oauth", label: "Flow Agent", agentLabel: "Flow Agent", scopes: ["mcp:read"] });
    const ws = await srv.database.c.workspaces.findOne({ slug: me.defaultWorkspace });
    expect(t.workspaceIds).toEqual([ws?._id]);
    expect(Math.round((t.expiresAt.getTime() - Date.now()) / 86_400_000)).toBe(7);
    expect(t.oauth).toMatchObject({ grantId: t._id, clientId, clientName: "Flow Agent", via: "registration" });

    const listed = await trpcData<{ token_id: string; kind: string; oauth: { client_name: string } | null }[]>(await b.query("tokens.list"));
    expect(listed.find((x) => x.token_id === t._id)).toMatchObject({ kind: "oauth", oauth: { client_name: "Flow Agent" } });
  });

  it("Deny sends access_denied back to the client, and nothing is granted", async () => {
    const grantsBefore = await srv.database.c.tokens.countDocuments({ kind: "oauth" });
    const p = pkce();
    const uid = await startAuthorization(b, {
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: p.challenge,
      code_challenge_method: "S256",
      state: "d",
    });
    const back = await decide(b, uid, { allow: false });
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("error_description")).toBeTruthy();
    expect(back.searchParams.get("iss")).toBe("http://localhost:3000");
    expect(back.searchParams.get("code")).toBeNull();
    expect(await srv.database.c.tokens.countDocuments({ kind: "oauth" })).toBe(grantsBefore);
    expect(await srv.database.c.oauth.countDocuments({ model: "Grant" })).toBe(grantsBefore);
  });

  it("a consent screen opened in another browser, or by another person, is refused", async () => {
    const p = pkce();
    const uid = await startAuthorization(b, { client_id: clientId, redirect_uri: REDIRECT, code_challenge: p.challenge, code_challenge_method: "S256" });
    const other = await signIn(srv, `other-${Date.now()}@example.com`);
    const res = await other.query("oauth.interaction", { uid });
    expect(res.status).toBe(404);
    expect((await other.mutation("oauth.decide", { uid, allow: true })).status).toBe(404);
    // Signed out, the screen's procedures refuse too (the app shows its sign-in in their place).
    expect((await new Browser(srv.url).query("oauth.interaction", { uid })).status).toBe(401);
  });

  it("refresh tokens rotate; the old one then fails and takes the grant with it", async () => {
    const { code, verifier } = await freshCode();
    const first = (await (await exchange(code, verifier)).json()) as TokenSet;
    const refresh = (old: string) => tokenRequest(srv, { grant_type: "refresh_token", refresh_token: old, client_id: clientId });
    const second = await refresh(first.refresh_token ?? "");
    const secondTokens = (await second.json()) as TokenSet;
    expect(second.status).toBe(200);
    expect(secondTokens.refresh_token).toBeTruthy();
    expect(secondTokens.refresh_token).not.toBe(first.refresh_token);
    await authenticateBearer(srv.deps, secondTokens.access_token);

    // Reused after rotation: refused, and everything the grant issued stops working.
    const reuse = await refresh(first.refresh_token ?? "");
    expect(reuse.status).toBe(400);
    expect(await json(reuse)).toMatchObject({ error: "invalid_grant", error_description: expect.any(String) });
    await expect(authenticateBearer(srv.deps, secondTokens.access_token)).rejects.toMatchObject({ code: "invalid_token" });
    expect((await refresh(secondTokens.refresh_token ?? "")).status).toBe(400);
  });

  it("revoking in the app ends the grant: the access token is refused at once and the refresh token too", async () => {
    const { code, verifier } = await freshCode();
    const tokens = (await (await exchange(code, verifier)).json()) as TokenSet;
    const t = await authenticateBearer(srv.deps, tokens.access_token);
    await trpcData(await b.mutation("tokens.revoke", { token_id: t._id }));
    await expect(authenticateBearer(srv.deps, tokens.access_token)).rejects.toMatchObject({ code: "invalid_token" });
    const r = await tokenRequest(srv, { grant_type: "refresh_token", refresh_token: tokens.refresh_token ?? "", client_id: clientId });
    expect(r.status).toBe(400);
    expect(await json(r)).toMatchObject({ error: "invalid_grant" });
    expect(await srv.database.c.oauth.countDocuments({ grantId: t._id })).toBe(0);
    // A connected agent has no pasted secret to rotate.
    const rot = await b.mutation("tokens.rotate", { token_id: t._id });
    expect(rot.status).toBe(409);
  });

  it("token revocation (RFC 7009) of the refresh token ends the grant", async () => {
    const { code, verifier } = await freshCode();
    const tokens = (await (await exchange(code, verifier)).json()) as TokenSet;
    const res = await fetch(`${srv.url}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.refresh_token ?? "", token_type_hint: "refresh_token", client_id: clientId }).toString(),
    });
    expect(res.status).toBe(200);
    await expect(authenticateBearer(srv.deps, tokens.access_token)).rejects.toMatchObject({ code: "invalid_token" });
  });
});

describe("bad input, each with its OAuth error and nothing stored", () => {
  it("an unknown client: invalid_client, shown to the person (never redirected)", async () => {
    const before = await oauthCount();
    const res = await authorizeJson({ client_id: "no-such-client", redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: "S256" });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: "invalid_client", error_description: expect.any(String) });
    // A browser gets a page that says so.
    const page = await b.request(authorizePath({ client_id: "no-such-client", redirect_uri: REDIRECT }), { headers: { accept: "text/html" } });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("invalid_client");
    expect(await oauthCount()).toBe(before);
  });

  it.each([
    ["not registered", "http://127.0.0.1:9999/elsewhere"],
    ["a trailing slash more", `${REDIRECT}/`],
    ["an extra query", `${REDIRECT}?x=1`],
    ["another port", "http://127.0.0.1:53683/callback"],
  ])("a redirect_uri that does not match exactly (%s): invalid_redirect_uri, not followed", async (_what, redirect) => {
    const before = await oauthCount();
    const res = await authorizeJson({ client_id: clientId, redirect_uri: redirect, code_challenge: pkce().challenge, code_challenge_method: "S256" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await json(res)).toMatchObject({ error: "invalid_redirect_uri", error_description: expect.any(String) });
    expect(await oauthCount()).toBe(before);
  });

  it("missing PKCE: invalid_request, shown here", async () => {
    const before = await oauthCount();
    const page = await refusedHere({ client_id: clientId, redirect_uri: REDIRECT, state: "p" });
    expect(page).toContain("invalid_request");
    expect(page).toMatch(/PKCE/i);
    expect(await oauthCount()).toBe(before);
  });

  it("plain PKCE: invalid_request, shown here", async () => {
    const before = await oauthCount();
    const page = await refusedHere({ client_id: clientId, redirect_uri: REDIRECT, code_challenge: pkce().verifier, code_challenge_method: "plain" });
    expect(page).toContain("invalid_request");
    expect(page).toMatch(/code_challenge_method/);
    expect(await oauthCount()).toBe(before);
  });

  it("a resource other than /mcp: invalid_target, shown here", async () => {
    const before = await oauthCount();
    const page = await refusedHere({
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
      resource: "https://api.example.com/",
    });
    expect(page).toContain("invalid_target");
    expect(await oauthCount()).toBe(before);
  });

  it("a wrong code_verifier: invalid_grant, no token issued", async () => {
    const { code } = await freshCode();
    const before = await srv.database.c.oauth.countDocuments({ model: "AccessToken" });
    const res = await exchange(code, pkce().verifier);
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: "invalid_grant", error_description: expect.any(String) });
    expect(await srv.database.c.oauth.countDocuments({ model: "AccessToken" })).toBe(before);
  });

  it("a code used twice: the second use fails and revokes what the first issued", async () => {
    const { code, verifier } = await freshCode();
    const first = (await (await exchange(code, verifier)).json()) as TokenSet;
    await authenticateBearer(srv.deps, first.access_token);
    const again = await exchange(code, verifier);
    expect(again.status).toBe(400);
    expect(await json(again)).toMatchObject({ error: "invalid_grant", error_description: expect.any(String) });
    await expect(authenticateBearer(srv.deps, first.access_token)).rejects.toMatchObject({ code: "invalid_token" });
    const r = await tokenRequest(srv, { grant_type: "refresh_token", refresh_token: first.refresh_token ?? "", client_id: clientId });
    expect(await json(r)).toMatchObject({ error: "invalid_grant" });
  });

  it("an expired code: invalid_grant, no token issued", async () => {
    const { code, verifier } = await freshCode();
    const before = await srv.database.c.oauth.countDocuments({ model: "AccessToken" });
    advanceClock(61);
    const res = await exchange(code, verifier);
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: "invalid_grant", error_description: expect.any(String) });
    expect(await srv.database.c.oauth.countDocuments({ model: "AccessToken" })).toBe(before);
  });

  it("an access token for another resource is refused at /mcp (invalid_token)", async () => {
    const { code, verifier } = await freshCode();
    const tokens = (await (await exchange(code, verifier)).json()) as TokenSet;
    // The same credential presented to an Atelier at another origin: bound to this one's /mcp only.
    await expect(authenticateBearer({ ...srv.deps, config: { ...srv.config, BASE_URL: "https://other.example" } }, tokens.access_token)).rejects.toMatchObject({
      code: "invalid_token",
    });
    await authenticateBearer(srv.deps, tokens.access_token);
  });

  it("an expired access token is refused at /mcp", async () => {
    const { code, verifier } = await freshCode();
    const tokens = (await (await exchange(code, verifier)).json()) as TokenSet;
    advanceClock(srv.config.OAUTH_ACCESS_TOKEN_TTL_SECONDS + 1);
    await expect(authenticateBearer(srv.deps, tokens.access_token)).rejects.toMatchObject({ code: "invalid_token" });
  });

  it("dynamic registration refuses an http redirect off loopback and a client secret (public clients only)", async () => {
    const before = await oauthCount();
    const a = await register(srv, { redirect_uris: ["http://agent.example.com/cb"], token_endpoint_auth_method: "none" });
    expect(a.status).toBe(400);
    expect(await json(a)).toMatchObject({ error: "invalid_redirect_uri", error_description: expect.stringContaining("loopback") });
    const c = await register(srv, { redirect_uris: ["https://agent.example.com/cb"], token_endpoint_auth_method: "client_secret_basic" });
    expect(c.status).toBe(400);
    expect(await json(c)).toMatchObject({ error: "invalid_client_metadata", error_description: expect.any(String) });
    expect(await oauthCount()).toBe(before);
    // Loopback (RFC 8252 §7.3) and app schemes are fine.
    expect((await register(srv, { redirect_uris: ["http://localhost:33418/", "http://127.0.0.1:33418/cb"], token_endpoint_auth_method: "none" })).status).toBe(
      201,
    );
    // What the MCP SDK sends: the resource's scopes as the client's `scope`.
    expect((await register(srv, { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", scope: "mcp:read mcp:write" })).status).toBe(201);
    const app = await register(srv, {
      application_type: "native",
      redirect_uris: ["cursor://anysphere.cursor-retrieval/oauth/callback"],
      token_endpoint_auth_method: "none",
    });
    expect(app.status).toBe(201);
  });
});

describe("client ID metadata documents", () => {
  const cimdParams = (id: string, redirect = REDIRECT) => ({
    client_id: id,
    redirect_uri: redirect,
    code_challenge: pkce().challenge,
    code_challenge_method: "S256",
  });

  it("a good document: its name on the consent screen, and the whole flow", async () => {
    const site = await startDocumentServer((req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          client_id: `${site.url}${req.url}`,
          client_name: "Doc Agent",
          client_uri: "https://agent.example.com",
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: "none",
          grant_types: ["authorization_code", "refresh_token"],
        }),
      );
    });
    try {
      const id = `${site.url}/oauth/client.json`;
      const tokens = await connect(srv, b, id, REDIRECT);
      const t = await authenticateBearer(srv.deps, tokens.access_token);
      expect(t.oauth).toMatchObject({ clientId: id, clientName: "Doc Agent", clientUri: "https://agent.example.com/", via: "metadata_document" });
    } finally {
      await site.close();
    }
  });

  const bad: [string, "invalid_client" | "invalid_client_metadata", (url: string) => Parameters<typeof startDocumentServer>[0]][] = [
    [
      "too large",
      "invalid_client",
      (u) => (req, res) => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ client_id: `${u}${req.url}`, redirect_uris: [REDIRECT], pad: "x".repeat(6000) }));
      },
    ],
    [
      "not JSON",
      "invalid_client_metadata",
      () => (_req, res) => {
        res.setHeader("content-type", "text/html");
        res.end("<!doctype html><p>hello");
      },
    ],
    [
      "JSON that does not parse",
      "invalid_client_metadata",
      () => (_req, res) => {
        res.setHeader("content-type", "application/json");
        res.end("{not json");
      },
    ],
    [
      "a client_id that differs from its URL",
      "invalid_client_metadata",
      (u) => (_req, res) => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ client_id: `${u}/other.json`, redirect_uris: [REDIRECT] }));
      },
    ],
    [
      "a redirect to elsewhere",
      "invalid_client",
      () => (_req, res) => {
        res.statusCode = 302;
        res.setHeader("location", "http://127.0.0.1:1/x.json");
        res.end();
      },
    ],
    [
      "slow (past the timeout)",
      "invalid_client",
      (u) => (req, res) => {
        setTimeout(() => {
          res.setHeader("content-type", "application/json");
          res.end(JSON.stringify({ client_id: `${u}${req.url}`, redirect_uris: [REDIRECT] }));
        }, 2500);
      },
    ],
  ];
  it.each(bad)("a document that is %s: %s, nothing stored", async (what, error, handler) => {
    let url = "";
    const site = await startDocumentServer((req, res) => handler(url)(req, res));
    url = site.url;
    try {
      const before = await usableCount();
      // A path of its own: the next case's server may get this one's port, and a URL that failed is noted (not fetched again at once).
      const res = await authorizeJson(cimdParams(`${site.url}/${what.replaceAll(/\W+/g, "-")}/client.json`));
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ error, error_description: expect.any(String) });
      // Nothing but the brief note that this URL failed (so it is not fetched again at once).
      expect(await usableCount()).toBe(before);
    } finally {
      await site.close();
    }
  });

  it("an unreachable document: invalid_client", async () => {
    const site = await startDocumentServer((_req, res) => res.end());
    const gone = `${site.url}/client.json`;
    await site.close();
    const before = await usableCount();
    const res = await authorizeJson(cimdParams(gone));
    expect(await json(res)).toMatchObject({ error: "invalid_client", error_description: expect.stringContaining("unreachable") });
    expect(await usableCount()).toBe(before);
  });

  it("in production, a document on a loopback or private address is never fetched", async () => {
    let fetched = 0;
    const site = await startDocumentServer((req, res) => {
      fetched++;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ client_id: `https://localhost:${port}${req.url}`, redirect_uris: [REDIRECT] }));
    });
    const port = new URL(site.url).port;
    const prod = await startTestServer({ OAUTH_ALLOW_LOOPBACK_CLIENTS: "false" }, "oauthprod");
    try {
      const browser = new Browser(prod.url);
      for (const id of [
        `https://localhost:${port}/client.json`,
        `https://127.0.0.1:${port}/client.json`,
        `https://10.0.0.8/client.json`,
        `${site.url}/client.json`,
      ]) {
        const res = await browser.request(authorizePath(cimdParams(id)), { headers: { accept: "application/json" } });
        expect(res.status).toBe(400);
        expect((await json(res)).error).toBe("invalid_client");
      }
      expect(fetched).toBe(0);
      expect(await prod.database.c.oauth.countDocuments({ model: { $ne: "ClientDocumentFailure" } })).toBe(0);
    } finally {
      await prod.close();
      await site.close();
    }
  });
});

describe("limits", () => {
  it("registration and token requests are rate-limited per address with Retry-After", async () => {
    const lim = await startTestServer({ OAUTH_REGISTRATIONS_PER_IP_PER_HOUR: "2", OAUTH_TOKEN_REQUESTS_PER_IP_PER_MINUTE: "3" }, "oauthlim");
    try {
      const meta = { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" };
      expect((await register(lim, meta)).status).toBe(201);
      expect((await register(lim, meta)).status).toBe(201);
      const third = await register(lim, meta);
      expect(third.status).toBe(429);
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await json(third)).toMatchObject({ error: "rate_limited" });
      expect(await lim.database.c.oauth.countDocuments({ model: "Client" })).toBe(2);
      for (let i = 0; i < 3; i++) expect((await tokenRequest(lim, { grant_type: "authorization_code", code: "x" })).status).toBe(400);
      const over = await tokenRequest(lim, { grant_type: "authorization_code", code: "x" });
      expect(over.status).toBe(429);
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await lim.close();
    }
  });
});

describe("secrets", () => {
  it("no code, token, interaction id or session id is stored in clear, and none is logged", async () => {
    const p = pkce();
    const uid = await startAuthorization(b, {
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: p.challenge,
      code_challenge_method: "S256",
      state: "z",
    });
    const back = await decide(b, uid);
    const code = back.searchParams.get("code") ?? "";
    // The client's redirect (with the code in its query) through the logged app, as a browser would if it came back here.
    await b.request(`/oauth/authorize/${uid}?code=${code}`);
    const res = await exchange(code, p.verifier);
    const tokens = (await res.json()) as TokenSet;
    const refreshed = (await (
      await tokenRequest(srv, { grant_type: "refresh_token", refresh_token: tokens.refresh_token ?? "", client_id: clientId })
    ).json()) as TokenSet;
    expect(code, back.href).not.toBe("");
    const secrets = [code, tokens.access_token, tokens.refresh_token ?? "", refreshed.access_token, refreshed.refresh_token ?? "", uid];
    const session = /atelier_oauth_session=([^;]+)/.exec(b.cookie)?.[1];
    if (session) secrets.push(decodeURIComponent(session));
    const stored = JSON.stringify(await srv.database.c.oauth.find({}).toArray());
    const logs = srv.logLines.join("\n");
    expect(logs).toContain("/oauth/token");
    for (const s of secrets) {
      expect(s.length).toBeGreaterThan(15);
      expect(stored).not.toContain(s);
      expect(logs).not.toContain(s);
    }
    expect(pathOf(back.href)).toContain("code=");
  });
});

describe("expiry", () => {
  it("the sweeper deletes codes, tokens, sessions and interactions past their expiry, and keeps a client while its grant lives", async () => {
    await freshCode(b, { allow: true, duration_days: 365 });
    expect(await srv.database.c.oauth.countDocuments({ model: { $in: ["AuthorizationCode", "Interaction", "Session"] } })).toBeGreaterThan(0);
    advanceClock(srv.config.OAUTH_REFRESH_TOKEN_TTL_SECONDS + 15 * 86_400);
    await sweepOnce(srv.deps);
    expect(await srv.database.c.oauth.countDocuments({ model: { $in: ["AuthorizationCode", "Interaction", "Session", "AccessToken", "RefreshToken"] } })).toBe(
      0,
    );
    expect(await srv.database.c.oauth.countDocuments({ _id: `Client:${clientId}` })).toBe(1);
  });
});
