import type { Config } from "@atelier/shared/config";
import type { Database } from "@atelier/shared/db";
import type { Logger } from "@atelier/shared/logger";
import type { Request, Response } from "express";

/** Who is asking. Filled from the session cookie (accounts) for browser requests. */
export type Principal = { kind: "nobody" } | { kind: "user"; userId: string; email: string };

export interface Deps {
  config: Config;
  database: Database;
  logger: Logger;
}

export interface Context extends Deps {
  principal: Principal;
  req?: Request;
  res?: Response;
}

/** The context without HTTP: what tests use with createCaller. */
export function createContextInner(deps: Deps, principal: Principal = { kind: "nobody" }): Context {
  return { ...deps, principal };
}

export function createContextFactory(deps: Deps) {
  return ({ req, res }: { req: Request; res: Response }): Context => ({
    ...createContextInner(deps),
    req,
    res,
  });
}
