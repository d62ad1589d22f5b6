import path from "node:path";
import { connectDatabase } from "@atelier/shared/db";
import { REPO_ROOT, startEmbeddedDb, type EmbeddedDb } from "@atelier/shared/devtools/embedded-db";
import { capturingLogger, listen, testDatabase, testDeps, type TestDatabase } from "@atelier/shared/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "./app";

describe("server /healthz", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await testDatabase("server_health");
  });
  afterAll(async () => {
    await database.drop();
  });

  it("answers 200 with the database reachable", async () => {
    const { logger } = capturingLogger();
    const srv = await listen(createApp({ ...testDeps(database), logger }));
    const res = await fetch(`${srv.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", database: "ok" });
    await srv.close();
  });

  it("answers an unknown route with the JSON error shape", async () => {
    const { logger } = capturingLogger();
    const srv = await listen(createApp({ ...testDeps(database), logger }));
    const res = await fetch(`${srv.url}/nope`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({ error: "not_found" });
    await srv.close();
  });
});

describe("server /healthz while the database is down", () => {
  // A database of this test's own, so stopping it does not disturb other files.
  let db: EmbeddedDb;
  const dataDir = path.join(REPO_ROOT, ".data", `test-health-${process.pid}`);

  beforeAll(async () => {
    db = await startEmbeddedDb({ dataDir });
  });
  afterAll(async () => {
    await db.stop();
  });

  it("answers 503 while the database is down and 200 again once it is back", async () => {
    const database = await connectDatabase(db.uri, "health", { serverSelectionTimeoutMS: 1_000 });
    const { logger } = capturingLogger();
    const srv = await listen(createApp({ ...testDeps(database), logger }));
    expect((await fetch(`${srv.url}/healthz`)).status).toBe(200);

    await db.stop();
    const down = await fetch(`${srv.url}/healthz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ error: "unavailable", error_description: "The database is unreachable." });

    const port = Number(new URL(db.uri).port);
    db = await startEmbeddedDb({ dataDir, port });
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      status = (await fetch(`${srv.url}/healthz`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
    await srv.close();
    await database.client.close();
  });
});
