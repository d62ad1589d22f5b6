import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError, translateDbError } from "../errors";
import { testDatabase } from "../testing/index";
import { ensureIndexes, type Database, type UserDoc } from "./index";

let database: Database & { drop(): Promise<void> };

beforeAll(async () => {
  database = await testDatabase("shared_db");
});
afterAll(async () => {
  await database.drop();
});

const user = (id: string, email: string): UserDoc => ({
  _id: id,
  email,
  confirmedAt: null,
  defaultWorkspaceId: null,
  createdAt: new Date("2026-01-02T03:04:05.000Z"),
});

describe("typed collections on the real database", () => {
  it("reads back a document written through shared", async () => {
    await database.c.users.insertOne(user("usr_a", "a@example.com"));
    const found = await database.c.users.findOne({ _id: "usr_a" });
    expect(found).toEqual(user("usr_a", "a@example.com"));
    expect(found?.createdAt).toBeInstanceOf(Date);
  });

  it("turns a unique-index violation into the domain conflict error", async () => {
    await database.c.users.insertOne(user("usr_b", "b@example.com"));
    const err = await database.c.users.insertOne(user("usr_c", "b@example.com")).catch((e: unknown) => translateDbError(e, "That e-mail address is taken."));
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("conflict");
    expect((err as AppError).rule.http).toBe(409);
    expect((err as AppError).message).toBe("That e-mail address is taken.");
    expect(await database.c.users.countDocuments({ email: "b@example.com" })).toBe(1);
  });

  it("creates indexes idempotently", async () => {
    await ensureIndexes(database.db);
    await ensureIndexes(database.db);
    const names = (await database.c.pages.indexes()).map((i) => i.name);
    expect(names).toEqual(expect.arrayContaining(["workspace_slug", "pending"]));
  });

  // Atelier relies on MongoDB's single-document atomicity (one winner per claim, version
  // checks, counters); the embedded FerretDB must give the same guarantee.
  it("counts every one of fifty concurrent $inc on one document", async () => {
    const coll = database.db.collection<{ _id: string; n: number }>("atomic_inc");
    await coll.insertOne({ _id: "c", n: 0 });
    await Promise.all(Array.from({ length: 50 }, () => coll.updateOne({ _id: "c" }, { $inc: { n: 1 } })));
    expect((await coll.findOne({ _id: "c" }))?.n).toBe(50);
  });

  it("lets exactly one of twenty concurrent conditional updates win", async () => {
    const coll = database.db.collection<{ _id: string; v: number; by?: number }>("atomic_cas");
    await coll.insertOne({ _id: "p", v: 1 });
    const updates = await Promise.all(Array.from({ length: 20 }, (_, i) => coll.updateOne({ _id: "p", v: 1 }, { $set: { v: 2, by: i } })));
    expect(updates.filter((r) => r.modifiedCount === 1)).toHaveLength(1);
    const finds = await Promise.all(Array.from({ length: 20 }, (_, i) => coll.findOneAndUpdate({ _id: "p", v: 2 }, { $set: { v: 3, by: i } })));
    expect(finds.filter((r) => r !== null)).toHaveLength(1);
  });
});
