// /oauth/*: the authorization server (oidc-provider, a Koa app) mounted in Express, with what
// sits in front of it here: shared rate limits on registration and token requests, CORS for
// browser clients registering themselves, and the interaction step that hands an
// authorization request to the app's sign-in and consent screen (/app/oauth/consent/:uid).
import { sha256 } from "@atelier/shared/ids";
import { OAUTH_SCOPES } from "@atelier/shared/domain/oauth-access";
import { hit } from "@atelier/shared/domain/rate-limits";
import { AppError } from "@atelier/shared/errors";
import { serialize } from "cookie";
import { Router, type NextFunction, type Request, type Response } from "express";
import type { Deps } from "../../context";
import { refusalPage } from "./oauth-pages";
import type { OAuthProvider } from "./oauth-provider";

/** The cookie that ties a consent screen to the browser that started the authorization request. */
export function oauthRequestCookieName(baseUrl: string): string {
  return baseUrl.startsWith("https:") ? "__Host-atelier_oauth_request" : "atelier_oauth_request";
}

function oauthError(res: Response, status: number, error: string, description: string, headers: Record<string, string> = {}): void {
  res
    .status(status)
    .set({ "Cache-Control": "no-store", ...headers })
    .json({ error, error_description: description });
}

function refusedPage(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  res
    .status(status)
    .set({ "Cache-Control": "no-store", "Content-Type": "text/html; charset=utf-8", ...headers })
    .send(refusalPage({ title: "Sign-in request not found", heading: "This sign-in request cannot continue", message }));
}

/**
 * What this authorization server answers, by method and path: exactly the endpoints its
 * discovery document names (and the resume step of an authorization). Every other path under
 * /oauth (the provider's JWKS, client read-back, logout, pushed requests …) is not offered.
 */
const OFFERED: [method: string, path: RegExp][] = [
  ["GET", /^\/oauth\/authorize$/],
  ["GET", /^\/oauth\/authorize\/[A-Za-z0-9_-]{1,100}$/],
  ["POST", /^\/oauth\/(token|register|revoke)$/],
  ["OPTIONS", /^\/oauth\/(token|register|revoke)$/],
];

export function oauthRoutes(deps: Deps, provider: OAuthProvider): Router {
  const { config } = deps;
  const base = new URL(config.BASE_URL);
  const callback = provider.callback();
  const r = Router();

  const limited = (counter: string, max: number, windowSeconds: number, what: string) => async (req: Request, res: Response, next: NextFunction) => {
    try {
      // The address is counted by its hash, as for registrations: no requester IP is stored.
      await hit(deps, { counter, key: sha256(req.ip ?? "unknown").slice(0, 32), max, windowSeconds }, `Too many ${what} from this address; try again later.`);
      next();
    } catch (err) {
      if (err instanceof AppError && err.code === "rate_limited") {
        const retry = { "Retry-After": String(err.retryAfter ?? windowSeconds) };
        // A person's browser at the authorization endpoint reads a page; a client reads JSON.
        if (req.method === "GET" && req.accepts(["json", "html"]) === "html") return refusedPage(res, 429, err.message, retry);
        return oauthError(res, 429, "rate_limited", err.message, retry);
      }
      next(err);
    }
  };
  r.post("/oauth/register", limited("oauth-register", config.OAUTH_REGISTRATIONS_PER_IP_PER_HOUR, 3600, "client registrations"));
  r.post("/oauth/token", limited("oauth-token", config.OAUTH_TOKEN_REQUESTS_PER_IP_PER_MINUTE, 60, "token requests"));
  r.post("/oauth/revoke", limited("oauth-revoke", config.OAUTH_REVOCATIONS_PER_IP_PER_MINUTE, 60, "token revocations"));
  // Each one may fetch a client's metadata document and starts a sign-in screen: counted as well.
  r.get("/oauth/authorize", limited("oauth-authorize", config.OAUTH_AUTHORIZE_REQUESTS_PER_IP_PER_MINUTE, 60, "authorization requests"));

  // Browser-based clients (the MCP Inspector, for one) register themselves from their own origin.
  r.options("/oauth/register", (_req, res) => {
    res
      .set({
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Methods": "POST, OPTIONS",
        "Access-Control-Allow-Headers": "Content-Type, Accept",
        "Access-Control-Max-Age": "600",
      })
      .status(204)
      .end();
  });
  r.post("/oauth/register", (_req, res, next) => {
    res.set({ "Access-Control-Allow-Origin": "*" });
    next();
  });

  // The provider sends the browser here when the person must sign in and decide. The
  // interaction cookie (scoped to this path) proves this browser started the request; our own
  // cookie carries that proof to the consent screen's API calls.
  r.get("/oauth/interaction/:uid", async (req, res) => {
    let interaction: Awaited<ReturnType<OAuthProvider["interactionDetails"]>>;
    try {
      interaction = await provider.interactionDetails(req, res);
    } catch {
      return refusedPage(res, 400, "It has expired, was already answered, or was started in another browser.");
    }
    if (interaction.uid !== req.params.uid) return refusedPage(res, 400, "It was started in another browser tab or window.");
    const maxAge = Math.max(1, (interaction.exp ?? 0) - Math.floor(Date.now() / 1000));
    res.append(
      "Set-Cookie",
      serialize(oauthRequestCookieName(config.BASE_URL), interaction.uid, {
        httpOnly: true,
        sameSite: "lax",
        secure: base.protocol === "https:",
        path: "/",
        maxAge,
      }),
    );
    res.set("Cache-Control", "no-store").redirect(303, `/app/oauth/consent/${encodeURIComponent(interaction.uid)}`);
  });

  // Everything else under /oauth is the provider's. Its public URLs are always BASE_URL's,
  // whatever Host or forwarding headers a request arrived with.
  r.use("/oauth", (req, res) => {
    const path = req.originalUrl.split("?")[0] ?? "";
    if (!OFFERED.some(([method, re]) => method === req.method && re.test(path))) {
      return oauthError(res, 404, "not_found", "Nothing here.");
    }
    // The provider's routes are configured with their full paths (/oauth/…): undo Express's mount.
    req.url = req.originalUrl;
    req.baseUrl = "";
    // A client that names no scope asks for what the resource offers (both scopes); the
    // consent screen shows them and the person decides.
    if (req.method === "GET") {
      const u = new URL(req.originalUrl, "http://x");
      if (u.pathname === "/oauth/authorize" && !u.searchParams.get("scope")) {
        u.searchParams.set("scope", OAUTH_SCOPES.join(" "));
        req.url = `${u.pathname}${u.search}`;
      }
    }
    req.headers["x-forwarded-proto"] = base.protocol.slice(0, -1);
    req.headers["x-forwarded-host"] = base.host;
    void callback(req, res);
  });
  return r;
}
