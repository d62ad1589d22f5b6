// `pnpm exec tsx shared/src/devtools/make-upgrade-fixture.ts`: writes shared/fixtures/
// schema-2.zip, the backup of an instance as the previous release (schema version 2) stored
// it, for shared/src/backup/upgrade.db.test.ts. The instance is filled through today's use
// cases on a throw-away embedded database, then written in version 2's shape: what
// migrations.ts's step to version 3 changes is undone (a dynamically registered OAuth client
// kept its client_secret in clear and never expired). When a release raises SCHEMA_VERSION,
// keep this file and add the next one's fixture beside it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Document } from "mongodb";
import { archiveFromDocuments } from "../backup/archive-from-documents";
import { collectionNames } from "../backup/backup";
import { connectDatabase } from "../db/index";
import type { Principal } from "../domain/access";
import { addMemberByEmail } from "../domain/members";
import { createPage } from "../domain/pages/create-page";
import { updatePage } from "../domain/pages/update-page";
import { createShareLink } from "../domain/share-links";
import { createCollection } from "../domain/tables/create-collection";
import { insertRows } from "../domain/tables/insert-rows";
import { updateRow } from "../domain/tables/update-row";
import { createUserToken } from "../domain/tokens";
import { findOrCreateConfirmedUser } from "../domain/users";
import { testDeps } from "../testing/deps";
import { REPO_ROOT, startEmbeddedDb } from "./embedded-db";

const dir = mkdtempSync(path.join(tmpdir(), "atelier-fixture-"));
const embedded = await startEmbeddedDb({ dataDir: dir });
try {
  const database = await connectDatabase(embedded.uri, "fixture");
  const deps = testDeps(database);
  const user = await findOrCreateConfirmedUser(deps, "owner@fixture.example");
  const principal: Principal = { kind: "user", user };
  const ws = await database.c.workspaces.findOne({ _id: user.defaultWorkspaceId ?? "" });
  const wsSlug = ws?.slug ?? "";
  await createPage(deps, principal, { slug: "handbook", title: "Handbook", summary: "How we work", body_markdown: "# Handbook\n\nVersion one." });
  await updatePage(deps, principal, { slug: "handbook", body_markdown: "# Handbook\n\nVersion two, with **bold**." });
  await updatePage(deps, principal, { slug: "handbook", title: "The handbook", body_markdown: "# Handbook\n\nVersion three: ünïcode ✓." });
  await createPage(deps, principal, { slug: "landing", title: "Landing", body_html: "<h1>Welcome</h1><p>An HTML page.</p>" });
  await createCollection(deps, principal, {
    slug: "reading-list",
    name: "Reading list",
    kind: "table",
    columns: [
      { name: "title", type: "text" },
      { name: "pages", type: "number" },
    ],
  });
  const { row_ids } = await insertRows(deps, principal, {
    collection: "reading-list",
    rows: [
      { title: "Dune", pages: 412 },
      { title: "Emma", pages: 474 },
    ],
  });
  await updateRow(deps, principal, { collection: "reading-list", rowId: row_ids[0] ?? "", values: { title: "Dune", pages: 896 } });
  const token = await createUserToken(deps, user, { label: "fixture agent", scopes: ["mcp:read", "mcp:write"] });
  await createShareLink(deps, principal, { workspace: wsSlug, page: "handbook" });
  await addMemberByEmail(deps, principal, { workspace: wsSlug, email: "editor@fixture.example", role: "editor" });
  const collections: Record<string, Document[]> = {};
  for (const name of await collectionNames(database.db)) collections[name] = await database.db.collection(name).find({}).toArray();
  // Version 2's shape (see migrations.ts, toVersion3).
  collections.meta = [{ _id: "schema", version: 2, updatedAt: new Date() }];
  collections.oauth = [
    ...(collections.oauth ?? []),
    {
      _id: "Client:dcr_fixture",
      model: "Client",
      payload: JSON.stringify({ client_id: "dcr_fixture", client_secret: "fixture-secret-in-clear", redirect_uris: ["https://agent.example/cb"] }),
      consumed: null,
      grantId: null,
      uid: null,
      expiresAt: null,
      createdAt: new Date(),
    },
  ];
  const out = path.join(REPO_ROOT, "shared/fixtures/schema-2.zip");
  await archiveFromDocuments(out, { schemaVersion: 2, atelierVersion: "0.0.0-schema-2", collections });
  // What the test needs to know about the fixture; the token is the fixture's own, valid nowhere else.
  writeFileSync(
    path.join(REPO_ROOT, "shared/fixtures/schema-2.json"),
    `${JSON.stringify({ email: user.email, workspace: wsSlug, token: token.credential, pages: ["handbook", "landing"], table: "reading-list" }, null, 2)}\n`,
  );
  await database.client.close();
  console.log(`wrote ${path.relative(REPO_ROOT, out)}`);
} finally {
  await embedded.stop();
  rmSync(dir, { recursive: true, force: true });
}
