// Workspace export and import of files, comments and history (issue 31, item 2) between two
// instances on the embedded database: files come across byte for byte under the same SHA-256
// with the pages' addresses of them rewritten to the new workspace and instance; comment
// threads keep their anchors, replies and resolved state, authors who are not members there
// becoming attributed text; with full history every kept version comes across in order. The
// malicious-archive corpus for files, comments and history is refused with nothing written.
import { createHash } from "node:crypto";
import { once } from "node:events";
import type { Readable } from "node:stream";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { testDatabase, testDeps, type TestDatabase, type TestDeps } from "../../testing/index";
import { yazl } from "../../zip";
import type { Principal } from "../access";
import { addComment, listComments, resolveComment } from "../comments/comments";
import { addFile, findServedFile } from "../files";
import { createPage } from "../pages/create-page";
import { getPage } from "../pages/get-page";
import { getRevision } from "../pages/get-revision";
import { pageHistory } from "../pages/page-history";
import { updatePage } from "../pages/update-page";
import { createCollection } from "../tables/create-collection";
import { insertRows } from "../tables/insert-rows";
import { findOrCreateConfirmedUser } from "../users";
import { createWorkspaceFor } from "../workspaces";
import { exportWorkspace } from "./export-workspace";
import { importWorkspace } from "./import-workspace";

const A_BASE = "https://a.example";
const B_BASE = "https://b.example";
let dbA: TestDatabase;
let dbB: TestDatabase;
let depsA: TestDeps<TestDatabase>;
let depsB: TestDeps<TestDatabase>;
let alice: Principal;
let carol: Principal;
let aliceWs: { _id: string; slug: string };
let carolWs: { _id: string; slug: string };
const stored: { name: string; data: Buffer; url: string }[] = [];
let picturesBody = "";
let withHistory: Buffer;
let withoutHistory: Buffer;

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

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const defaultWs = async (db: TestDatabase, p: Principal) => {
  const ws = await db.c.workspaces.findOne({ _id: p.kind === "user" ? (p.user.defaultWorkspaceId ?? "") : "" });
  return { _id: ws?._id ?? "", slug: ws?.slug ?? "" };
};

/** A file's bytes as the instance serves them at `url` (its chunks in order), or null. */
async function served(deps: TestDeps<TestDatabase>, reader: Principal, url: string): Promise<Buffer | null> {
  const m = /\/files\/(ws_[^/]+)\/([^/)"]+)$/.exec(url);
  if (!m) return null;
  const f = await findServedFile(deps, async () => reader, m[1] ?? "", m[2] ?? "");
  if (!f) return null;
  const out: Buffer[] = [];
  for await (const c of f.chunks()) out.push(c);
  return Buffer.concat(out);
}

beforeAll(async () => {
  dbA = await testDatabase("wsarcA");
  dbB = await testDatabase("wsarcB");
  depsA = testDeps(dbA, { BASE_URL: A_BASE });
  depsB = testDeps(dbB, { BASE_URL: B_BASE });
  alice = { kind: "user", user: await findOrCreateConfirmedUser(depsA, "alice@example.com") };
  carol = { kind: "user", user: await findOrCreateConfirmedUser(depsB, "carol@example.com") };
  aliceWs = await defaultWs(dbA, alice);
  carolWs = await defaultWs(dbB, carol);

  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#c33" } })
    .png()
    .toBuffer();
  const image = await addFile(depsA, alice, { data: png, name: "red.png", alt: "A red box", imageOnly: true });
  // Longer than one chunk (255 KiB): streamed out and in chunk by chunk.
  const long = await addFile(depsA, alice, { data: Buffer.from("plain text line, ünïcode ✓\n".repeat(30_000), "utf8"), name: "long.txt", imageOnly: false });
  for (const f of [image, long]) stored.push({ name: f.file.name, data: f.data, url: f.file.url });
  picturesBody = `# Pictures\n\n${image.markdown}\n\nThe [long notes](${long.file.url}) and a relative ![copy](/files/${aliceWs._id}/${image.file.sha256}-40x30.png).`;
  await createPage(depsA, alice, { slug: "pictures", title: "Pictures", body_markdown: picturesBody });

  await createPage(depsA, alice, { slug: "guide", title: "Guide", summary: "How to", body_markdown: "# Guide\n\nfirst draft" });
  await updatePage(depsA, alice, { slug: "guide", title: "The guide", body_markdown: "# Guide\n\nsecond, ünïcode ✓" });
  await updatePage(depsA, alice, { slug: "guide", body_markdown: "# Guide\n\nsecond, ünïcode ✓\n\nthird paragraph" });
  await createPage(depsA, alice, { slug: "poster", title: "Poster", body_html: "<h1>Hi</h1>" });
  await updatePage(depsA, alice, { slug: "poster", body_html: "<h1>Hello</h1>" });
  await createCollection(depsA, alice, { slug: "books", name: "Books", kind: "table", columns: [{ name: "title", type: "text" }] });
  const { row_ids } = await insertRows(depsA, alice, { collection: "books", rows: [{ title: "Dune" }, { title: "Emma" }] });

  const quoted = await addComment(depsA, alice, { page: "guide", quote: "second", version: 2, body: "Say *which* draft." });
  await resolveComment(depsA, alice, { comment_id: quoted.comment_id });
  const thread = await addComment(depsA, alice, { page: "pictures", body: "Is the red too bright?" });
  await addComment(depsA, alice, { reply_to: thread.comment_id, body: "No, it is fine." });
  await addComment(depsA, alice, { workspace: aliceWs.slug, table: "books", row_id: row_ids[1] ?? "", body: "A classic." });

  withHistory = await bytes((await exportWorkspace(depsA, alice, { workspace: aliceWs.slug, history: true })).stream);
  withoutHistory = await bytes((await exportWorkspace(depsA, alice, { workspace: aliceWs.slug })).stream);
});
afterAll(async () => {
  await dbA.drop();
  await dbB.drop();
});

const counts = async (db: TestDatabase) =>
  Promise.all(["pages", "revisions", "collections", "rows", "files", "fileChunks", "comments"].map((n) => db.db.collection(n).countDocuments({})));

describe("into another instance, with full history", () => {
  let result: Awaited<ReturnType<typeof importWorkspace>>;
  beforeAll(async () => {
    result = await importWorkspace(depsB, carol, { workspace: carolWs.slug, archive: withHistory });
  });

  it("brings every file byte for byte, under the same SHA-256, with its name, type and size", async () => {
    expect(result.files.map((f) => f.sha256).sort()).toEqual(stored.map((f) => sha(f.data)).sort());
    for (const f of stored) {
      const url = f.url.replace(`${A_BASE}/files/${aliceWs._id}/`, `${B_BASE}/files/${carolWs._id}/`);
      const got = await served(depsB, carol, url);
      expect(got?.equals(f.data)).toBe(true);
      const doc = await dbB.c.files.findOne({ workspaceId: carolWs._id, sha256: sha(f.data) });
      expect(doc).toMatchObject({ name: f.name, size: f.data.length, complete: true });
    }
    expect((await dbB.c.files.findOne({ workspaceId: carolWs._id, name: "red.png" })) ?? {}).toMatchObject({ type: "image/png", width: 40, height: 30 });
  });

  it("rewrites the pages' addresses of the files to the new workspace and instance, and they serve the same bytes", async () => {
    const slug = result.pages.find((p) => p.file === "pages/pictures.md")?.slug ?? "";
    const page = await getPage(depsB, carol, { slug });
    const body = page.parts[0]?.body ?? "";
    expect(body).toBe(
      picturesBody
        .replaceAll(`${A_BASE}/files/${aliceWs._id}/`, `${B_BASE}/files/${carolWs._id}/`)
        .replaceAll(`/files/${aliceWs._id}/`, `/files/${carolWs._id}/`),
    );
    expect(body).not.toContain(aliceWs._id);
    const urls = [...body.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1] ?? "");
    expect(urls).toHaveLength(3);
    for (const url of urls) expect((await served(depsB, carol, url))?.length).toBeGreaterThan(0);
  });

  it("restores each page's versions in order, equal to the original's", async () => {
    expect(result.versions).toBe(3 + 2 + 1);
    for (const [file, original] of [
      ["pages/guide.md", "guide"],
      ["pages/poster.html", "poster"],
    ] as const) {
      const slug = result.pages.find((p) => p.file === file)?.slug ?? "";
      const there = await pageHistory(depsB, carol, slug);
      const here = await pageHistory(depsA, alice, original);
      expect(there.map((v) => v.version)).toEqual(here.map((v) => v.version));
      for (const v of here) {
        const a = await getRevision(depsA, alice, original, v.version);
        const b = await getRevision(depsB, carol, slug, v.version);
        expect([b.title, b.summary, b.parts.map((p) => [p.kind, p.body])]).toEqual([a.title, a.summary, a.parts.map((p) => [p.kind, p.body])]);
      }
    }
  });

  it("brings the comment threads: anchors, replies, resolved state, authors as attributed text", async () => {
    expect(result.comments).toBe(4);
    const guide = result.pages.find((p) => p.file === "pages/guide.md")?.slug ?? "";
    const onGuide = await listComments(depsB, carol, { page: guide, include_resolved: true });
    expect(onGuide.threads).toHaveLength(1);
    const [t] = onGuide.threads;
    expect(t).toMatchObject({ resolved: true, anchor: { kind: "quote", quote: "second", version: 2, attached: true, current_quote: "second" } });
    // alice is nobody on this instance: carol (who imported) carries her words, attributed.
    expect(t?.author.label).toBe("carol@example.com");
    expect(t?.body).toMatch(/^\*Written by alice@example\.com on \d{4}-\d{2}-\d{2}\.\*\n\nSay \*which\* draft\.$/);

    const pictures = result.pages.find((p) => p.file === "pages/pictures.md")?.slug ?? "";
    const onPictures = await listComments(depsB, carol, { page: pictures });
    expect(onPictures.threads.map((x) => [x.anchor.kind, x.resolved, x.replies.map((r) => r.body.split("\n\n")[1])])).toEqual([
      ["page", false, ["No, it is fine."]],
    ]);

    const rows = await dbB.c.rows.find({ workspaceId: carolWs._id }).sort({ _id: 1 }).toArray();
    const emma = rows.find((r) => r.values.title === "Emma")?._id ?? "";
    const onRow = await listComments(depsB, carol, { workspace: carolWs.slug, table: "books", row_id: emma });
    expect(onRow.threads.map((x) => x.body.split("\n\n")[1])).toEqual(["A classic."]);
  });
});

it("without history: one version each, and a quote re-anchored on the page as imported", async () => {
  const other = await createWorkspaceFor(depsB, carol, { slug: "carol-second", name: "Second" });
  const r = await importWorkspace(depsB, carol, { workspace: other.slug, archive: withoutHistory });
  expect(r.versions).toBe(0);
  const guide = r.pages.find((p) => p.file === "pages/guide.md")?.slug ?? "";
  expect((await pageHistory(depsB, carol, guide)).map((v) => v.version)).toEqual([1]);
  const [t] = (await listComments(depsB, carol, { page: guide, include_resolved: true })).threads;
  expect(t?.anchor).toMatchObject({ kind: "quote", quote: "second", version: 1, attached: true, current_quote: "second" });
  // The same bytes in a second workspace: a file of that workspace, its own address.
  expect(await dbB.c.files.countDocuments({ workspaceId: other.id })).toBe(2);
});

it("a comment's author who is a member of the target workspace stays its author, text unchanged", async () => {
  const two = await createWorkspaceFor(depsA, alice, { slug: "alice-two", name: "Two" });
  const r = await importWorkspace(depsA, alice, { workspace: two.slug, archive: withHistory });
  const guide = r.pages.find((p) => p.file === "pages/guide.md")?.slug ?? "";
  const [t] = (await listComments(depsA, alice, { page: guide, include_resolved: true })).threads;
  expect(t).toMatchObject({
    body: "Say *which* draft.",
    author: { label: "alice@example.com", user_id: alice.kind === "user" ? alice.user._id : "" },
    resolved: true,
  });
  expect(t?.resolved_by?.label).toBe("alice@example.com");
});

describe("bad files, comments and history are refused with nothing written", () => {
  const png = () =>
    sharp({ create: { width: 8, height: 8, channels: 3, background: "#00f" } })
      .png()
      .toBuffer();
  const manifest = (extra: object) => JSON.stringify({ format: "atelier-workspace", formatVersion: 2, ...extra });
  const fileEntry = (file: string, data: Buffer, over: object = {}) => ({
    file,
    sha256: sha(data),
    name: "x",
    type: "image/png",
    ext: "png",
    size: data.length,
    width: 8,
    height: 8,
    ...over,
  });
  const traversalEntry = async () => {
    const data = await png();
    const zip = await zipOf({ "ok.md": "# fine", "files/zz/evil.png": data });
    return Buffer.from(zip.toString("latin1").replaceAll("files/zz/evil.png", "files/../evil.png"), "latin1");
  };
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "utf8");
  const cases: [string, () => Promise<Buffer>, string, Record<string, string>?][] = [
    ["a file larger than FILE_MAX_BYTES", async () => withHistory, "too_large", { FILE_MAX_BYTES: "1024" }],
    [
      "a file whose bytes are not its name's SHA-256",
      async () => {
        const data = await png();
        const other = "0".repeat(64);
        return zipOf({
          "manifest.json": manifest({ files: [fileEntry(`files/${other}.png`, data, { sha256: other })] }),
          [`files/${other}.png`]: data,
          "a.md": "# a",
        });
      },
      "bad_file",
    ],
    [
      "a file named outside files/ in the manifest (path traversal)",
      async () => {
        const data = await png();
        return zipOf({ "manifest.json": manifest({ files: [fileEntry(`files/../../${sha(data)}.png`, data)] }), "a.md": "# a" });
      },
      "bad_archive",
    ],
    ["an entry named files/../ (path traversal)", traversalEntry, "bad_archive"],
    [
      "an SVG file (it can carry scripts)",
      () =>
        zipOf({
          "manifest.json": manifest({ files: [fileEntry(`files/${sha(svg)}.svg`, svg, { ext: "svg", width: null, height: null })] }),
          [`files/${sha(svg)}.svg`]: svg,
        }),
      "bad_file",
    ],
    [
      "a file listed but missing",
      async () => {
        const data = await png();
        return zipOf({ "manifest.json": manifest({ files: [fileEntry(`files/${sha(data)}.png`, data)] }), "a.md": "# a" });
      },
      "bad_archive",
    ],
    [
      "an image whose stated size is not its own",
      async () => {
        const data = await png();
        return zipOf({ "manifest.json": manifest({ files: [fileEntry(`files/${sha(data)}.png`, data, { width: 9 })] }), [`files/${sha(data)}.png`]: data });
      },
      "bad_file",
    ],
    [
      "a comment on a page the archive does not have",
      () =>
        zipOf({
          "manifest.json": manifest({}),
          "a.md": "# a",
          "comments.json": JSON.stringify([
            {
              on: { page: "nowhere" },
              anchor: { kind: "page" },
              author: "x",
              author_kind: "user",
              body: "hi",
              created_at: "2026-01-01T00:00:00.000Z",
              edited_at: null,
              deleted: false,
              resolved: null,
              replies: [],
            },
          ]),
        }),
      "bad_comments",
    ],
    [
      "history out of version order",
      () =>
        zipOf({
          "manifest.json": manifest({
            history: [
              {
                slug: "a",
                versions: [2, 1].map((v) => ({
                  version: v,
                  file: `history/a/${v}.md`,
                  title: "A",
                  summary: "",
                  author: "x",
                  author_kind: "user",
                  at: "2026-01-01T00:00:00.000Z",
                })),
              },
            ],
          }),
          "pages/a.md": '---\nslug: "a"\n---\n\n# a',
          "history/a/1.md": "one",
          "history/a/2.md": "two",
        }),
      "bad_history",
    ],
  ];
  for (const [label, make, code, env] of cases) {
    it(label, async () => {
      const before = await counts(dbB);
      const deps = env ? testDeps(dbB, { BASE_URL: B_BASE, ...env }) : depsB;
      const err = await importWorkspace(deps, carol, { workspace: carolWs.slug, archive: await make() }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: "invalid_request", details: { issues: [{ path: "archive", code }] } });
      expect(await counts(dbB)).toEqual(before);
    });
  }

  it("a write that fails after the files were stored takes them back", async () => {
    const fresh = await createWorkspaceFor(depsB, carol, { slug: "carol-third", name: "Third" });
    await createCollection(depsB, carol, { workspace: fresh.slug, slug: "books", name: "Taken", kind: "table", columns: [{ name: "a", type: "text" }] });
    const before = await counts(dbB);
    const usage = (await dbB.c.workspaces.findOne({ _id: fresh.id }))?.usage;
    await expect(importWorkspace(depsB, carol, { workspace: fresh.slug, archive: withoutHistory })).rejects.toMatchObject({ code: "conflict" });
    expect(await counts(dbB)).toEqual(before);
    expect((await dbB.c.workspaces.findOne({ _id: fresh.id }))?.usage).toEqual(usage);
  });
});
