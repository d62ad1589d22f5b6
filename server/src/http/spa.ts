// The built SPA, for installs without a separate web server (`pnpm start`): hashed assets
// are cached for a year, index.html never, and every /app/* path falls back to index.html.
// Text assets are served compressed: the build writes brotli and gzip copies beside them
// (web/vite.config.ts, `precompress`), and the copy the browser accepts is sent, so serving
// costs no CPU. Behind nginx the same copies pass through (nginx does not compress twice).
// Source maps are never in the build folder; a request for one is a plain 404.
import { existsSync } from "node:fs";
import path from "node:path";
import express, { type RequestHandler, Router } from "express";
import { notFound } from "./errors";

const ASSET_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".html": "text/html; charset=utf-8",
};
const ENCODINGS = { br: ".br", gzip: ".gz" } as const;
const ASSET_CACHE = "public, max-age=31536000, immutable";

/** An asset's precompressed copy, when the browser accepts one and the build made it. */
function precompressed(assetsDir: string): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    // One file name, nothing else (no folders, no dots first): the build's hashed names.
    const name = req.path.slice(1);
    if (!/^[\w-][\w.-]*$/.test(name)) return next();
    const type = ASSET_TYPES[path.extname(name)];
    if (!type) return next();
    res.vary("Accept-Encoding");
    // Brotli first whenever it is accepted (browsers list gzip first but take either), then gzip.
    const encoding = (["br", "gzip"] as const).find((e) => req.acceptsEncodings(e) === e && existsSync(path.join(assetsDir, name + ENCODINGS[e])));
    if (!encoding) return next();
    const file = path.join(assetsDir, name + ENCODINGS[encoding]);
    res.set({ "Content-Type": type, "Content-Encoding": encoding, "Cache-Control": ASSET_CACHE, "X-Content-Type-Options": "nosniff" });
    res.sendFile(file, { acceptRanges: false, cacheControl: false }, (err) => {
      if (err && !res.headersSent) next(err);
    });
  };
}

export function spaRoutes(distDir: string): Router {
  const index = path.join(distDir, "index.html");
  if (!existsSync(index)) throw new Error(`WEB_DIST_DIR: ${distDir} has no index.html; run pnpm build first`);
  const assets = path.join(distDir, "assets");
  const r = Router();
  // Even a map left in the folder by hand is not published (the build puts them elsewhere).
  r.use("/app/assets", (req, res, next) => (req.path.endsWith(".map") ? notFound(req, res, next) : next()));
  r.use("/app/assets", precompressed(assets));
  r.use(
    "/app/assets",
    express.static(assets, {
      immutable: true,
      maxAge: "365d",
      index: false,
      fallthrough: false,
      setHeaders: (res) => res.setHeader("X-Content-Type-Options", "nosniff"),
    }),
  );
  r.use("/app", express.static(distDir, { index: false, maxAge: 0 }));
  r.get(["/app", "/app/{*rest}"], (_req, res) => {
    res.set({ "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "same-origin" });
    res.sendFile(index);
  });
  return r;
}
