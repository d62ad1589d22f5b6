// Schema migrations on the real database: a store from before a version is brought to it.
import { afterAll, beforeAll, expect, it } from "vitest";
import { testDatabase, type TestDatabase } from "../testing";
import { migrate } from "./migrations";

let database: TestDatabase;
beforeAll(async () => {
  database = await testDatabase("migrations");
});
afterAll(async () => {
  await database.drop();
});

it("version 3: a dynamic registration from before expires and loses the client_secret stored in clear", async () => {
  const t = new Date();
  await database.c.meta.updateOne({ _id: "schema" }, { $set: { version: 2, updatedAt: t } }, { upsert: true });
  const payload = JSON.stringify({
    client_id: "dcr_old",
    client_secret: "in-clear-secret",
    client_secret_expires_at: 0,
    redirect_uris: ["https://a.example/cb"],
  });
  await database.c.oauth.insertOne({
    _id: "Client:dcr_old",
    model: "Client",
    payload,
    consumed: null,
    grantId: null,
    uid: null,
    expiresAt: null,
    createdAt: t,
  });
  await migrate(database.db);
  const doc = await database.c.oauth.findOne({ _id: "Client:dcr_old" });
  expect(doc?.payload).not.toContain("in-clear-secret");
  expect(JSON.parse(doc?.payload ?? "{}")).toMatchObject({ client_id: "dcr_old", redirect_uris: ["https://a.example/cb"] });
  expect(doc?.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
  expect((await database.c.meta.findOne({ _id: "schema" }))?.version).toBe(3);
});
