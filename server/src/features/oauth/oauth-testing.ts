// An OAuth client for tests, spoken by hand over HTTP (so each step can be bent into the
// bad input a test needs), and a loopback server that plays a client's metadata document.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { trpcData, type Browser, type TestServer } from "../../testing";

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkce(): Pkce {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** Path and query of a URL that may carry the configured BASE_URL's origin instead of the test server's. */
export function pathOf(url: string): string {
  const u = new URL(url, "http://x");
  return `${u.pathname}${u.search}`;
}

export interface AuthorizeParams {
  client_id: string;
  redirect_uri: string;
  code_challenge?: string;
  code_challenge_method?: string;
  scope?: string;
  state?: string;
  resource?: string;
  response_type?: string;
}

export function authorizePath(p: AuthorizeParams): string {
  const q = new URLSearchParams();
  q.set("response_type", p.response_type ?? "code");
  for (const [k, v] of Object.entries(p)) if (v !== undefined && k !== "response_type") q.set(k, v);
  return `/oauth/authorize?${q.toString()}`;
}

export async function register(srv: TestServer, metadata: Record<string, unknown>): Promise<Response> {
  return fetch(`${srv.url}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(metadata),
  });
}

export async function registerPublicClient(srv: TestServer, redirectUri: string, name = "Test Agent"): Promise<string> {
  const res = await register(srv, {
    client_name: name,
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  });
  const body = (await res.json()) as { client_id?: string };
  if (res.status !== 201 || !body.client_id) throw new Error(`register: ${res.status} ${JSON.stringify(body)}`);
  return body.client_id;
}

/** Starts an authorization request in `browser` and follows it to the consent screen; answers the interaction uid. */
export async function startAuthorization(browser: Browser, params: AuthorizeParams): Promise<string> {
  const res = await browser.request(authorizePath(params), { headers: { accept: "text/html" } });
  if (res.status !== 303) throw new Error(`authorize: ${res.status} ${await res.text()}`);
  const interaction = pathOf(res.headers.get("location") ?? "");
  const m = /^\/oauth\/interaction\/([A-Za-z0-9_-]+)$/.exec(interaction);
  if (!m?.[1]) throw new Error(`authorize went to ${interaction}`);
  const hop = await browser.request(interaction);
  if (hop.status !== 303 || hop.headers.get("location") !== `/app/oauth/consent/${m[1]}`)
    throw new Error(`interaction: ${hop.status} ${hop.headers.get("location")}`);
  return m[1];
}

/** Answers the consent screen and follows the browser back into the authorization server; answers the client's redirect URL. */
export async function decide(browser: Browser, uid: string, decision: Record<string, unknown> = { allow: true }): Promise<URL> {
  const { redirect_to } = await trpcData<{ redirect_to: string }>(await browser.mutation("oauth.decide", { uid, ...decision }));
  const res = await browser.request(pathOf(redirect_to));
  if (res.status !== 303) throw new Error(`resume: ${res.status} ${await res.text()}`);
  return new URL(res.headers.get("location") ?? "");
}

export async function tokenRequest(srv: TestServer, form: Record<string, string>): Promise<Response> {
  return fetch(`${srv.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams(form).toString(),
  });
}

export interface TokenSet {
  access_token: string;
  refresh_token?: string;
  token_type: string;
  expires_in: number;
  scope?: string;
}

/** The whole dance for a registered client: consent in `browser`, then the code for tokens. */
export async function connect(
  srv: TestServer,
  browser: Browser,
  clientId: string,
  redirectUri: string,
  decision: Record<string, unknown> = { allow: true },
): Promise<TokenSet> {
  const p = pkce();
  const uid = await startAuthorization(browser, {
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: p.challenge,
    code_challenge_method: "S256",
    scope: "mcp:read mcp:write",
    state: "s1",
  });
  const back = await decide(browser, uid, decision);
  const code = back.searchParams.get("code");
  if (!code) throw new Error(`no code: ${back.href}`);
  const res = await tokenRequest(srv, { grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: clientId, code_verifier: p.verifier });
  const body = (await res.json()) as TokenSet;
  if (res.status !== 200) throw new Error(`token: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

export type DocumentHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** A loopback HTTP server standing in for a client's web site (the outside internet, faked). */
export async function startDocumentServer(handler: DocumentHandler): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
