// Upgrades keep yesterday's data (issue 31, item 2): the backup of an instance as the
// previous release stored it (schema version 2: shared/fixtures/schema-2.zip, made by
// shared/src/devtools/make-upgrade-fixture.ts) is restored and migrated by this release, and
// the app reads and writes it — every command inside the storage contract.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../db/migrations";
import type { Principal } from "../domain/access";
import { getPage } from "../domain/pages/get-page";
import { pageHistory } from "../domain/pages/page-history";
import { updatePage } from "../domain/pages/update-page";
import { createPage } from "../domain/pages/create-page";
import { insertRows } from "../domain/tables/insert-rows";
import { listRows } from "../domain/tables/list-rows";
import { authenticateBearer } from "../domain/tokens";
import { findOrCreateConfirmedUser } from "../domain/users";
import { testDatabase, testDeps, testMongoUri, type TestDatabase } from "../testing/index";
import { restoreDatabase } from "./restore";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures");
const about = JSON.parse(readFileSync(path.join(FIXTURES, "schema-2.json"), "utf8")) as {
  email: string;
  workspace: string;
  token: string;
  pages: string[];
  table: string;
};

let database: TestDatabase;
let client: MongoClient;

beforeAll(async () => {
  database = await testDatabase("upgrade");
  client = new MongoClient(testMongoUri());
  await client.connect();
});
afterAll(async () => {
  await client.close();
  await database.drop();
});

it("opens the previous release's data: migrated to this schema, read and written as before", async () => {
  expect(SCHEMA_VERSION).toBeGreaterThan(2);
  const r = await restoreDatabase(client.db(database.name), path.join(FIXTURES, "schema-2.zip"));
  expect(r.migratedFrom).toBe(2);
  expect((await database.c.meta.findOne({ _id: "schema" }))?.version).toBe(SCHEMA_VERSION);
  // Version 3's step ran on the old record.
  const oauth = await database.c.oauth.findOne({ _id: "Client:dcr_fixture" });
  expect(oauth?.payload).not.toContain("fixture-secret-in-clear");
  expect(oauth?.expiresAt).toBeInstanceOf(Date);

  const deps = testDeps(database);
  const user = await findOrCreateConfirmedUser(deps, about.email);
  const principal: Principal = { kind: "user", user };
  expect(user.defaultWorkspaceId).toBeTruthy();

  const handbook = await getPage(deps, principal, { slug: "handbook" });
  expect(handbook).toMatchObject({ title: "The handbook", version: 3, workspace: about.workspace });
  expect(handbook.parts[0]?.body).toContain("ünïcode ✓");
  expect((await pageHistory(deps, principal, "handbook")).map((v) => v.version)).toEqual(expect.arrayContaining([1, 2, 3]));
  expect((await getPage(deps, principal, { slug: "landing" })).parts[0]).toMatchObject({ kind: "html" });
  const rows = await listRows(deps, principal, { collection: about.table });
  expect(rows.rows.map((x) => x.values)).toEqual(
    expect.arrayContaining([
      { title: "Dune", pages: 896 },
      { title: "Emma", pages: 474 },
    ]),
  );
  expect((await authenticateBearer(deps, about.token)).label).toBe("fixture agent");

  expect((await updatePage(deps, principal, { slug: "handbook", body_markdown: "Version four, after the upgrade." })).version).toBe(4);
  await createPage(deps, principal, { slug: "after-upgrade", title: "After", body_markdown: "new" });
  await insertRows(deps, principal, { collection: about.table, rows: [{ title: "Middlemarch", pages: 880 }] });
  expect((await listRows(deps, principal, { collection: about.table })).rows).toHaveLength(3);
});
