import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@atelier/shared/logger";
import { errorMiddleware } from "@atelier/shared/http-errors";
import { notFound } from "./errors";
import { spaRoutes } from "./spa";

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

  it("still answers a malformed JSON body with 400 invalid_request", async () => {
    const res = await fetch(`${base}/json`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "invalid_request", error_description: "The request body could not be read as JSON." });
  });
});
