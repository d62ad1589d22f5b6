// The view beacon and the privacy note (docs/ARCHITECTURE.md#reading-figures). The beacon
// comes from a published page, whose scripts run in an opaque origin (the artifact CSP), so
// it is a cross-site request by design: it sits before the same-origin guard, takes no
// credential and changes nothing but a counter. Its answer is always the same (204), so it
// never tells whether an address exists or is counted.
import { countBeacon } from "@atelier/shared/domain/analytics/beacon";
import { privacyDocument } from "@atelier/shared/domain/analytics/privacy";
import { AppError } from "@atelier/shared/errors";
import { BeaconSchema } from "@atelier/shared/schemas/analytics";
import { parseInput } from "@atelier/shared/schemas/parse";
import express, { Router } from "express";
import type { Deps } from "../../context";

const beaconBody = express.text({ type: () => true, limit: 4096 });

export function analyticsRoutes(deps: Deps): Router {
  const r = Router();
  r.post("/api/v", beaconBody, async (req, res) => {
    let body: unknown;
    try {
      body = JSON.parse(typeof req.body === "string" ? req.body : "");
    } catch {
      throw new AppError("invalid_request", 'Send {"p": the page\'s address path, "r": the referring host} as JSON.');
    }
    const beacon = parseInput(BeaconSchema, body);
    res.set("Cache-Control", "no-store");
    await countBeacon(deps, deps.views, {
      path: beacon.p,
      referrer: beacon.r,
      address: req.ip ?? "",
      userAgent: req.get("user-agent"),
      headers: req.headers,
    });
    res.status(204).end();
  });
  const privacy = privacyDocument();
  r.get("/privacy", (_req, res) => {
    res.set({ "Cache-Control": "public, max-age=300", "X-Content-Type-Options": "nosniff" }).type("text/html; charset=utf-8").send(privacy);
  });
  return r;
}
