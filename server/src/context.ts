import { AppError, translateDbError } from "@atelier/shared/errors";
import { TRPCError } from "@trpc/server";
import type { Principal } from "@atelier/shared/domain/access";
import type { ChangeFollower } from "@atelier/shared/domain/changes/follower";
import type { ViewCounter } from "@atelier/shared/domain/analytics/counter";
import type { Deps as DomainDeps } from "@atelier/shared/domain/deps";
import { ExactReads } from "@atelier/shared/domain/cache";
import { resolveSession } from "@atelier/shared/domain/sessions";
import type { Logger } from "@atelier/shared/logger";
import type { Request, Response } from "express";
import { parse } from "cookie";
import type { OAuthProvider } from "./features/oauth/oauth-provider";
import { oauthRequestCookieName } from "./features/oauth/oauth.routes";
import { clearSessionCookie, readSessionCookie, setSessionCookie } from "./http/session-cookie";

export type { Principal };

/** What the server process builds once: the domain's deps and its logger. */
export interface Deps extends DomainDeps {
  logger: Logger;
  /** This process's one follower of the change feed, which the live streams subscribe to. */
  follower?: ChangeFollower;
  /** This process's batch of reading figures (docs/ARCHITECTURE.md#reading-figures); absent: nothing is counted. */
  views?: ViewCounter;
}

/** What a procedure may do to the browser's session cookie (nothing, outside HTTP). */
export interface SessionCookieJar {
  set(sessionId: string, expiresAt: Date): void;
  clear(): void;
}

export interface Context extends Deps {
  /** A browser request is a person (session cookie) or nobody; bearer tokens are /mcp's. */
  principal: Principal;
  /** The session id behind `principal`, when there is one. */
  sessionId: string | null;
  cookies: SessionCookieJar;
  /** The authorization server, for the consent screen's procedures (absent outside HTTP). */
  oauth: OAuthProvider | null;
  /** The authorization request this browser started (its cookie), if any. */
  oauthRequest: string | null;
  /** The requester's address (from `TRUST_PROXY` peers only), for per-address limits; null outside HTTP. */
  requesterIp: string | null;
}

const noCookies: SessionCookieJar = { set: () => {}, clear: () => {} };

/** The context without HTTP: a principal and the process's deps. */
export function createContextInner(
  deps: Deps,
  session: { principal: Principal; sessionId: string | null } = { principal: { kind: "nobody" }, sessionId: null },
  cookies = noCookies,
  oauth: { provider: OAuthProvider; request: string | null } | null = null,
  requesterIp: string | null = null,
): Context {
  return { ...deps, ...session, cookies, oauth: oauth?.provider ?? null, oauthRequest: oauth?.request ?? null, requesterIp };
}

/** The person behind the request's session cookie, or nobody. */
export async function sessionFromRequest(deps: Deps, req: Request): Promise<{ principal: Principal; sessionId: string | null }> {
  const sessionId = readSessionCookie(req, deps.config.BASE_URL);
  const user = sessionId ? await resolveSession(deps, sessionId) : null;
  return user && sessionId ? { principal: { kind: "user", user }, sessionId } : { principal: { kind: "nobody" }, sessionId: null };
}

/**
 * The SPA's procedures read exactly: a person who just changed something must see it, even
 * when the next request reaches another server process. (Their session may come from the
 * cache; their changes still drop this process's cached entries at once.)
 */
export function createContextFactory(deps: Deps, oauth: OAuthProvider | null = null) {
  const exact: Deps = { ...deps, cache: new ExactReads(deps.cache) };
  return async ({ req, res }: { req: Request; res: Response }): Promise<Context> => {
    let session: Awaited<ReturnType<typeof sessionFromRequest>>;
    try {
      session = await sessionFromRequest(deps, req);
    } catch (err) {
      // The context is built before any procedure (and its error middleware) runs: an
      // unreachable database must still be a 503 through the error table, not a 500.
      const translated = translateDbError(err);
      if (translated instanceof AppError) throw new TRPCError({ code: translated.rule.trpc, message: translated.message, cause: translated });
      throw err;
    }
    const request = req.headers.cookie ? (parse(req.headers.cookie)[oauthRequestCookieName(deps.config.BASE_URL)] ?? null) : null;
    return createContextInner(
      exact,
      session,
      {
        set: (id, expiresAt) => setSessionCookie(res, deps.config.BASE_URL, id, expiresAt),
        clear: () => clearSessionCookie(res, deps.config.BASE_URL),
      },
      oauth ? { provider: oauth, request } : null,
      req.ip ?? null,
    );
  };
}
