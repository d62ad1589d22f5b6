// The sweeper finishes what a stopped process left half-done (pages, counters, files whose
// chunks were cut short, expired upload URLs), and deletes expired sandboxes from every
// collection that can hold them.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { COLLECTION_NAMES } from "../db/index";
import { testDatabase, testDeps, type TestDatabase, type TestDeps } from "../testing/index";
import { advanceClock, resetClock } from "./clock";
import { randomBytes } from "node:crypto";
import { addFile, CHUNK_BYTES } from "./files";
import { countUsage, markUsageChanging } from "./limits";
import { createPage } from "./pages/create-page";
import { updatePage } from "./pages/update-page";
import { claim, registerAnonymous, startAnonymousClaim } from "./registrations";
import { createUploadUrl } from "./uploads";
import { sweepOnce } from "./sweeper";
import { createCollection } from "./tables/create-collection";
import { insertRows } from "./tables/insert-rows";
import { updateRow } from "./tables/update-row";
import { authenticateBearer } from "./tokens";
import { findOrCreateConfirmedUser } from "./users";
import { awaitWritesSettled } from "./versioned-write";

let database: TestDatabase;
let deps: TestDeps<TestDatabase>;
beforeAll(async () => {
  database = await testDatabase("sweeper");
  deps = testDeps(database);
});
afterAll(async () => {
  await database.drop();
});
afterEach(() => resetClock());

const pageId = async (slug: string) => (await database.c.artifacts.findOne({ _id: slug }))?.pageId ?? "";

describe("repairs after an interrupted write", () => {
  it("stores the missing revision of a page whose writer stopped before it", async () => {
    const user = await findOrCreateConfirmedUser(deps, "writer@example.com");
    await createPage(deps, { kind: "user", user }, { slug: "cut-short", title: "t", body_markdown: "x" });
    await awaitWritesSettled(); // its late step (the search index) and cleared mark
    const id = await pageId("cut-short");
    // What a process leaves when it dies right after writing the page.
    await database.c.revisions.deleteMany({ pageId: id });
    await database.c.pages.updateOne({ _id: id }, { $set: { revisionPending: true } });

    expect((await sweepOnce(deps)).repaired).toBe(0);
    advanceClock(61);
    await sweepOnce(deps);
    const revs = await database.c.revisions.find({ pageId: id }).toArray();
    expect(revs.map((r) => [r.version, r.actor.label])).toEqual([[1, "writer@example.com"]]);
    expect((await database.c.pages.findOne({ _id: id }))?.revisionPending).toBe(false);
  });

  it("keeps the usage counter equal to what is stored, and recounts one a reservation moved without a write", async () => {
    const user = await findOrCreateConfirmedUser(deps, "counter@example.com");
    const principal = { kind: "user" as const, user };
    await createPage(deps, principal, { slug: "counted", title: "t", body_markdown: "hello" });
    await updatePage(deps, principal, { slug: "counted", body_markdown: "hello again", tables: [{ collection: "nums" }] });
    await createCollection(deps, principal, { slug: "nums", name: "Nums", kind: "table", columns: [{ name: "n", type: "number" }] });
    const { row_ids } = await insertRows(deps, principal, { collection: "nums", rows: [{ n: 1 }, { n: 2 }] });
    await updateRow(deps, principal, { collection: "nums", rowId: row_ids[0] ?? "", values: { n: 10 } });
    const wsId = user.defaultWorkspaceId ?? "";
    const truth = await countUsage({ database }, wsId);
    // Every write kept the counter exact: it equals a full recount of what is stored.
    expect((await database.c.workspaces.findOne({ _id: wsId }))?.usage).toEqual(truth);
    expect(truth.pages).toBe(1);
    // Reservations whose writes never happened.
    await database.c.workspaces.updateOne({ _id: wsId }, { $inc: { "usage.pages": 3, "usage.bytes": 5000 }, $set: { usageDirtyAt: new Date() } });
    await database.c.collections.updateOne({ workspaceId: wsId, slug: "nums" }, { $inc: { rowCount: 7 }, $set: { countDirtyAt: new Date() } });

    advanceClock(61);
    await sweepOnce(deps);
    const ws = await database.c.workspaces.findOne({ _id: wsId });
    expect(ws?.usage).toEqual(truth);
    expect(ws?.usageDirtyAt).toBeNull();
    expect((await database.c.collections.findOne({ workspaceId: wsId, slug: "nums" }))?.rowCount).toBe(2);
  });
});

describe("repairs after an interrupted delete", () => {
  it("finishes a delete that stopped after its mark, and gives its usage back", async () => {
    const user = await findOrCreateConfirmedUser(deps, "deleter@example.com");
    await createPage(deps, { kind: "user", user }, { slug: "to-go", title: "t", body_markdown: "bye" });
    const id = await pageId("to-go");
    const wsId = user.defaultWorkspaceId ?? "";
    // deletePage marks the page and the counters; a stop right after that:
    await database.c.pages.updateOne({ _id: id }, { $set: { deletingAt: new Date() } });
    await markUsageChanging({ database }, wsId);
    expect((await database.c.workspaces.findOne({ _id: wsId }))?.usage.pages).toBe(1);
    advanceClock(61);
    await sweepOnce(deps);
    expect(await database.c.pages.findOne({ _id: id })).toBeNull();
    expect(await database.c.revisions.countDocuments({ pageId: id })).toBe(0);
    expect(await database.c.artifacts.findOne({ _id: "to-go" })).toBeNull();
    const usage = (await database.c.workspaces.findOne({ _id: wsId }))?.usage;
    expect(usage).toEqual(await countUsage({ database }, wsId));
    expect(usage?.pages).toBe(0);
  });
});

describe("half-written files and uploads", () => {
  it("drops a file whose chunks were cut short and one whose delete stopped half-way, gives their bytes back, and clears expired upload URLs", async () => {
    const user = await findOrCreateConfirmedUser(deps, "uploader@example.com");
    const me = { kind: "user" as const, user };
    const wsId = user.defaultWorkspaceId ?? "";
    const kept = await addFile(deps, me, { data: randomBytes(2 * CHUNK_BYTES + 10), name: "kept.bin", imageOnly: false });
    const cut = await addFile(deps, me, { data: randomBytes(3 * CHUNK_BYTES + 10), name: "cut.bin", imageOnly: false });
    const halfDeleted = await addFile(deps, me, { data: randomBytes(CHUNK_BYTES + 10), name: "half-deleted.bin", imageOnly: false });
    const idOf = (f: typeof kept) => `${wsId}:${f.file.sha256}`;
    // A writer that stopped after two of its four chunks, and a delete that stopped after its first step.
    await database.c.files.updateOne({ _id: idOf(cut) }, { $set: { complete: false } });
    await database.c.fileChunks.deleteMany({ fileId: idOf(cut), n: { $gte: 2 } });
    await database.c.files.updateOne({ _id: idOf(halfDeleted) }, { $set: { complete: false } });
    await database.c.fileChunks.deleteOne({ fileId: idOf(halfDeleted), n: 0 });
    await createUploadUrl(deps, me, {});
    const chunks = () => database.c.fileChunks.countDocuments({ workspaceId: wsId });
    expect(await chunks()).toBe(3 + 2 + 1);
    const usageBefore = (await database.c.workspaces.findOne({ _id: wsId }))?.usage.bytes ?? 0;

    // Within the grace period the writer may still be at it: nothing is touched.
    await sweepOnce(deps);
    expect(await chunks()).toBe(6);
    expect(await database.c.files.countDocuments({ workspaceId: wsId })).toBe(3);

    advanceClock(deps.config.UPLOAD_URL_TTL_SECONDS + 1);
    await sweepOnce(deps);
    expect(await chunks()).toBe(3);
    expect((await database.c.fileChunks.find({ workspaceId: wsId }).toArray()).every((c) => c.fileId === idOf(kept))).toBe(true);
    expect((await database.c.files.find({ workspaceId: wsId }).toArray()).map((f) => f.name)).toEqual(["kept.bin"]);
    expect(await database.c.uploads.countDocuments({ workspaceId: wsId })).toBe(0);
    const usage = (await database.c.workspaces.findOne({ _id: wsId }))?.usage;
    expect(usage?.bytes).toBeLessThan(usageBefore);
    expect(usage).toEqual(await countUsage({ database }, wsId));
  });
});

describe("purging an expired sandbox", () => {
  it("leaves nothing of it in any collection", async () => {
    const local = testDeps(database, { ANONYMOUS_REGISTRATION_ENABLED: "true" });
    const reg = await registerAnonymous(local, { agentLabel: "Purge-me agent", requesterIp: "203.0.113.9" });
    const token = await authenticateBearer(local, reg.credential);
    const principal = { kind: "token" as const, token };
    await createPage(local, principal, { slug: "purge-me-page", title: "Doomed", body_markdown: "soon gone" });
    await updatePage(local, principal, { slug: "purge-me-page", body_markdown: "soon gone, twice" });
    await createCollection(local, principal, { slug: "purge-table", name: "Doomed table", kind: "table", columns: [{ name: "n", type: "number" }] });
    const { row_ids } = await insertRows(local, principal, { collection: "purge-table", rows: [{ n: 1 }] });
    await updateRow(local, principal, { collection: "purge-table", rowId: row_ids[0] ?? "", values: { n: 2 } });
    // A claim started (a code sent to an address) but never finished.
    await startAnonymousClaim(local, { claimToken: reg.registration_id, email: "never-finished@example.com" });

    advanceClock(local.config.ANON_CLAIM_WINDOW_SECONDS + 1);
    await sweepOnce(local);
    advanceClock(local.config.ANON_RETENTION_SECONDS + 1);
    const report = await sweepOnce(local);
    expect(report.purged).toBeGreaterThanOrEqual(1);

    // Every collection there is, searched for anything that names the sandbox.
    const needles = [
      reg.sandbox_bucket.id,
      reg.sandbox_bucket.slug,
      reg.token_id,
      "Purge-me agent",
      "purge-me-page",
      "never-finished@example.com",
      "soon gone",
    ];
    for (const name of COLLECTION_NAMES) {
      const docs = await database.db.collection(name).find({}).toArray();
      const hits = docs.filter((d) => needles.some((n) => JSON.stringify(d).includes(n)));
      expect(hits, `${name} still holds the sandbox's data`).toEqual([]);
    }
    // What is left is a stripped record that the registration ended.
    const late = await claim(local, { claimToken: reg.registration_id, email: "late@example.com" }).catch((e: unknown) => e);
    expect((late as { code?: string }).code).toBe("claim_window_expired");
  });
});
