import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@atelier/shared/logger";
import { errorMiddleware } from "@atelier/shared/http-errors";
import { notFound } from "./errors";
import { spaRoutes } from "./spa";

const APP_JS = `export const words = ${JSON.stringify("the app's code ".repeat(400))};`;
const APP_CSS = `.a{color:red}\n`.repeat(300);

/** A GET with exactly these headers (fetch would add its own Accept-Encoding and decode the body). */
function get(
  url: string,
  headers: Record<string, string>,
  method = "GET",
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

// The SPA's files as the server serves them, with the app's own error handling behind them.
describe("spaRoutes behind the error handler", () => {
  let dir: string;
  let base: string;
  let close: () => void;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "spa-test-"));
    mkdirSync(path.join(dir, "assets"));
    writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>Atelier</title>");
    writeFileSync(path.join(dir, "assets", "index-abc123.js"), "console.log(1);");
    writeFileSync(path.join(dir, "assets", "app-def456.js"), APP_JS);
    writeFileSync(path.join(dir, "assets", "app-def456.js.br"), brotliCompressSync(APP_JS));
    writeFileSync(path.join(dir, "assets", "app-def456.js.gz"), gzipSync(APP_JS));
    writeFileSync(path.join(dir, "assets", "style-0a1b2c.css"), APP_CSS);
    writeFileSync(path.join(dir, "assets", "style-0a1b2c.css.gz"), gzipSync(APP_CSS));
    writeFileSync(path.join(dir, "assets", "app-def456.js.map"), '{"version":3,"sources":["secret.ts"]}');
    const app = express();
    app.post("/json", express.json(), (_req, res) => res.json({ ok: true }));
    app.use(spaRoutes(dir));
    app.use(notFound);
    app.use(errorMiddleware(createLogger({ name: "test", level: "silent" })));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => {
    close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves an asset, and index.html for any /app path", async () => {
    expect((await fetch(`${base}/app/assets/index-abc123.js`)).status).toBe(200);
    const page = await fetch(`${base}/app/buckets/x/y`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>Atelier</title>");
  });

  it("answers a missing asset with 404 not_found, not as a bad JSON body", async () => {
    const res = await fetch(`${base}/app/assets/index-gone999.js`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });

  it("answers an unsatisfiable range with its own 4xx, not as a bad JSON body", async () => {
    const res = await fetch(`${base}/app/assets/index-abc123.js`, { headers: { range: "bytes=5000-6000" } });
    expect(res.status).toBe(416);
    expect(JSON.stringify(await res.json())).not.toContain("JSON");
  });

  it("sends the brotli or gzip copy the build made, as the browser accepts, for the same bytes (issue 27)", async () => {
    const url = `${base}/app/assets/app-def456.js`;
    const br = await get(url, { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(br.headers["vary"]).toMatch(/Accept-Encoding/i);
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotliDecompressSync(br.body).toString()).toBe(APP_JS);
    expect(br.body.length).toBeLessThan(APP_JS.length / 4);

    const gz = await get(url, { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(APP_JS);

    const plain = await get(url, {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["vary"]).toMatch(/Accept-Encoding/i);
    expect(plain.body.toString()).toBe(APP_JS);
    expect((await get(url, { "accept-encoding": "br;q=0, gzip;q=0" })).headers["content-encoding"]).toBeUndefined();

    // A stylesheet with only a gzip copy: br is asked for first, gzip is what there is.
    const css = await get(`${base}/app/assets/style-0a1b2c.css`, { "accept-encoding": "br, gzip" });
    expect(css.headers["content-encoding"]).toBe("gzip");
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(gunzipSync(css.body).toString()).toBe(APP_CSS);

    const head = await get(url, { "accept-encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.body.length).toBe(0);
  });

  it("publishes no source maps: the build keeps them elsewhere, and a request for one is a 404", async () => {
    // One left in the folder by hand is not served either.
    const res = await get(`${base}/app/assets/app-def456.js.map`, { "accept-encoding": "br" });
    expect(res.status).toBe(404);
    expect(res.body.toString()).not.toContain("secret.ts");
    expect(JSON.parse(res.body.toString())).toMatchObject({ error: "not_found" });
  });

  it("still answers a malformed JSON body with 400 invalid_request", async () => {
    const res = await fetch(`${base}/json`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "invalid_request", error_description: "The request body could not be read as JSON." });
  });
});
