import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));

// In development Vite is the one public origin (docs/ARCHITECTURE.md#development-runner): /app is the SPA, /mcp goes
// to the sidecar, everything else to the server. The dev runner passes the ports.
const env = process.env;
const serverUrl = `http://127.0.0.1:${env.SERVER_PORT ?? "3001"}`;
const sidecarUrl = `http://127.0.0.1:${env.SIDECAR_PORT ?? "3002"}`;

/**
 * `/app` without its slash is the app too: Vite would answer it with a note about its base
 * URL, so it is sent to `/app/` (query kept), as the production server does.
 */
export function appSlash(): Plugin {
  return {
    name: "atelier-app-slash",
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = req.url ?? "";
        if (url !== "/app" && !url.startsWith("/app?")) return next();
        res.statusCode = 301;
        res.setHeader("Location", `/app/${url.slice("/app".length)}`);
        res.end();
      });
    },
  };
}

/** What the build compresses ahead of time (the server picks a copy by Accept-Encoding: server/src/http/spa.ts). */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|html)$/;

/**
 * Writes `<file>.br` and `<file>.gz` beside each text file of the build that compression
 * makes smaller, at the highest levels (done once, at build time, so serving costs nothing).
 */
export function precompress(dir: string, files: string[]): void {
  for (const file of files) {
    if (!COMPRESSIBLE.test(file)) continue;
    const full = path.join(dir, file);
    const bytes = readFileSync(full);
    if (bytes.length < 1024) continue;
    const br = brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
    const gz = gzipSync(bytes, { level: 9 });
    if (br.length < bytes.length * 0.9) writeFileSync(`${full}.br`, br);
    if (gz.length < bytes.length * 0.9) writeFileSync(`${full}.gz`, gz);
  }
}

/**
 * Production builds: source maps are made (stack traces from the field can be mapped) but
 * never published: they go to web/dist-maps/, outside what the server serves, and the
 * bundles do not point to them. Text files are precompressed (brotli and gzip).
 */
export function productionAssets(mapsDir = path.join(here, "dist-maps")): Plugin {
  let outDir = "";
  return {
    name: "atelier-production-assets",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    buildStart() {
      rmSync(mapsDir, { recursive: true, force: true });
    },
    generateBundle(_options, bundle) {
      for (const [name, file] of Object.entries(bundle)) {
        if (!name.endsWith(".map") || file.type !== "asset") continue;
        mkdirSync(path.dirname(path.join(mapsDir, name)), { recursive: true });
        writeFileSync(path.join(mapsDir, name), file.source);
        delete bundle[name];
      }
    },
    writeBundle(_options, bundle) {
      precompress(outDir, Object.keys(bundle));
    },
  };
}

export default defineConfig({
  base: "/app/",
  plugins: [appSlash(), react(), productionAssets()],
  server: {
    host: "127.0.0.1",
    port: Number(env.PORT ?? 3000),
    strictPort: true,
    // The dev server serves files only from the SPA, the shared rules it imports and the
    // packages: never the data folder (the development secret key, the dev outbox) or
    // anything else in the checkout (/app/@fs/... would otherwise reach them).
    fs: {
      strict: true,
      allow: [here, path.resolve(here, "../shared/src"), path.resolve(here, "../node_modules")],
      deny: [".env", ".env.*", "*.{crt,pem,key}", "**/.data/**", "**/secret-key", "**/.git/**"],
    },
    proxy: {
      "^/mcp(/|$|\\?)": { target: sidecarUrl, xfwd: true },
      "^/(?!app(/|$))": { target: serverUrl, xfwd: true },
    },
  },
  preview: { port: Number(env.PORT ?? 3000) },
  // One stylesheet, as before the styles moved beside their components: it loads with the
  // page, and the order of its rules is the order of the imports (tokens and base first).
  // Source maps "hidden": made without a pointer in the bundles, and moved out of dist (productionAssets).
  build: { outDir: "dist", sourcemap: "hidden", cssCodeSplit: false },
});
