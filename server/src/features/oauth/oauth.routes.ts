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

function refusedPage(res: Response, status: number, message: string): void {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  res
    .status(status)
    .set({ "Cache-Control": "no-store", "Content-Type": "text/html; charset=utf-8" })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign-in request not found · Atelier</title>
<style>body{font:16px/1.6 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1.25rem;color:#1c1d21;background:#fffefb}@media (prefers-color-scheme:dark){body{color:#e8e8eb;background:#141518}}</style></head>
<body><main><h1>This sign-in request cannot continue</h1><p>${esc(message)}</p><p>Go back to the app that sent you here and connect again.</p></main></body></html>`,
    );
}

export function oauthRoutes(deps: Deps, provider: OAuthProvider): Router {
  const { config } = deps;
  const base = new URL(config.BASE_URL);
  const callback = provider.callback();
  const r = Router();

  const limited = (bucket: string, max: number, windowSeconds: number, what: string) => async (req: Request, res: Response, next: NextFunction) => {
    try {
      // The address is counted by its hash, as for registrations: no requester IP is stored.
      await hit(deps, { bucket, key: sha256(req.ip ?? "unknown").slice(0, 32), max, windowSeconds }, `Too many ${what} from this address; try again later.`);
      next();
    } catch (err) {
      if (err instanceof AppError && err.code === "rate_limited") {
        return oauthError(res, 429, "rate_limited", err.message, { "Retry-After": String(err.retryAfter ?? windowSeconds) });
      }
      next(err);
    }
  };
  r.post("/oauth/register", limited("oauth-register", config.OAUTH_REGISTRATIONS_PER_IP_PER_HOUR, 3600, "client registrations"));
  r.post("/oauth/token", limited("oauth-token", config.OAUTH_TOKEN_REQUESTS_PER_IP_PER_MINUTE, 60, "token requests"));

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
