import type { Config } from "@atelier/shared/config";
import type { Database, UserDoc } from "@atelier/shared/db";
import type { Mailer } from "@atelier/shared/domain/mail";
import { resolveSession } from "@atelier/shared/domain/sessions";
import type { Logger } from "@atelier/shared/logger";
import type { Request, Response } from "express";
import { clearSessionCookie, readSessionCookie, setSessionCookie } from "./http/session-cookie";

/** Who is asking: a signed-in person (session cookie), or nobody. */
export type Principal = { kind: "nobody" } | { kind: "user"; user: UserDoc; sessionId: string };

export interface Deps {
  config: Config;
  database: Database;
  logger: Logger;
  mailer: Mailer;
}

/** What a procedure may do to the browser's session cookie (nothing, outside HTTP). */
export interface SessionCookieJar {
  set(sessionId: string, expiresAt: Date): void;
  clear(): void;
}

export interface Context extends Deps {
  principal: Principal;
  cookies: SessionCookieJar;
}

const noCookies: SessionCookieJar = { set: () => {}, clear: () => {} };

/** The context without HTTP: what tests use with createCaller. */
export function createContextInner(deps: Deps, principal: Principal = { kind: "nobody" }, cookies = noCookies): Context {
  return { ...deps, principal, cookies };
}

export async function principalFromRequest(deps: Deps, req: Request): Promise<Principal> {
  const sessionId = readSessionCookie(req, deps.config.BASE_URL);
  if (!sessionId) return { kind: "nobody" };
  const user = await resolveSession(deps.database, sessionId);
  return user ? { kind: "user", user, sessionId } : { kind: "nobody" };
}

export function createContextFactory(deps: Deps) {
  return async ({ req, res }: { req: Request; res: Response }): Promise<Context> =>
    createContextInner(deps, await principalFromRequest(deps, req), {
      set: (id, expiresAt) => setSessionCookie(res, deps.config.BASE_URL, id, expiresAt),
      clear: () => clearSessionCookie(res, deps.config.BASE_URL),
    });
}
