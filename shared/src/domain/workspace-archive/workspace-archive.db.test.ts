// Workspace export and import (issue 31, item 3) on the embedded database: an export imports
// into another workspace with the same pages and tables; a plain zip of Markdown files gets
// safe slugs; bad archives (path traversal, zip bombs, bad front matter, not UTF-8) are
// refused with invalid_request and nothing written.
import { once } from "node:events";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { testDatabase, testDeps, type TestDatabase, type TestDeps } from "../../testing/index";
import { yazl } from "../../zip";
import type { Principal } from "../access";
import { createPage } from "../pages/create-page";
import { getPage } from "../pages/get-page";
import { updatePage } from "../pages/update-page";
import { createCollection } from "../tables/create-collection";
import { insertRows } from "../tables/insert-rows";
import { listRows } from "../tables/list-rows";
import { findOrCreateConfirmedUser } from "../users";
import { exportWorkspace } from "./export-workspace";
import { importWorkspace } from "./import-workspace";
import { IMPORT_LIMITS } from "./format";

let database: TestDatabase;
let deps: TestDeps<TestDatabase>;
let alice: Principal;
let bob: Principal;
let aliceWs: string;
let bobWs: string;

async function bytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function zipOf(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(files)) zip.addBuffer(typeof data === "string" ? Buffer.from(data, "utf8") : data, name);
  zip.end();
  const out = bytes(zip.outputStream as Readable);
  await once(zip.outputStream, "end").catch(() => undefined);
  return out;
}

const wsSlug = async (p: Principal) => {
  const user = p.kind === "user" ? p.user : null;
  return (await database.c.workspaces.findOne({ _id: user?.defaultWorkspaceId ?? "" }))?.slug ?? "";
};

beforeAll(async () => {
  database = await testDatabase("wsarchive");
  deps = testDeps(database);
  alice = { kind: "user", user: await findOrCreateConfirmedUser(deps, "alice@example.com") };
  bob = { kind: "user", user: await findOrCreateConfirmedUser(deps, "bob@example.com") };
  aliceWs = await wsSlug(alice);
  bobWs = await wsSlug(bob);
  await createPage(deps, alice, { slug: "guide", title: "Guide", summary: "How to", body_markdown: "# Guide\n\nfirst" });
  await updatePage(deps, alice, { slug: "guide", body_markdown: "# Guide\n\nsecond, ünïcode ✓\n\n---\n\nafter a rule" });
  await createPage(deps, alice, { slug: "poster", title: "Poster", body_html: "<h1>Hi</h1>" });
  await createCollection(deps, alice, {
    slug: "books",
    name: "Books",
    kind: "table",
    columns: [
      { name: "title", type: "text" },
      { name: "n", type: "number" },
      { name: "read", type: "boolean" },
    ],
  });
  await insertRows(deps, alice, {
    collection: "books",
    rows: [{ title: 'Dune, "the" book', n: 1, read: true }, { title: "Emma\nline two", n: 2.5, read: false }, { title: "Blank" }],
  });
});
afterAll(async () => {
  await database.drop();
});

const pageCount = () => database.c.pages.countDocuments({});
const collectionCount = () => database.c.collections.countDocuments({});

describe("export then import", () => {
  it("exports Markdown with front matter, HTML, CSV with a schema and a manifest, and imports them into another workspace", async () => {
    const { stream, filename } = await exportWorkspace(deps, alice, { workspace: aliceWs });
    expect(filename).toMatch(new RegExp(`^${aliceWs}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
    const archive = await bytes(stream);
    const result = await importWorkspace(deps, bob, { workspace: bobWs, archive });
    // Page slugs are unique in the instance: the copies get the next free ones.
    expect(result.pages.map((p) => [p.file, p.slug])).toEqual([
      ["pages/guide.md", "guide-2"],
      ["pages/poster.html", "poster-2"],
    ]);
    const guide = await getPage(deps, bob, { slug: "guide-2" });
    expect(guide).toMatchObject({ title: "Guide", summary: "How to", workspace: bobWs });
    expect(guide.parts[0]?.body).toBe("# Guide\n\nsecond, ünïcode ✓\n\n---\n\nafter a rule");
    expect((await getPage(deps, bob, { slug: "poster-2" })).parts[0]).toMatchObject({ kind: "html", body: "<h1>Hi</h1>" });
    const rows = await listRows(deps, bob, { workspace: bobWs, collection: "books" });
    expect(rows.rows.map((r) => r.values)).toEqual([
      { title: 'Dune, "the" book', n: 1, read: true },
      { title: "Emma\nline two", n: 2.5, read: false },
      { title: "Blank", n: null, read: null },
    ]);
  });

  it("imports a plain zip of Markdown files, front matter optional, with slugs derived safely", async () => {
    const archive = await zipOf({
      "notes/Meeting Notes (Ünïcode).md": "# Weekly meeting\n\nagenda",
      "notes/with-front.md": '---\ntitle: "Front matter title"\nslug: "chosen-slug"\nsummary: "A summary"\n---\n\nbody',
      "notes/sub/meeting-notes-unicode.md": "same slug as the first",
      "notes/.DS_Store": "junk",
      "notes/image.png": Buffer.from([0x89, 0x50]),
    });
    const r = await importWorkspace(deps, bob, { workspace: bobWs, archive });
    expect(r.pages.map((p) => p.slug).sort()).toEqual(["chosen-slug", "meeting-notes-unicode", "meeting-notes-unicode-2"]);
    expect(r.skipped).toEqual(["notes/image.png"]);
    expect((await getPage(deps, bob, { slug: "meeting-notes-unicode" })).title).toBe("Weekly meeting");
    expect(await getPage(deps, bob, { slug: "chosen-slug" })).toMatchObject({ title: "Front matter title", summary: "A summary" });
  });

  it("only the owner may export or import", async () => {
    await expect(exportWorkspace(deps, bob, { workspace: aliceWs })).rejects.toBeInstanceOf(AppError);
    await expect(importWorkspace(deps, bob, { workspace: aliceWs, archive: await zipOf({ "a.md": "x" }) })).rejects.toBeInstanceOf(AppError);
  });
});

describe("bad archives are refused with nothing written", () => {
  const traversal = async () => {
    const zip = await zipOf({ "zz/evil.md": "# evil" });
    // yazl will not write such a name: rewrite it in both headers, as an attacker would.
    return Buffer.from(zip.toString("latin1").replaceAll("zz/evil.md", "../evil.md"), "latin1");
  };
  const cases: [string, () => Promise<Buffer>, string][] = [
    ["not a zip", async () => Buffer.from("hello"), "bad_archive"],
    ["path traversal", traversal, "bad_archive"],
    ["an entry that unpacks past the limit (a zip bomb)", () => zipOf({ "big.md": Buffer.alloc(3 * 1024 * 1024, 0x61) }), "too_large"],
    ["too many entries", () => zipOf(Object.fromEntries(Array.from({ length: IMPORT_LIMITS.entries + 1 }, (_, i) => [`p${i}.md`, "x"]))), "bad_archive"],
    ["bad front matter", () => zipOf({ "ok.md": "# fine", "bad.md": '---\ntitle: "unclosed\n---\nbody' }), "bad_front_matter"],
    ["not UTF-8", () => zipOf({ "ok.md": "# fine", "latin.md": Buffer.from([0x23, 0x20, 0xe9, 0xe8, 0x0a]) }), "not_utf8"],
    ["a CSV without its schema", () => zipOf({ "ok.md": "# fine", "tables/t.csv": "a,b\n1,2\n" }), "bad_table"],
  ];
  for (const [label, make, code] of cases) {
    it(label, async () => {
      const before = [await pageCount(), await collectionCount()];
      const err = await importWorkspace(deps, bob, { workspace: bobWs, archive: await make() }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: "invalid_request", details: { issues: [{ path: "archive", code }] } });
      expect([await pageCount(), await collectionCount()]).toEqual(before);
    });
  }

  it("a write that fails half-way undoes what the import wrote before it", async () => {
    const before = await pageCount();
    // The table's slug is taken in this workspace already (books, imported above): refused after the first table.
    const archive = await zipOf({
      "tables/fresh.csv": "a\r\n1\r\n",
      "tables/fresh.schema.json": JSON.stringify({ slug: "fresh", name: "Fresh", columns: [{ name: "a", type: "number" }] }),
      "tables/zbooks.csv": "a\r\n1\r\n",
      "tables/zbooks.schema.json": JSON.stringify({ slug: "books", name: "Again", columns: [{ name: "a", type: "number" }] }),
      "x.md": "# x",
    });
    await expect(importWorkspace(deps, bob, { workspace: bobWs, archive })).rejects.toBeInstanceOf(AppError);
    expect(await pageCount()).toBe(before);
    expect(await database.c.collections.findOne({ slug: "fresh" })).toBeNull();
  });
});
