import path from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));

// In development Vite is the one public origin (DESIGN §1, §9): /app is the SPA, /mcp goes
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

export default defineConfig({
  base: "/app/",
  plugins: [appSlash(), react()],
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
  build: { outDir: "dist", sourcemap: true, cssCodeSplit: false },
});
