import path from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));

// In development Vite is the one public origin (DESIGN §1, §9): /app is the SPA, /mcp goes
// to the sidecar, everything else to the server. The dev runner passes the ports.
const env = process.env;
const serverUrl = `http://127.0.0.1:${env.SERVER_PORT ?? "3001"}`;
const sidecarUrl = `http://127.0.0.1:${env.SIDECAR_PORT ?? "3002"}`;

export default defineConfig({
  base: "/app/",
  plugins: [react()],
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
