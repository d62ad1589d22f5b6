// The sweeper finishes content writes that a process left half-done.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { testConfig, testDatabase, type TestDatabase } from "../testing/index";
import { advanceClock, resetClock } from "./clock";
import { markUsageChanging } from "./limits";
import { createPage } from "./pages";
import { sweepOnce } from "./sweeper";
import { createCollection, insertRows } from "./tables";
import { findOrCreateConfirmedUser } from "./users";

let database: TestDatabase;
const config = testConfig();
beforeAll(async () => {
  database = await testDatabase("sweeper");
});
afterAll(async () => {
  await database.drop();
});
afterEach(() => resetClock());

describe("repairs after an interrupted write", () => {
  it("stores the missing revision of a page whose writer stopped before it", async () => {
    const user = await findOrCreateConfirmedUser(database, "writer@example.com");
    const { page } = await createPage({ database, config }, { kind: "user", user }, { slug: "cut-short", title: "t", body_markdown: "x" });
    // What a process leaves when it dies right after writing the page.
    await database.c.revisions.deleteMany({ pageId: page._id });
    await database.c.pages.updateOne({ _id: page._id }, { $set: { revisionPending: true } });

    expect((await sweepOnce({ database, config })).repaired).toBe(0);
    advanceClock(61);
    await sweepOnce({ database, config });
    const revs = await database.c.revisions.find({ pageId: page._id }).toArray();
    expect(revs.map((r) => [r.version, r.actor.label])).toEqual([[1, "writer@example.com"]]);
    expect((await database.c.pages.findOne({ _id: page._id }))?.revisionPending).toBe(false);
  });

  it("recounts usage and row counts that a reservation moved without a write", async () => {
    const user = await findOrCreateConfirmedUser(database, "counter@example.com");
    const principal = { kind: "user" as const, user };
    await createPage({ database, config }, principal, { slug: "counted", title: "t", body_markdown: "hello" });
    await createCollection({ database, config }, principal, { slug: "nums", name: "Nums", kind: "table", columns: [{ name: "n", type: "number" }] });
    await insertRows({ database, config }, principal, { collection: "nums", rows: [{ n: 1 }, { n: 2 }] });
    const wsId = user.defaultWorkspaceId ?? "";
    const truth = (await database.c.workspaces.findOne({ _id: wsId }))?.usage;
    // Reservations whose writes never happened.
    await database.c.workspaces.updateOne({ _id: wsId }, { $inc: { "usage.pages": 3, "usage.bytes": 5000 }, $set: { usageDirtyAt: new Date() } });
    await database.c.collections.updateOne({ workspaceId: wsId, slug: "nums" }, { $inc: { rowCount: 7 }, $set: { countDirtyAt: new Date() } });

    advanceClock(61);
    await sweepOnce({ database, config });
    const ws = await database.c.workspaces.findOne({ _id: wsId });
    expect(ws?.usage).toEqual(truth);
    expect(ws?.usage.pages).toBe(1);
    expect(ws?.usageDirtyAt).toBeNull();
    expect((await database.c.collections.findOne({ workspaceId: wsId, slug: "nums" }))?.rowCount).toBe(2);
  });
});

describe("repairs after an interrupted delete", () => {
  it("recounts when a delete stopped between removing the page and releasing its usage", async () => {
    const user = await findOrCreateConfirmedUser(database, "deleter@example.com");
    const { page } = await createPage({ database, config }, { kind: "user", user }, { slug: "to-go", title: "t", body_markdown: "bye" });
    const wsId = user.defaultWorkspaceId ?? "";
    // deletePage marks the counters, then removes the page; a stop right after that:
    await markUsageChanging(database, wsId);
    await database.c.pages.deleteOne({ _id: page._id });
    expect((await database.c.workspaces.findOne({ _id: wsId }))?.usage.pages).toBe(1);
    advanceClock(61);
    await sweepOnce({ database, config });
    expect((await database.c.workspaces.findOne({ _id: wsId }))?.usage).toEqual({ pages: 0, bytes: 0 });
  });
});
