// The built SPA, for installs without a separate web server (`pnpm start`): hashed assets
// are cached for a year, index.html never, and every /app/* path falls back to index.html.
import { existsSync } from "node:fs";
import path from "node:path";
import express, { Router } from "express";

export function spaRoutes(distDir: string): Router {
  const index = path.join(distDir, "index.html");
  if (!existsSync(index)) throw new Error(`WEB_DIST_DIR: ${distDir} has no index.html; run pnpm build first`);
  const r = Router();
  r.use("/app/assets", express.static(path.join(distDir, "assets"), { immutable: true, maxAge: "365d", index: false, fallthrough: false }));
  r.use("/app", express.static(distDir, { index: false, maxAge: 0 }));
  r.get(["/app", "/app/{*rest}"], (_req, res) => {
    res.set({ "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "same-origin" });
    res.sendFile(index);
  });
  return r;
}
