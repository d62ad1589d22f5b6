// The development server (Vite, the one origin of `pnpm dev`) sends /app to /app/ instead of
// answering with its note about the base URL, and serves nothing of the checkout beyond the
// SPA, the shared rules it imports and the packages (issue 13 item 13).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const repo = path.resolve(root, "..");
// A file where the development secret key and the dev outbox live (DATA_DIR, `.data`).
const probeDir = path.join(repo, ".data", `vite-probe-${process.pid}`);
const SECRET = `not-for-the-browser-${process.pid}`;
let server: ViteDevServer;
let port = 0;

beforeAll(async () => {
  mkdirSync(path.join(probeDir, "outbox"), { recursive: true });
  writeFileSync(path.join(probeDir, "secret-key"), SECRET);
  writeFileSync(path.join(probeDir, "outbox", "mail.eml"), SECRET);
  server = await createServer({
    configFile: path.join(root, "vite.config.ts"),
    root,
    logLevel: "silent",
    server: { port: 0, strictPort: false, proxy: {}, hmr: false },
  });
  await server.listen();
  port = (server.httpServer?.address() as AddressInfo).port;
}, 30_000);
afterAll(async () => {
  await server.close();
  rmSync(probeDir, { recursive: true, force: true });
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

const fetchBody = (p: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    request({ host: "127.0.0.1", port, path: p }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
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

describe("what the development server will serve through /app/@fs", () => {
  it("refuses the data folder (secret key, outbox) and everything outside the web package and the shared rules", async () => {
    const refused = [
      `/app/@fs${probeDir}/secret-key`,
      `/app/@fs${probeDir}/secret-key?raw`,
      `/app/@fs${probeDir}/secret-key?import`,
      `/app/@fs${probeDir}/outbox/mail.eml`,
      `/app/@fs${probeDir}/outbox/mail.eml?raw`,
      `/app/@fs${repo}/.data/../.data/vite-probe-${process.pid}/secret-key`,
      `/app/@fs${repo}/server/src/app.ts`,
      `/app/@fs${repo}/package.json`,
    ];
    for (const p of refused) {
      const res = await fetchBody(p);
      expect(res.body, p).not.toContain(SECRET);
      expect([403, 404], p).toContain(res.status);
    }
    // A path climbing out of /app is the app's own page, never the file.
    expect((await fetchBody(`/app/../.data/vite-probe-${process.pid}/secret-key`)).body).not.toContain(SECRET);
    expect((await fetchBody(`/app/@fs${probeDir}/secret-key`)).status).toBe(403);
    // Git's files (a folder in a clone, a file in a worktree) never come back either.
    for (const p of [`/app/@fs${repo}/.git/HEAD`, `/app/@fs${repo}/.git`]) {
      const res = await fetchBody(p);
      expect(res.body, p).not.toMatch(/^(ref:|gitdir:)/m);
    }
    // The route itself works for what the SPA needs (so the refusals above are the rule, not a broken route).
    expect((await fetchBody(`/app/@fs${root}/src/main.tsx`)).status).toBe(200);
    expect((await fetchBody(`/app/@fs${repo}/shared/src/schemas/common.ts`)).status).toBe(200);
  });
});
