// Row revisions beyond REVISIONS_KEPT are dropped by _id lookups, those an update stopped
// before its prune left behind too, and their bytes given back exactly once: the workspace's
// usage stays equal to a fresh count of what it stores.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabase, testDeps, type TestDatabase, type TestDeps } from "../testing/index";
import type { Principal } from "./access";
import { countUsage } from "./limits";
import { createCollection } from "./tables/create-collection";
import { insertRows } from "./tables/insert-rows";
import { updateRow } from "./tables/update-row";
import { findOrCreateConfirmedUser } from "./users";

let database: TestDatabase;
let deps: TestDeps<TestDatabase>;
let principal: Principal;

beforeAll(async () => {
  database = await testDatabase("rowrevs");
  deps = testDeps(database, { REVISIONS_KEPT: "3" });
  principal = { kind: "user", user: await findOrCreateConfirmedUser(deps, "revs@example.com") };
  await createCollection(deps, principal, { slug: "t", name: "T", kind: "table", columns: [{ name: "n", type: "number" }] });
});
afterAll(async () => {
  await database.drop();
});

async function usageMatchesCount(): Promise<void> {
  const ws = await database.c.workspaces.findOne({ _id: (principal.kind === "user" ? principal.user.defaultWorkspaceId : null) ?? "" });
  if (!ws) throw new Error("no workspace");
  expect(ws.usage.bytes).toBe((await countUsage(deps, ws._id)).bytes);
}

describe("row revisions beyond REVISIONS_KEPT", () => {
  it("keeps the last REVISIONS_KEPT versions and gives back the bytes of the rest", async () => {
    const { row_ids } = await insertRows(deps, principal, { collection: "t", rows: [{ n: 0 }] });
    const rowId = row_ids[0] as string;
    for (let i = 1; i <= 10; i++) await updateRow(deps, principal, { collection: "t", rowId, values: { n: i } });
    const versions = (await database.c.rowRevisions.find({ rowId }).toArray()).map((r) => r.version).sort((a, b) => a - b);
    expect(versions).toEqual([9, 10, 11]);
    await usageMatchesCount();
  });

  it("drops the older revisions updates stopped before their prune left behind", async () => {
    const { row_ids } = await insertRows(deps, principal, { collection: "t", rows: [{ n: 0 }] });
    const rowId = row_ids[0] as string;
    for (let i = 1; i <= 6; i++) await updateRow(deps, principal, { collection: "t", rowId, values: { n: i } });
    // As if the updates to versions 5..8 had stopped before their prune: versions 1..4 back, counted.
    const kept = await database.c.rowRevisions.findOne({ _id: `${rowId}:v5` });
    if (!kept) throw new Error("no revision");
    for (const v of [1, 2, 3, 4]) await database.c.rowRevisions.insertOne({ ...kept, _id: `${rowId}:v${v}`, version: v });
    await database.c.workspaces.updateOne({ _id: kept.workspaceId }, { $inc: { "usage.bytes": 4 * kept.bytes } });
    await updateRow(deps, principal, { collection: "t", rowId, values: { n: 7 } });
    const versions = (await database.c.rowRevisions.find({ rowId }).toArray()).map((r) => r.version).sort((a, b) => a - b);
    expect(versions).toEqual([6, 7, 8]);
    await usageMatchesCount();
  });
});
