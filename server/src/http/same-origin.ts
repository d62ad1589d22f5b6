import { isCrossSite, originOf } from "@atelier/shared/domain/origin";
import type { RequestHandler } from "express";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** Refuses state-changing requests that a browser sends from another site (403). */
export function sameOriginOnly(baseUrl: string): RequestHandler {
  const publicOrigin = originOf(baseUrl);
  return (req, res, next) => {
    if (SAFE.has(req.method)) return next();
    const own = `${req.protocol}://${req.host}`.toLowerCase();
    const origin = req.get("origin");
    if (isCrossSite({ origin, secFetchSite: req.get("sec-fetch-site") }, [publicOrigin, own])) {
      res.status(403).json({ error: "forbidden", error_description: "Cross-site requests are not allowed." });
      return;
    }
    next();
  };
}
