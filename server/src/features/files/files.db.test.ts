// Serving files (docs/security.md#files): public ones to anyone, immutable; private ones to
// members and through the grant a private page or a share link carries; every answer inert
// (nosniff, a sandbox, downloads for what browsers would run). Upload URLs take up to
// FILE_MAX_BYTES; a workspace's delete takes its chunks.
import { randomBytes } from "node:crypto";
import type { UserDoc } from "@atelier/shared/db";
import type { Principal } from "@atelier/shared/domain/access";
import { addFile } from "@atelier/shared/domain/files";
import { createUploadUrl } from "@atelier/shared/domain/uploads";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, signIn, startTestServer, trpcData, type TestServer } from "../../testing";

let srv: TestServer;
let owner: Browser;
let user: UserDoc;
let me: Principal;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

async function png(w: number, h: number): Promise<Buffer> {
  const raw = Buffer.alloc(w * h * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 13) % 256;
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toBuffer();
}

async function newWorkspace(visibility: "public" | "private"): Promise<{ slug: string; id: string }> {
  const slug = uniq("files");
  await trpcData(await owner.mutation("workspaces.create", { slug, name: "Files" }));
  if (visibility === "public") await trpcData(await owner.mutation("workspaces.setVisibility", { slug, visibility }));
  const ws = await srv.database.c.workspaces.findOne({ slug });
  return { slug, id: ws?._id ?? "" };
}

const path = (url: string) => new URL(url).pathname;

beforeAll(async () => {
  srv = await startTestServer({ FILE_MAX_BYTES: String(25 * 1024 * 1024) }, "files");
  const email = `${uniq("owner")}@example.com`;
  owner = await signIn(srv, email);
  const found = await srv.database.c.users.findOne({ email });
  if (!found) throw new Error("no user");
  user = found;
  me = { kind: "user", user };
});
afterAll(async () => {
  await srv.close();
});

describe("serving files", () => {
  it("serves a public image to anyone, inert and immutable, and the page shows it sized and lazy", async () => {
    const ws = await newWorkspace("public");
    const { file, markdown } = await addFile(srv.deps, me, { workspace: ws.slug, data: await png(40, 30), alt: "Stripes", imageOnly: true });
    const res = await fetch(`${srv.url}${path(file.url)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(res.headers.get("content-disposition")).toBe("inline");
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(40);
    const again = await fetch(`${srv.url}${path(file.url)}`, { headers: { "if-none-match": res.headers.get("etag") ?? "" } });
    expect(again.status).toBe(304);
    // Another size in the name, another extension, or a hash that is not there: 404.
    for (const wrong of [file.url.replace("-40x30", "-41x30"), file.url.replace(".png", ".jpg"), file.url.replace(/[0-9a-f]{64}/, "0".repeat(64))]) {
      expect((await fetch(`${srv.url}${path(wrong)}`)).status).toBe(404);
    }

    const slug = uniq("pic");
    await trpcData(await owner.mutation("pages.create", { slug, title: "Pictures", body_markdown: `Here:\n\n${markdown}\n`, workspace: ws.slug }));
    const html = await (await fetch(`${srv.url}/a/${slug}`)).text();
    expect(html).toContain(`src="${file.url}"`);
    expect(html).toMatch(/<img [^>]*loading="lazy"[^>]*width="40" height="30"/);
  });

  it("serves a private file to members only, and through the grant of a private page or a share link", async () => {
    const ws = await newWorkspace("private");
    const { file, markdown } = await addFile(srv.deps, me, { workspace: ws.slug, data: await png(20, 20), alt: "Secret", imageOnly: true });
    expect((await fetch(`${srv.url}${path(file.url)}`)).status).toBe(404);
    const mine = await owner.request(path(file.url));
    expect(mine.status).toBe(200);
    expect(mine.headers.get("cache-control")).toMatch(/^private/);
    expect(mine.headers.get("cross-origin-resource-policy")).toBe("same-origin");

    const slug = uniq("secret");
    await trpcData(await owner.mutation("pages.create", { slug, title: "Secret", body_markdown: markdown, workspace: ws.slug }));
    // The page is a sandboxed document (no SameSite cookie goes with its images): its file addresses carry a grant.
    const page = await (await owner.request(`/a/${slug}`)).text();
    const granted = /src="(\/files\/g\/[^"]+)"/.exec(page)?.[1] ?? "";
    expect(granted).toContain(`/${ws.id}/${file.sha256}-20x20.png`);
    expect((await fetch(`${srv.url}${granted}`)).status).toBe(200);
    const tampered = granted.replace(/\/g\/(\d+)\.(.)/, (_m, until: string, c: string) => `/g/${until}.${c === "A" ? "B" : "A"}`);
    expect((await fetch(`${srv.url}${tampered}`)).status).toBe(404);
    // A grant is for one workspace's files.
    const other = await newWorkspace("private");
    const elsewhere = await addFile(srv.deps, me, { workspace: other.slug, data: await png(21, 21), alt: "Other", imageOnly: true });
    expect((await fetch(`${srv.url}${granted.replace(`${ws.id}/${file.sha256}-20x20.png`, `${other.id}/${elsewhere.file.sha256}-21x21.png`)}`)).status).toBe(
      404,
    );

    const link = await trpcData<{ url: string }>(await owner.mutation("workspaces.shareLinks.create", { slug: ws.slug }));
    const shared = await (await fetch(`${srv.url}${path(link.url)}/${slug}`)).text();
    const viaLink = /src="(\/files\/g\/[^"]+)"/.exec(shared)?.[1] ?? "";
    expect((await fetch(`${srv.url}${viaLink}`)).status).toBe(200);
  });
});

describe("upload URLs", () => {
  it("take a 20 MB PUT, refuse the 26th MB with a clear 413, and are good for one file", async () => {
    const ws = await newWorkspace("private");
    const big = await createUploadUrl(srv.deps, me, { workspace: ws.slug, name: "big.bin" });
    const data = randomBytes(20 * 1024 * 1024);
    const put = await fetch(`${srv.url}${path(big.upload_url)}`, { method: "PUT", body: data, headers: { "content-type": "image/png" } });
    expect(put.status).toBe(201);
    const { file } = (await put.json()) as { file: { sha256: string; url: string; type: string; size: number } };
    expect(file).toMatchObject({ type: "application/octet-stream", size: data.length });
    expect(await srv.database.c.fileChunks.countDocuments({ fileId: `${ws.id}:${file.sha256}` })).toBe(Math.ceil(data.length / (255 * 1024)));
    const back = await owner.request(path(file.url));
    expect(back.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(Buffer.from(await back.arrayBuffer()).equals(data)).toBe(true);
    expect((await fetch(`${srv.url}${path(big.upload_url)}`, { method: "PUT", body: "again" })).status).toBe(409);

    const over = await createUploadUrl(srv.deps, me, { workspace: ws.slug });
    const before = await srv.database.c.files.countDocuments({ workspaceId: ws.id });
    const refused = await fetch(`${srv.url}${path(over.upload_url)}`, { method: "PUT", body: randomBytes(25 * 1024 * 1024 + 1) });
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ error: "payload_too_large" });
    expect(await srv.database.c.files.countDocuments({ workspaceId: ws.id })).toBe(before);
    expect((await fetch(`${srv.url}/files/uploads/${"x".repeat(43)}`, { method: "PUT", body: "hi" })).status).toBe(404);
  });

  it("decides the type from the bytes: HTML that claims to be PNG and SVG with a script are refused; a polyglot comes back a plain image", async () => {
    const ws = await newWorkspace("public");
    const putBytes = async (body: Buffer, type: string) => {
      const u = await createUploadUrl(srv.deps, me, { workspace: ws.slug });
      return fetch(`${srv.url}${path(u.upload_url)}`, { method: "PUT", body: new Uint8Array(body), headers: { "content-type": type } });
    };
    const html = await putBytes(Buffer.from("<!DOCTYPE html><html><script>document.title='pwned'</script></html>"), "image/png");
    expect(html.status).toBe(415);
    expect(await html.json()).toMatchObject({ error: "unsupported_media_type" });
    const svg = await putBytes(
      Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>'),
      "image/svg+xml",
    );
    expect(svg.status).toBe(415);

    // A PNG with HTML after its end: browsers that sniff would run it. We re-encode it.
    const polyglot = Buffer.concat([await png(16, 16), Buffer.from("<html><script>alert(document.cookie)</script></html>")]);
    const stored = await putBytes(polyglot, "text/html");
    expect(stored.status).toBe(201);
    const { file } = (await stored.json()) as { file: { url: string; type: string } };
    expect(file.type).toBe("image/png");
    const served = await fetch(`${srv.url}${path(file.url)}`);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await served.arrayBuffer()).toString("latin1")).not.toContain("<script");

    // Plain text is shown as text, in a sandbox; other types are downloads.
    const text = await putBytes(Buffer.from("just some notes\n"), "text/html");
    const t = (await text.json()) as { file: { url: string; type: string } };
    const shown = await fetch(`${srv.url}${path(t.file.url)}`);
    expect(shown.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(shown.headers.get("content-security-policy")).toContain("sandbox");
    const zip = await putBytes(Buffer.concat([Buffer.from("PK\x03\x04", "latin1"), Buffer.alloc(100)]), "image/png");
    const z = (await zip.json()) as { file: { url: string; type: string } };
    expect((await fetch(`${srv.url}${path(z.file.url)}`)).headers.get("content-disposition")).toMatch(/^attachment/);
  });
});

describe("deleting a workspace", () => {
  it("removes its files and their chunks", async () => {
    const ws = await newWorkspace("private");
    await addFile(srv.deps, me, { workspace: ws.slug, data: await png(30, 30), alt: "One", imageOnly: true });
    await addFile(srv.deps, me, { workspace: ws.slug, data: randomBytes(600 * 1024), imageOnly: false });
    await createUploadUrl(srv.deps, me, { workspace: ws.slug });
    expect(await srv.database.c.fileChunks.countDocuments({ workspaceId: ws.id })).toBe(4);
    expect(await srv.database.c.files.countDocuments({ workspaceId: ws.id })).toBe(2);
    await trpcData(await owner.mutation("workspaces.delete", { slug: ws.slug, confirm: ws.slug }));
    expect(await srv.database.c.fileChunks.countDocuments({ workspaceId: ws.id })).toBe(0);
    expect(await srv.database.c.files.countDocuments({ workspaceId: ws.id })).toBe(0);
    expect(await srv.database.c.uploads.countDocuments({ workspaceId: ws.id })).toBe(0);
  });
});
