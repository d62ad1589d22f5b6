// The development server (Vite, the one origin of `pnpm dev`) sends /app to /app/ instead of
// answering with its note about the base URL.
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
let server: ViteDevServer;
let port = 0;

beforeAll(async () => {
  server = await createServer({ configFile: path.join(root, "vite.config.ts"), root, logLevel: "silent", server: { port: 0, strictPort: false, proxy: {}, hmr: false } });
  await server.listen();
  port = (server.httpServer?.address() as AddressInfo).port;
}, 30_000);
afterAll(async () => {
  await server.close();
});

const get = (p: string) =>
  new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
    request({ host: "127.0.0.1", port, path: p, headers: { accept: "text/html" } }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, location: res.headers.location });
    })
      .on("error", reject)
      .end();
  });

describe("the development server", () => {
  it("redirects /app to /app/, keeping the query", async () => {
    expect(await get("/app")).toEqual({ status: 301, location: "/app/" });
    expect(await get("/app?next=%2Fbuckets")).toEqual({ status: 301, location: "/app/?next=%2Fbuckets" });
  });

  it("serves the app at /app/ and leaves other /app… paths alone", async () => {
    expect((await get("/app/")).status).toBe(200);
    expect((await get("/app/buckets/x")).status).toBe(200);
  });
});
