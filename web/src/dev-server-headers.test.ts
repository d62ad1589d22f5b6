// Issue 23 item 10: under `pnpm dev` the consent screen (every /app page) refuses to be
// framed, and Vite's proxy passes the server the address it saw, never one the client chose
// (the server trusts loopback, so a client's X-Forwarded-For would pick its own per-address limits).
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from "node:http";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
let vite: ViteDevServer;
let upstream: Server;
let port = 0;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  // Stands in for the server process: it records the headers the proxy sent.
  upstream = createHttpServer((req, res) => {
    seen.push(req.headers);
    res.end("ok");
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  // vite.config.ts reads the server's port when it is loaded.
  process.env.SERVER_PORT = String((upstream.address() as AddressInfo).port);
  vite = await createServer({ configFile: path.join(root, "vite.config.ts"), root, logLevel: "silent", server: { port: 0, strictPort: false, hmr: false } });
  await vite.listen();
  port = (vite.httpServer?.address() as AddressInfo).port;
}, 30_000);
afterAll(async () => {
  await vite.close();
  await new Promise<void>((r) => upstream.close(() => r()));
  delete process.env.SERVER_PORT;
});

const get = (p: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: IncomingHttpHeaders }>((resolve, reject) => {
    request({ host: "127.0.0.1", port, path: p, headers: { accept: "text/html", ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    })
      .on("error", reject)
      .end();
  });

describe("the development server's headers", () => {
  it("sends the consent screen (and every app page) with X-Frame-Options: DENY", async () => {
    const res = await get("/app/oauth/consent/some-interaction");
    expect(res.status).toBe(200);
    expect(res.headers["x-frame-options"]).toBe("DENY");
  });

  it("passes the server the address it saw, not the X-Forwarded-For or X-Forwarded-Host a client sent", async () => {
    const res = await get("/api/trpc/me.get", { "x-forwarded-for": "203.0.113.9", "x-forwarded-host": "evil.example", forwarded: "for=203.0.113.9" });
    expect(res.status).toBe(200);
    const headers = seen[seen.length - 1] ?? {};
    expect(headers["x-forwarded-for"]).toBe("127.0.0.1");
    expect(String(headers["x-forwarded-host"])).not.toContain("evil.example");
    expect(headers.forwarded).toBeUndefined();
  });
});
