// An MCP client that signs in with OAuth the way Claude or VS Code do: the SDK's own
// client-side auth (`auth()` with an OAuthClientProvider), a loopback redirect URI that
// catches the code (RFC 8252), and, for client ID metadata documents, the client's web site
// played by an https server on localhost (the outside internet, faked).
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { expect, type Page } from "@playwright/test";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthClientProvider, OAuthTokens } from "@modelcontextprotocol/client";
import { stack } from "./stack";

const listen = (server: Server) =>
  new Promise<number>((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** The client's redirect URI on loopback: it answers the browser and hands the code to the test. */
export async function startCallback(): Promise<{ url: string; next(): Promise<URL>; close(): Promise<void> }> {
  let waiting: ((u: URL) => void) | null = null;
  const arrived: URL[] = [];
  const server = createHttpServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://127.0.0.1");
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end("<!doctype html><title>Signed in</title><p>You can close this window and go back to the app.</p>");
    if (waiting) {
      waiting(u);
      waiting = null;
    } else arrived.push(u);
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next: () => {
      const first = arrived.shift();
      return first ? Promise.resolve(first) : new Promise<URL>((r) => (waiting = r));
    },
    close: () => close(server),
  };
}

/** The client's web site: serves its client ID metadata document at https://localhost:PORT/oauth/client.json. */
export async function startClientSite(
  metadata: (clientId: string) => Record<string, unknown>,
): Promise<{ clientId: string; fetches: () => number; close(): Promise<void> }> {
  let clientId = "";
  let fetches = 0;
  const server = createHttpsServer({ cert: readFileSync(stack.tlsCert), key: readFileSync(stack.tlsKey) }, (req, res) => {
    if (req.url !== "/oauth/client.json") {
      res.statusCode = 404;
      res.end();
      return;
    }
    fetches++;
    res.setHeader("content-type", "application/json");
    res.setHeader("cache-control", "max-age=300");
    res.end(JSON.stringify(metadata(clientId)));
  });
  const port = await listen(server as unknown as Server);
  clientId = `https://localhost:${port}/oauth/client.json`;
  return { clientId, fetches: () => fetches, close: () => close(server as unknown as Server) };
}

/** What a real client keeps between runs, in memory. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | null = null;

  constructor(
    readonly redirect: string,
    readonly name: string,
    readonly clientMetadataUrl?: string,
  ) {}

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const require = createRequire(import.meta.url);

/** Runs axe-core on the page and fails on serious or critical violations. */
export async function expectNoSeriousA11yViolations(page: Page, label: string): Promise<void> {
  // Colours are measured once any transition (a colour-scheme switch) has finished.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  await page.addScriptTag({ path: require.resolve("axe-core/axe.min.js") });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> };
      }
    ).axe;
    const r = await axe.run(document);
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target) }));
  });
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious, `${label}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}
