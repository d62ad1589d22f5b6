// The note a published page's footer links to: how its views are counted
// (docs/ARCHITECTURE.md#reading-figures). Views themselves are counted where pages are served
// (artifacts.routes.ts, the lean front) or from nginx's view log (view-log.ts).
import { privacyDocument } from "@atelier/shared/domain/analytics/privacy";
import { Router } from "express";

export function analyticsRoutes(): Router {
  const r = Router();
  const privacy = privacyDocument();
  r.get("/privacy", (_req, res) => {
    res.set({ "Cache-Control": "public, max-age=300", "X-Content-Type-Options": "nosniff" }).type("text/html; charset=utf-8").send(privacy);
  });
  return r;
}
