// Instance backup and restore on the real embedded database (issue 31, item 1): a filled
// instance (files and comment threads among its pages, tables and tokens) backs up and
// restores into an empty database document for document; a damaged
// archive, a newer schema and a database with data are refused with nothing written; an
// older schema is migrated on the way in.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BSON, MongoClient, type Db } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../db/migrations";
import type { Principal } from "../domain/access";
import { createPage } from "../domain/pages/create-page";
import { getPage } from "../domain/pages/get-page";
import { updatePage } from "../domain/pages/update-page";
import { addComment, listComments } from "../domain/comments/comments";
import { addFile, findServedFile, listFiles } from "../domain/files";
import { createShareLink } from "../domain/share-links";
import { createCollection } from "../domain/tables/create-collection";
import { insertRows } from "../domain/tables/insert-rows";
import { listRows } from "../domain/tables/list-rows";
import { authenticateBearer, createUserToken } from "../domain/tokens";
import { findOrCreateConfirmedUser } from "../domain/users";
import { testDatabase, testDeps, testMongoUri, type TestDatabase, type TestDeps } from "../testing/index";
import { archiveFromDocuments } from "./archive-from-documents";
import { backupDatabase, collectionNames } from "./backup";
import { BackupError } from "./format";
import { restoreDatabase, verifyBackup } from "./restore";

let source: TestDatabase;
let deps: TestDeps<TestDatabase>;
let principal: Principal;
let client: MongoClient;
let credential: string;
const dir = mkdtempSync(path.join(tmpdir(), "atelier-backup-"));
const targets: TestDatabase[] = [];

async function target(): Promise<TestDatabase> {
  const t = await testDatabase("bkdst");
  targets.push(t);
  return t;
}

/** Every document of every collection, as canonical EJSON, sorted: what "equal" means here. */
async function dump(db: Db): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const name of await collectionNames(db)) {
    const docs = await db.collection(name).find({}).toArray();
    out[name] = docs.map((d) => BSON.EJSON.stringify(d, { relaxed: false })).sort();
  }
  return out;
}

/** Documents outside `meta` (which every connected process writes). */
async function contentCount(db: Db): Promise<number> {
  let n = 0;
  for (const name of await collectionNames(db)) if (name !== "meta") n += await db.collection(name).countDocuments({});
  return n;
}

beforeAll(async () => {
  source = await testDatabase("bksrc");
  deps = testDeps(source);
  client = new MongoClient(testMongoUri(), { serverSelectionTimeoutMS: 10_000 });
  await client.connect();
  const user = await findOrCreateConfirmedUser(deps, "owner@example.com");
  principal = { kind: "user", user };
  await createPage(deps, principal, { slug: "notes", title: "Notes", body_markdown: "# One\n\nfirst" });
  await updatePage(deps, principal, { slug: "notes", body_markdown: "# One\n\nsecond" });
  await updatePage(deps, principal, { slug: "notes", body_markdown: "# One\n\nthird, with ünïcode ✓" });
  await createPage(deps, principal, { slug: "poster", title: "Poster", body_html: "<h1>Hi</h1><p>html</p>" });
  await createCollection(deps, principal, {
    slug: "books",
    name: "Books",
    kind: "table",
    columns: [
      { name: "title", type: "text" },
      { name: "n", type: "number" },
    ],
  });
  await insertRows(deps, principal, {
    collection: "books",
    rows: [
      { title: "Dune", n: 1 },
      { title: "Emma", n: 2.5 },
    ],
  });
  // A file longer than one chunk, and a thread with a reply, resolved.
  await addFile(deps, principal, { data: Buffer.from("backed-up text ✓\n".repeat(20_000), "utf8"), name: "notes.txt", imageOnly: false });
  const thread = await addComment(deps, principal, { page: "notes", quote: "third", body: "Keep this?" });
  await addComment(deps, principal, { reply_to: thread.comment_id, body: "Yes." });
  credential = (await createUserToken(deps, user, { label: "agent", scopes: ["mcp:read", "mcp:write"] })).credential;
  const ws = await source.c.workspaces.findOne({ _id: user.defaultWorkspaceId ?? "" });
  await createShareLink(deps, principal, { workspace: ws?.slug ?? "", page: "notes" });
  await source.db.collection("oauth").insertOne({
    _id: "Client:dcr_1" as never,
    model: "Client",
    payload: JSON.stringify({ client_id: "dcr_1", redirect_uris: ["https://a.example/cb"] }),
    consumed: null,
    grantId: null,
    uid: null,
    expiresAt: new Date(Date.now() + 86_400_000),
    createdAt: new Date(),
  });
});

afterAll(async () => {
  await client.close();
  for (const t of targets) await t.drop();
  await source.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("backup then restore", () => {
  it("restores into an empty database every collection document for document, and the app reads and writes it", async () => {
    const file = path.join(dir, "round-trip.zip");
    const manifest = await backupDatabase(client, client.db(source.name), file);
    expect(manifest.schemaVersion).toBe(SCHEMA_VERSION);
    const before = await dump(source.db);
    // Every collection there is, not a list: a collection another feature adds is in it.
    expect(manifest.collections.map((c) => c.name)).toEqual(Object.keys(before));
    for (const c of manifest.collections) expect(c.count).toBe(before[c.name]?.length);
    expect(manifest.collections.find((c) => c.name === "revisions")?.count).toBeGreaterThanOrEqual(3);
    expect(manifest.collections.find((c) => c.name === "files")?.count).toBe(1);
    expect(manifest.collections.find((c) => c.name === "fileChunks")?.count).toBeGreaterThan(1);
    expect(manifest.collections.find((c) => c.name === "comments")?.count).toBe(2);

    const dst = await target();
    const r = await restoreDatabase(client.db(dst.name), file);
    expect(r.migratedFrom).toBeNull();
    expect(await dump(dst.db)).toEqual(before);

    const restored = testDeps(dst);
    const page = await getPage(restored, principal, { slug: "notes" });
    expect(page.version).toBe(3);
    expect(page.parts[0]?.body).toContain("ünïcode ✓");
    expect((await listRows(restored, principal, { collection: "books" })).rows.map((x) => x.values)).toEqual([
      { title: "Dune", n: 1 },
      { title: "Emma", n: 2.5 },
    ]);
    expect((await authenticateBearer(restored, credential)).label).toBe("agent");
    const [kept] = (await listFiles(restored, principal, { workspace: page.workspace })).files;
    const [, wsId = "", name = ""] = /\/files\/([^/]+)\/([^/]+)$/.exec(kept?.url ?? "") ?? [];
    const served = await findServedFile(restored, async () => principal, wsId, name);
    const read: Buffer[] = [];
    for await (const c of served?.chunks() ?? []) read.push(c);
    expect(Buffer.concat(read).toString("utf8")).toBe("backed-up text ✓\n".repeat(20_000));
    const threads = (await listComments(restored, principal, { page: "notes" })).threads;
    expect(threads.map((t) => [t.body, t.anchor.kind, t.replies.map((r) => r.body)])).toEqual([["Keep this?", "quote", ["Yes."]]]);
    expect((await updatePage(restored, principal, { slug: "notes", body_markdown: "after restore" })).version).toBe(4);
  });

  it("refuses a database that holds data, and replaces it only when told", async () => {
    const file = path.join(dir, "replace.zip");
    await backupDatabase(client, client.db(source.name), file);
    const dst = await target();
    await createPage(testDeps(dst), principal, { slug: "other", title: "Other", body_markdown: "x" }).catch(() => undefined);
    await dst.c.events.insertOne({ _id: "evt_x", workspaceId: "w", at: new Date() } as never);
    const was = await dump(dst.db);
    await expect(restoreDatabase(client.db(dst.name), file)).rejects.toMatchObject({ code: "not_empty" });
    expect(await dump(dst.db)).toEqual(was);
    await restoreDatabase(client.db(dst.name), file, { replace: true });
    expect(await dump(dst.db)).toEqual(await dump(source.db));
  });

  it("backs up while writes continue: every document read is whole, and the manifest says how consistent the copy is", async () => {
    const file = path.join(dir, "live.zip");
    const writes: Promise<unknown>[] = [];
    let i = 0;
    const manifest = await backupDatabase(client, client.db(source.name), file, {
      // Not awaited: under a write pause the write waits for the backup to finish.
      onCollection: () => {
        writes.push(createPage(deps, principal, { slug: `during-${i++}`, title: "During", body_markdown: "written while the backup ran" }));
      },
    });
    await Promise.all(writes);
    expect(["snapshot", "write-pause", "per-document"]).toContain(manifest.consistency);
    await verifyBackup(file);
    const dst = await target();
    await restoreDatabase(client.db(dst.name), file);
    const restored = await dst.db.collection("pages").find({}).toArray();
    for (const p of restored) expect(p).toMatchObject({ slug: expect.any(String), version: expect.any(Number), parts: expect.any(Array) });
    expect(restored.map((p) => p.slug)).toEqual(expect.arrayContaining(["notes", "poster"]));
    if (manifest.consistency !== "per-document") {
      // One read point: nothing written after it is in the copy, not even in part.
      expect(JSON.stringify(await dump(dst.db))).not.toContain("during-");
    }
  });
});

describe("restore refuses, writing nothing", () => {
  const documents = async () => {
    const out: Record<string, object[]> = {};
    for (const name of await collectionNames(source.db)) out[name] = await source.db.collection(name).find({}).toArray();
    return out;
  };

  it("an archive whose data does not match its checksum", async () => {
    const file = path.join(dir, "damaged.zip");
    await archiveFromDocuments(file, {
      schemaVersion: SCHEMA_VERSION,
      collections: await documents(),
      tamper: { pages: (b) => Buffer.from(b.toString("utf8").replace("Notes", "Nutes"), "utf8") },
    });
    const dst = await target();
    const err = await restoreDatabase(client.db(dst.name), file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackupError);
    expect(err).toMatchObject({ code: "checksum_mismatch" });
    expect((err as Error).message).toContain("collections/pages.ejson");
    expect(await contentCount(dst.db)).toBe(0);
  });

  it("a truncated file and a file that is no backup", async () => {
    const good = path.join(dir, "whole.zip");
    await backupDatabase(client, client.db(source.name), good);
    const { readFileSync, writeFileSync } = await import("node:fs");
    const bytes = readFileSync(good);
    const cut = path.join(dir, "cut.zip");
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const junk = path.join(dir, "junk.zip");
    writeFileSync(junk, "not a zip at all");
    const dst = await target();
    await expect(restoreDatabase(client.db(dst.name), cut)).rejects.toMatchObject({ code: "bad_archive" });
    await expect(restoreDatabase(client.db(dst.name), junk)).rejects.toMatchObject({ code: "bad_archive" });
    expect(await contentCount(dst.db)).toBe(0);
  });

  it("an archive from a newer schema than this release knows", async () => {
    const file = path.join(dir, "newer.zip");
    await archiveFromDocuments(file, { schemaVersion: SCHEMA_VERSION + 1, atelierVersion: "99.0.0", collections: await documents() });
    const dst = await target();
    const err = await restoreDatabase(client.db(dst.name), file).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "newer_schema" });
    expect((err as Error).message).toContain(`schema version ${SCHEMA_VERSION + 1}`);
    expect(await contentCount(dst.db)).toBe(0);
  });
});

it("restores an archive from an older schema and migrates it to this one", async () => {
  const file = path.join(dir, "older.zip");
  const t = new Date();
  await archiveFromDocuments(file, {
    schemaVersion: 2,
    collections: {
      meta: [{ _id: "schema", version: 2, updatedAt: t }],
      // Before version 3 a dynamically registered client kept its secret in clear and never expired.
      oauth: [
        {
          _id: "Client:dcr_old",
          model: "Client",
          payload: JSON.stringify({ client_id: "dcr_old", client_secret: "in-clear", redirect_uris: ["https://a.example/cb"] }),
          consumed: null,
          grantId: null,
          uid: null,
          expiresAt: null,
          createdAt: t,
        },
      ],
    },
  });
  const dst = await target();
  const r = await restoreDatabase(client.db(dst.name), file);
  expect(r.migratedFrom).toBe(2);
  expect((await dst.c.meta.findOne({ _id: "schema" }))?.version).toBe(SCHEMA_VERSION);
  const doc = await dst.c.oauth.findOne({ _id: "Client:dcr_old" });
  expect(doc?.payload).not.toContain("in-clear");
  expect(doc?.expiresAt).toBeInstanceOf(Date);
});
