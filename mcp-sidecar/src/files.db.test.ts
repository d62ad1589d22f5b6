// Files through the real MCP client (docs/security.md#files): push_image cleans and stores an
// image once per workspace, counted in the sandbox's cap; what is not a raster image is
// refused from its bytes; the result carries the stored image (a smaller copy when large) as
// MCP image content; list_files pages with a signed cursor; delete_file.
import { registerAnonymous } from "@atelier/shared/domain/registrations";
import { findServedFile, PREVIEW_MAX_BYTES } from "@atelier/shared/domain/files";
import { receiveUpload } from "@atelier/shared/domain/uploads";
import { createWorkspace } from "@atelier/shared/domain/workspaces";
import type { UserDoc } from "@atelier/shared/db";
import type { Client } from "@modelcontextprotocol/client";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, makeToken, makeUser, startTestSidecar, type TestSidecar } from "./testing";

let sc: TestSidecar;
let owner: UserDoc;
let client: Client;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

type Result = { isError?: boolean; content: { type: string; text?: string; data?: string; mimeType?: string }[]; structuredContent?: unknown };
const errorOf = (r: Result) => JSON.parse(r.content[0]?.text ?? "{}") as { error: string; message: string };
interface Pushed {
  file: { sha256: string; url: string; type: string; size: number; width: number; height: number };
  markdown: string;
  url: string;
}

/** The stored bytes of a file, read back through the serving path. */
async function storedBytes(url: string): Promise<Buffer> {
  const [workspaceId = "", name = ""] = url.split("/files/")[1]?.split("/") ?? [];
  const served = await findServedFile(sc.deps, async () => ({ kind: "user", user: owner }), workspaceId, name);
  const chunks: Buffer[] = [];
  for await (const c of served?.chunks() ?? []) chunks.push(c);
  return Buffer.concat(chunks);
}

/** A PNG made here: a gradient of `w`×`h`, or noise (which does not compress). */
async function png(w: number, h: number, noise = false): Promise<Buffer> {
  const raw = Buffer.alloc(w * h * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = noise ? Math.floor(Math.random() * 256) : (i * 7) % 256;
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toBuffer();
}

async function push(c: Client, args: Record<string, unknown>): Promise<Result> {
  return (await c.callTool({ name: "push_image", arguments: args })) as Result;
}

beforeAll(async () => {
  sc = await startTestSidecar(
    { ANONYMOUS_REGISTRATION_ENABLED: "true", ANON_REG_PER_IP_PER_DAY: "1000", ANON_WRITES_PER_MINUTE: "1000", IMAGE_MAX_DIMENSION: "1000" },
    "files",
  );
  owner = await makeUser(sc, `files-${Date.now()}@example.com`);
  client = await connectClient(sc, (await makeToken(sc, owner, { label: "Picture bot" })).credential);
});
afterAll(async () => {
  await client.close();
  await sc.close();
});

describe("push_image", () => {
  it("stores a PNG once, answers the Markdown and URL with its size, and the same bytes again store nothing more", async () => {
    const ws = owner.defaultWorkspaceId ?? "";
    const image = await png(64, 48);
    const before = (await sc.database.c.workspaces.findOne({ _id: ws }))?.usage.bytes ?? 0;
    const r = await push(client, { data: image.toString("base64"), alt: "A gradient [test]", name: "gradient.png" });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as Pushed;
    expect(out.file).toMatchObject({ type: "image/png", width: 64, height: 48 });
    expect(out.url).toBe(`${sc.config.BASE_URL}/files/${ws}/${out.file.sha256}-64x48.png`);
    expect(out.markdown).toBe(`![A gradient \\[test\\]](${out.url})`);
    const after = (await sc.database.c.workspaces.findOne({ _id: ws }))?.usage.bytes ?? 0;
    expect(after - before).toBeGreaterThanOrEqual(out.file.size);

    const again = (await push(client, { data: image.toString("base64"), alt: "Same again" })).structuredContent as Pushed;
    expect(again.file.sha256).toBe(out.file.sha256);
    expect(await sc.database.c.files.countDocuments({ workspaceId: ws, sha256: out.file.sha256 })).toBe(1);
    expect(await sc.database.c.fileChunks.countDocuments({ fileId: `${ws}:${out.file.sha256}` })).toBe(1);
    expect((await sc.database.c.workspaces.findOne({ _id: ws }))?.usage.bytes).toBe(after);

    // get_page gives the Markdown back with the same stable URL.
    const slug = uniq("pic");
    await client.callTool({ name: "create_page", arguments: { slug, title: "Picture", body_markdown: `Look:\n\n${out.markdown}\n` } });
    const page = (await client.callTool({ name: "get_page", arguments: { slug } })).structuredContent as { page: { parts: { body: string }[] } };
    expect(page.page.parts[0]?.body).toContain(out.url);
    const listed = (await client.callTool({ name: "list_files", arguments: { workspace: (await sc.database.c.workspaces.findOne({ _id: ws }))?.slug } }))
      .structuredContent as { files: { sha256: string; used_in: string[]; added_by: { label: string } }[] };
    expect(listed.files.find((f) => f.sha256 === out.file.sha256)).toMatchObject({ used_in: [slug], added_by: { label: "Picture bot" } });
  });

  it("removes EXIF (GPS above all), turns and scales a very large image down to IMAGE_MAX_DIMENSION", async () => {
    const base = await png(1600, 400);
    const jpeg = await sharp(base)
      .jpeg()
      .withExif({
        IFD0: { Make: "Spy Camera", Artist: "Someone" },
        IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 24/1", GPSLongitudeRef: "E", GPSLongitude: "2/1 21/1 7/1" },
      })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif?.toString("latin1")).toContain("Spy Camera");
    const out = (await push(client, { data: jpeg.toString("base64"), alt: "A wide gradient" })).structuredContent as Pushed;
    expect(out.file).toMatchObject({ type: "image/jpeg", width: 1000, height: 250 });
    const served = await findServedFile(sc.deps, async () => ({ kind: "user", user: owner }), owner.defaultWorkspaceId ?? "", out.url.split("/").pop() ?? "");
    const chunks: Buffer[] = [];
    for await (const c of served?.chunks() ?? []) chunks.push(c);
    const stored = Buffer.concat(chunks);
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect(stored.toString("latin1")).not.toContain("Spy Camera");
    expect(stored.includes(Buffer.from("GPS"))).toBe(false);
    expect([meta.width, meta.height]).toEqual([1000, 250]);
  });

  it("refuses what is not a raster image, whatever it claims, and an image without alt text; nothing is stored", async () => {
    const ws = owner.defaultWorkspaceId ?? "";
    const count = await sc.database.c.files.countDocuments({ workspaceId: ws });
    const html = Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>");
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const bytes of [html, svg, Buffer.from("%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n")]) {
      const r = await push(client, { data: bytes.toString("base64"), alt: "x", name: "innocent.png" });
      expect(r.isError).toBe(true);
      expect(errorOf(r).error).toBe("unsupported_media_type");
    }
    // A PNG header over garbage: typed as PNG, then refused by the decoder.
    const fake = Buffer.concat([(await png(8, 8)).subarray(0, 33), Buffer.from("<script>alert(1)</script>")]);
    expect(errorOf(await push(client, { data: fake.toString("base64"), alt: "x" })).error).toBe("unsupported_media_type");
    const noAlt = await push(client, { data: (await png(8, 8)).toString("base64") });
    expect(errorOf(noAlt).error).toBe("invalid_request");
    expect(errorOf(await push(client, { data: "not base64!", alt: "x" })).error).toBe("invalid_request");
    expect(await sc.database.c.files.countDocuments({ workspaceId: ws })).toBe(count);
  });

  it("counts files in an unclaimed sandbox's 10 MB cap, and delete_file gives the bytes back", async () => {
    const reg = await registerAnonymous(sc.deps, { agentLabel: "Sandbox painter", requesterIp: `10.1.0.${Math.floor(Math.random() * 250)}` });
    const bot = await connectClient(sc, reg.credential);
    const pushed: Pushed[] = [];
    let refused: Result | null = null;
    // Noise does not compress: each of these is about 2.9 MB stored.
    for (let i = 0; i < 5 && !refused; i++) {
      const r = await push(bot, { data: (await png(990, 990, true)).toString("base64"), alt: `Noise ${i}` });
      if (r.isError) refused = r;
      else pushed.push(r.structuredContent as Pushed);
    }
    expect(pushed).toHaveLength(3);
    expect(errorOf(refused as Result)).toMatchObject({ error: "limit_exceeded" });
    const ws = await sc.database.c.workspaces.findOne({ _id: reg.sandbox_bucket.id });
    expect(ws?.usage.bytes).toBeLessThanOrEqual(10 * 1024 * 1024);
    expect(await sc.database.c.files.countDocuments({ workspaceId: reg.sandbox_bucket.id })).toBe(3);

    const del = await bot.callTool({ name: "delete_file", arguments: { workspace: reg.sandbox_bucket.slug, sha256: pushed[0]?.file.sha256 } });
    expect(del.isError).toBeFalsy();
    expect(await sc.database.c.fileChunks.countDocuments({ fileId: `${reg.sandbox_bucket.id}:${pushed[0]?.file.sha256}` })).toBe(0);
    const freed = (del.structuredContent as { deleted: { freed_bytes: number } }).deleted.freed_bytes;
    expect((await sc.database.c.workspaces.findOne({ _id: reg.sandbox_bucket.id }))?.usage.bytes).toBe((ws?.usage.bytes ?? 0) - freed);
    expect(
      errorOf((await bot.callTool({ name: "delete_file", arguments: { workspace: reg.sandbox_bucket.slug, sha256: pushed[0]?.file.sha256 } })) as Result).error,
    ).toBe("not_found");
    await bot.close();
    // Generous: five pushes of 3 MB of noise (cleaned, then a preview made of each) on a loaded machine.
  }, 180_000);
});

describe("push_image's image content", () => {
  it("carries the stored image beside the JSON text: as stored when small, a smaller copy when large", async () => {
    const small = await push(client, { data: (await png(64, 40)).toString("base64"), alt: "A small card" });
    expect(small.isError).toBeFalsy();
    expect(small.content.map((c) => c.type)).toEqual(["text", "image"]);
    expect(JSON.parse(small.content[0]?.text ?? "{}")).toEqual(small.structuredContent);
    const out = small.structuredContent as Pushed;
    const image = small.content[1];
    expect(image?.mimeType).toBe("image/png");
    // The web-ready bytes the page will show, not the bytes that were sent.
    expect(Buffer.from(image?.data ?? "", "base64").equals(await storedBytes(out.url))).toBe(true);

    // Noise does not compress: about 2.4 MB stored, so the content is a copy at most 768 px a side.
    const large = await push(client, { data: (await png(900, 900, true)).toString("base64"), alt: "Noise" });
    const stored = (large.structuredContent as Pushed).file;
    expect(stored.size).toBeGreaterThan(PREVIEW_MAX_BYTES);
    const copy = large.content[1];
    expect(copy?.type).toBe("image");
    expect(copy?.mimeType).toBe("image/jpeg");
    const bytes = Buffer.from(copy?.data ?? "", "base64");
    expect(bytes.length).toBeLessThan(stored.size);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 768, 768]);
    // Generous: sharp's PNG encoding of noise is slow on a loaded machine.
  }, 180_000);

  it("finish_upload carries an uploaded image the same way, and a file that is not an image has none", async () => {
    const image = await png(30, 20);
    const target = (await client.callTool({ name: "create_upload_url", arguments: { name: "upload.png" } })).structuredContent as { upload_id: string };
    await receiveUpload(sc.deps, target.upload_id, image);
    const done = (await client.callTool({ name: "finish_upload", arguments: { upload_id: target.upload_id, alt: "Uploaded card" } })) as Result;
    expect(done.isError).toBeFalsy();
    expect(done.content.map((c) => [c.type, c.mimeType])).toEqual([
      ["text", undefined],
      ["image", "image/png"],
    ]);
    expect(Buffer.from(done.content[1]?.data ?? "", "base64").equals(await storedBytes((done.structuredContent as Pushed).url))).toBe(true);

    const text = (await client.callTool({ name: "create_upload_url", arguments: { name: "notes.txt" } })).structuredContent as { upload_id: string };
    await receiveUpload(sc.deps, text.upload_id, Buffer.from("just words\n"));
    const plain = (await client.callTool({ name: "finish_upload", arguments: { upload_id: text.upload_id } })) as Result;
    expect(plain.content.map((c) => c.type)).toEqual(["text"]);
  });

  it("an error result has no image", async () => {
    const r = await push(client, { data: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>").toString("base64"), alt: "x" });
    expect(r.isError).toBe(true);
    expect(r.content.map((c) => c.type)).toEqual(["text"]);
  });
});

describe("list_files paging", () => {
  it("gives the files newest first, `limit` at a time, each once, until next_cursor is null; a forged cursor is refused", async () => {
    const slug = uniq("files-paging");
    await createWorkspace(sc.deps, { slug, name: "Paging", ownerId: owner._id });
    const pushed: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await push(client, { workspace: slug, data: (await png(10 + i, 10)).toString("base64"), alt: `Card ${i}` });
      pushed.push((r.structuredContent as Pushed).file.sha256);
    }
    type Listed = { files: { sha256: string; created_at: string }[]; next_cursor: string | null };
    const seen: Listed["files"] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    for (let call = 0; call < 10; call++) {
      const r = await client.callTool({ name: "list_files", arguments: { workspace: slug, limit: 2, ...(cursor ? { cursor } : {}) } });
      expect(r.isError).toBeFalsy();
      const page = r.structuredContent as Listed;
      seen.push(...page.files);
      sizes.push(page.files.length);
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen.map((f) => f.sha256).sort()).toEqual([...pushed].sort());
    const times = seen.map((f) => Date.parse(f.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Without a limit: all five at once, no cursor.
    const all = (await client.callTool({ name: "list_files", arguments: { workspace: slug } })).structuredContent as Listed;
    expect(all.files).toHaveLength(5);
    expect(all.next_cursor).toBeNull();

    const forged = (await client.callTool({
      name: "list_files",
      arguments: { workspace: slug, cursor: `${cursor?.split(".")[0]}.AAAAAAAAAAAAAAAAAAAAAA` },
    })) as Result;
    expect(forged.isError).toBe(true);
    expect(errorOf(forged).error).toBe("invalid_cursor");
    const tooMany = (await client.callTool({ name: "list_files", arguments: { workspace: slug, limit: 201 } })) as Result;
    expect(errorOf(tooMany).error).toBe("invalid_request");
  });
});
