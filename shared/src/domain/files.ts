// Longer than 300 lines: a file's whole life is one rule set — typing from the bytes, image cleaning, content-addressed chunked storage, serving, deletion.
// Files in pages (docs/security.md#files). The type is decided from the bytes (file-type),
// never from a name or a declared type; images are decoded and encoded again by sharp, which
// drops their metadata (EXIF with GPS positions, XMP, comments), turns them upright, scales
// very large ones down to IMAGE_MAX_DIMENSION and breaks any polyglot (an image that is also
// HTML or a script). SVG is refused: it is a document that can carry scripts. The bytes are
// stored in chunks through the storage contract (docs/ARCHITECTURE.md#state), addressed by
// their SHA-256 per workspace, so the same file is stored once, and counted in the
// workspace's usage like any page (limits.ts).
import { isUtf8 } from "node:buffer";
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { Binary, type Filter } from "mongodb";
import sharp from "sharp";
import { z } from "zod";
import type { Config } from "../config";
import type { FileDoc, WorkspaceDoc } from "../db/index";
import { AppError } from "../errors";
import { clampLimit } from "../schemas/common";
import { FILE_LIST_LIMIT } from "../schemas/files";
import { actorForReader, actorOf, assertCan, can, isHidden, type Principal, readerIn } from "./access";
import { isPublicWorkspace } from "./artifacts";
import { now } from "./clock";
import { decodeCursor, encodeCursor } from "./cursors";
import type { StoreDeps } from "./deps";
import { RECORD_OVERHEAD_BYTES, releaseUsage, reserveUsage } from "./limits";
import { findWorkspace, readableWorkspace, resolveWorkspaceForWrite } from "./workspaces";

/** Bytes per chunk: far below the 16 MiB document limit of MongoDB and FerretDB (BSON), and small enough to stream. */
export const CHUNK_BYTES = 255 * 1024;
/** Largest image `push_image` takes (decoded from base64). */
export const PUSH_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Images above this many pixels are refused before decoding (a decompression bomb). */
const MAX_INPUT_PIXELS = 100_000_000;

/** Raster images we keep as images (re-encoded in their own format). */
const IMAGE_TYPES: Record<string, "png" | "jpeg" | "gif" | "webp" | "avif"> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/avif": "avif",
};

/** Types a browser may show in place (with nosniff and a sandbox); everything else is a download. */
const INLINE_TYPES = new Set([
  ...Object.keys(IMAGE_TYPES),
  "application/pdf",
  "text/plain",
  "audio/mpeg",
  "audio/ogg",
  "audio/wav",
  "audio/x-wav",
  "audio/flac",
  "video/mp4",
  "video/webm",
  "video/ogg",
]);

export interface PreparedFile {
  data: Buffer;
  type: string;
  ext: string;
  width: number | null;
  height: number | null;
}

function refuseType(what: string): AppError {
  return new AppError(
    "unsupported_media_type",
    `${what} Images (PNG, JPEG, GIF, WebP, AVIF), PDF, plain text, audio, video and other binary files are accepted; SVG and HTML are not.`,
  );
}

/** Markup a browser would run (HTML, SVG, XML) in what claims to be plain text. */
function looksLikeMarkup(text: string): boolean {
  return /<\s*(!doctype|html|svg|script|\?xml|body|head|iframe|object|embed|meta)\b/i.test(text.slice(0, 64 * 1024));
}

/**
 * The bytes as we keep them, with their type from the bytes. `imageOnly`: anything but a
 * raster image is refused (push_image). Images come back re-encoded, without metadata.
 */
export async function prepareFile(config: Pick<Config, "IMAGE_MAX_DIMENSION">, input: Buffer, opts: { imageOnly: boolean }): Promise<PreparedFile> {
  if (input.length === 0) throw new AppError("invalid_request", "The file is empty.");
  const { fileTypeFromBuffer } = await import("file-type");
  const detected = await fileTypeFromBuffer(input);
  const mime = detected?.mime as string | undefined;
  const format = mime ? IMAGE_TYPES[mime] : undefined;
  if (format) return cleanImage(config, input, format);
  if (opts.imageOnly) throw refuseType(`These bytes are ${mime ? `${mime}, not an image` : "not an image"}.`);
  if (mime === "image/svg+xml" || mime === "application/xml" || mime === "text/html") throw refuseType(`These bytes are ${mime}.`);
  if (mime) return { data: input, type: mime, ext: detected?.ext ?? "bin", width: null, height: null };
  // No signature: plain text if it is UTF-8 without markup, else an opaque download.
  const text = new TextDecoder("utf-8", { fatal: false }).decode(input.subarray(0, 64 * 1024));
  if (looksLikeMarkup(text)) throw refuseType("These bytes are HTML, SVG or XML.");
  if (isUtf8(input) && !input.includes(0)) return { data: input, type: "text/plain", ext: "txt", width: null, height: null };
  return { data: input, type: "application/octet-stream", ext: "bin", width: null, height: null };
}

async function cleanImage(config: Pick<Config, "IMAGE_MAX_DIMENSION">, input: Buffer, format: "png" | "jpeg" | "gif" | "webp" | "avif"): Promise<PreparedFile> {
  const max = config.IMAGE_MAX_DIMENSION;
  const animated = format === "gif" || format === "webp";
  try {
    // rotate(): applies the EXIF orientation, so the picture stays upright once EXIF is gone.
    let pipeline = sharp(input, { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS, animated })
      .rotate()
      .resize({ width: max, height: max, fit: "inside", withoutEnlargement: true });
    pipeline =
      format === "jpeg"
        ? pipeline.jpeg({ quality: 85, mozjpeg: true })
        : format === "png"
          ? pipeline.png({ compressionLevel: 9 })
          : format === "webp"
            ? pipeline.webp({ quality: 85 })
            : format === "avif"
              ? pipeline.avif({ quality: 60 })
              : pipeline.gif();
    // No withMetadata(): sharp writes no EXIF, XMP or IPTC unless asked to.
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    const height = animated && info.pageHeight ? info.pageHeight : info.height;
    return { data, type: `image/${format}`, ext: format === "jpeg" ? "jpg" : format, width: info.width, height };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError("unsupported_media_type", `This image could not be read (${err instanceof Error ? err.message.slice(0, 120) : "unknown error"}).`);
  }
}

/**
 * Bytes a workspace archive brings in, kept as they are so their address (their SHA-256)
 * stays the same. The type is decided from the bytes as for an upload; an image must decode,
 * carry no metadata, stand upright, lie within IMAGE_MAX_DIMENSION and have the size the
 * archive states: what cleanImage leaves. Anything else is refused rather than re-encoded,
 * which would change its address under the pages that show it.
 */
export async function checkArchivedFile(
  config: Pick<Config, "IMAGE_MAX_DIMENSION">,
  data: Buffer,
  stated: { width: number | null; height: number | null },
): Promise<PreparedFile> {
  if (data.length === 0) throw new AppError("invalid_request", "The file is empty.");
  const { fileTypeFromBuffer } = await import("file-type");
  const mime = (await fileTypeFromBuffer(data))?.mime as string | undefined;
  const format = mime ? IMAGE_TYPES[mime] : undefined;
  if (!format) return prepareFile(config, data, { imageOnly: false });
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    meta = await sharp(data, { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch (err) {
    throw new AppError("unsupported_media_type", `This image could not be read (${err instanceof Error ? err.message.slice(0, 120) : "unknown error"}).`);
  }
  const width = meta.width;
  const height = meta.pageHeight ?? meta.height;
  const comments = (meta as { comments?: unknown[] }).comments ?? [];
  if (meta.exif || meta.xmp || meta.iptc || (meta.orientation ?? 1) !== 1 || comments.length > 0)
    throw new AppError("unsupported_media_type", "This image carries metadata (EXIF, XMP, IPTC or comments); an export holds none.");
  if (!width || !height || Math.max(width, height) > config.IMAGE_MAX_DIMENSION)
    throw new AppError("unsupported_media_type", `This image is larger than ${config.IMAGE_MAX_DIMENSION} pixels a side.`);
  if (width !== stated.width || height !== stated.height)
    throw new AppError("unsupported_media_type", `This image is ${width}x${height}, not the ${stated.width ?? "?"}x${stated.height ?? "?"} stated.`);
  return { data, type: `image/${format}`, ext: format === "jpeg" ? "jpg" : format, width, height };
}

export function fileIdOf(workspaceId: string, sha256: string): string {
  return `${workspaceId}:${sha256}`;
}

const chunkId = (fileId: string, n: number) => `${fileId}:${n}`;

/** What a file costs: its bytes and a record per chunk. */
export function fileCost(size: number): number {
  return RECORD_OVERHEAD_BYTES + Math.ceil(size / CHUNK_BYTES) * 64 + size;
}

/** The stable address of a file: `/files/{workspaceId}/{sha256}[-{w}x{h}].{ext}` (the size lets a renderer reserve its box). */
export function filePath(f: Pick<FileDoc, "workspaceId" | "sha256" | "ext" | "width" | "height">): string {
  const size = f.width && f.height ? `-${f.width}x${f.height}` : "";
  return `/files/${f.workspaceId}/${f.sha256}${size}.${f.ext}`;
}

/** `![alt](url)` with the alt text kept inside its brackets. */
export function imageMarkdown(alt: string, url: string): string {
  const safe = alt.replace(/[\r\n]+/g, " ").replace(/([\\[\]])/g, "\\$1");
  return `![${safe}](${url})`;
}

export interface FileView {
  id: string;
  sha256: string;
  url: string;
  type: string;
  size: number;
  width: number | null;
  height: number | null;
  name: string;
  created_at: string;
  added_by: ReturnType<typeof actorForReader>;
}

export function fileView(config: Pick<Config, "BASE_URL">, f: FileDoc, reader: ReturnType<typeof readerIn>): FileView {
  return {
    id: f.sha256,
    sha256: f.sha256,
    url: `${config.BASE_URL}${filePath(f)}`,
    type: f.type,
    size: f.size,
    width: f.width,
    height: f.height,
    name: f.name,
    created_at: f.createdAt.toISOString(),
    added_by: actorForReader(f.addedBy, reader),
  };
}

function isDuplicate(err: unknown): boolean {
  return (err as { code?: number }).code === 11000;
}

/**
 * Stores prepared bytes in `ws` (already checked for write). The same bytes already there:
 * nothing is written or charged again. Otherwise the bytes are reserved against the caps,
 * the file's record is written (incomplete), then its chunks, then it is marked complete;
 * a failure takes back what was written and gives the bytes back.
 */
export async function storePrepared(deps: StoreDeps, ws: WorkspaceDoc, principal: Principal, prepared: PreparedFile, name: string): Promise<FileDoc> {
  const { files, fileChunks } = deps.database.c;
  const sha256 = createHash("sha256").update(prepared.data).digest("hex");
  const _id = fileIdOf(ws._id, sha256);
  const existing = await files.findOne({ _id });
  if (existing?.complete) return existing;
  const size = prepared.data.length;
  const chunks = Math.max(1, Math.ceil(size / CHUNK_BYTES));
  const doc: FileDoc = {
    _id,
    workspaceId: ws._id,
    sha256,
    type: prepared.type,
    ext: prepared.ext,
    size,
    bytes: fileCost(size),
    width: prepared.width,
    height: prepared.height,
    name,
    chunks,
    complete: false,
    addedBy: actorOf(principal),
    createdAt: now(),
  };
  let charged = false;
  if (!existing) {
    await reserveUsage(deps, ws, { pages: 0, bytes: doc.bytes });
    charged = true;
    try {
      await files.insertOne(doc);
    } catch (err) {
      await releaseUsage(deps, ws._id, { pages: 0, bytes: doc.bytes });
      charged = false;
      // Someone stored the same bytes meanwhile: theirs is ours (finished below if need be).
      if (!isDuplicate(err)) throw err;
    }
  }
  try {
    for (let n = 0; n < chunks; n++) {
      const data = new Binary(prepared.data.subarray(n * CHUNK_BYTES, (n + 1) * CHUNK_BYTES));
      try {
        await fileChunks.insertOne({ _id: chunkId(_id, n), workspaceId: ws._id, fileId: _id, n, data });
      } catch (err) {
        // The same chunk of the same bytes, written by a racing upload: identical.
        if (!isDuplicate(err)) throw err;
      }
    }
    await files.updateOne({ _id, complete: false }, { $set: { complete: true } });
  } catch (err) {
    if (charged) {
      await removeFile(deps, _id).catch(() => undefined);
      await releaseUsage(deps, ws._id, { pages: 0, bytes: doc.bytes }).catch(() => undefined);
    }
    throw err;
  }
  return (await files.findOne({ _id })) ?? { ...doc, complete: true };
}

/**
 * Deletes a file (the one `filter` also matches): first taken out of service (incomplete: not
 * served, not listed), then its chunks, then its record, so a delete cut short leaves an
 * incomplete record that the sweeper finishes (dropUnfinishedFile), never chunks without one.
 * The file as it was, to the one caller whose delete removed the record; null otherwise.
 */
async function removeFile(deps: StoreDeps, fileId: string, filter: Filter<FileDoc> = {}): Promise<FileDoc | null> {
  const { files, fileChunks } = deps.database.c;
  const doc = await files.findOneAndUpdate({ ...filter, _id: fileId }, { $set: { complete: false } });
  if (!doc) return null;
  await fileChunks.deleteMany({ fileId });
  return (await files.deleteOne({ _id: fileId })).deletedCount === 1 ? doc : null;
}

/**
 * For the sweeper: a file record still incomplete after the grace period (its writer stopped
 * between the record and its last chunk, or a delete stopped half-way) goes with its chunks,
 * and the bytes reserved for it are given back.
 */
export async function dropUnfinishedFile(deps: StoreDeps, file: Pick<FileDoc, "_id">): Promise<void> {
  const gone = await removeFile(deps, file._id, { complete: false });
  if (gone) await releaseUsage(deps, gone.workspaceId, { pages: 0, bytes: gone.bytes });
}

export interface PushedFile {
  file: FileView;
  markdown: string;
  data: Buffer;
}

/** Cleans and stores bytes for `principal` in the named workspace (or its default): what push_image and uploads share. */
export async function addFile(
  deps: StoreDeps,
  principal: Principal,
  input: { workspace?: string; data: Buffer; name?: string; alt?: string; imageOnly: boolean },
): Promise<PushedFile> {
  const ws = await resolveWorkspaceForWrite(deps, principal, input.workspace);
  assertCan(principal, ws, "write");
  if (input.data.length > deps.config.FILE_MAX_BYTES) {
    throw new AppError("payload_too_large", `A file holds at most ${deps.config.FILE_MAX_BYTES} bytes; this one has ${input.data.length}.`, {
      details: { limit: "file_bytes", max: deps.config.FILE_MAX_BYTES },
    });
  }
  const prepared = await prepareFile(deps.config, input.data, { imageOnly: input.imageOnly });
  const stored = await storePrepared(deps, ws, principal, prepared, (input.name ?? "").slice(0, 200));
  const file = fileView(deps.config, stored, readerIn(principal, ws));
  const markdown = stored.type.startsWith("image/")
    ? imageMarkdown(input.alt ?? stored.name, file.url)
    : `[${(stored.name || "file").replace(/([\\[\]])/g, "\\$1")}](${file.url})`;
  return { file, markdown, data: prepared.data };
}

/** Stored images up to this size are shown to an agent as they are; larger ones as a smaller copy. */
export const PREVIEW_MAX_BYTES = 512 * 1024;
/** The longest side of that smaller copy. */
const PREVIEW_MAX_DIMENSION = 768;
/** Types MCP clients commonly show; an AVIF is shown as a copy in one of these. */
const PREVIEW_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * The image an MCP result carries beside its text (so a client can show what was stored):
 * the stored, web-ready bytes when small, else a copy at most PREVIEW_MAX_DIMENSION on a side
 * (PNG when the image has transparency, JPEG otherwise). Null for what is not an image.
 */
export async function imagePreview(data: Buffer, type: string): Promise<{ data: Buffer; mimeType: string } | null> {
  if (!type.startsWith("image/")) return null;
  if (data.length <= PREVIEW_MAX_BYTES && PREVIEW_TYPES.has(type)) return { data, mimeType: type };
  const img = sharp(data, { limitInputPixels: MAX_INPUT_PIXELS }).resize({
    width: PREVIEW_MAX_DIMENSION,
    height: PREVIEW_MAX_DIMENSION,
    fit: "inside",
    withoutEnlargement: true,
  });
  const { hasAlpha } = await sharp(data).metadata();
  return hasAlpha
    ? { data: await img.png({ compressionLevel: 9 }).toBuffer(), mimeType: "image/png" }
    : { data: await img.jpeg({ quality: 80, mozjpeg: true }).toBuffer(), mimeType: "image/jpeg" };
}

/** A stored file's bytes, whole (for a preview: files are streamed chunk by chunk when served). */
export async function fileBytes(deps: StoreDeps, file: Pick<FileDoc, "_id" | "chunks">): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let n = 0; n < file.chunks; n++) {
    const c = await deps.database.c.fileChunks.findOne({ _id: chunkId(file._id, n) });
    if (!c) throw new Error(`chunk ${n} of ${file._id} is missing`);
    parts.push(Buffer.from(c.data.buffer));
  }
  return Buffer.concat(parts);
}

export interface FileListItem extends FileView {
  used_in: string[];
}

/** Pages of the workspace whose content names the file's address (`/files/{workspace}/{sha256}`), in slug order, at most 50. */
export async function pagesUsing(deps: StoreDeps, workspaceId: string, sha256: string): Promise<string[]> {
  const address = `/files/${workspaceId}/${sha256}`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pages = await deps.database.c.pages
    .find({ workspaceId, "parts.body": { $regex: address } }, { projection: { slug: 1 } })
    .sort({ slug: 1 })
    .limit(50)
    .toArray();
  return pages.map((p) => p.slug);
}

const FilesCursor = z.object({ t: z.number().int().nonnegative(), i: z.string().min(1).max(200) }).strict();

/** A workspace's files, newest first, `limit` at a time (then `next_cursor`), with the pages that use each. */
export async function listFiles(
  deps: StoreDeps,
  principal: Principal,
  input: { workspace: string; cursor?: string; limit?: number },
): Promise<{ workspace: string; files: FileListItem[]; next_cursor: string | null }> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  const limit = clampLimit(FILE_LIST_LIMIT, input.limit);
  const filter: Filter<FileDoc> = { workspaceId: ws._id, complete: true };
  if (input.cursor) {
    // After the last one given: older, or as old with a greater id (the sort's tie-break).
    const after = decodeCursor(deps.config.SECRET_KEY, "files", input.cursor, FilesCursor);
    const t = new Date(after.t);
    filter.$or = [{ createdAt: { $lt: t } }, { createdAt: t, _id: { $gt: after.i } }];
  }
  const docs = await deps.database.c.files
    .find(filter)
    .sort({ createdAt: -1, _id: 1 })
    .limit(limit + 1)
    .toArray();
  const page = docs.slice(0, limit);
  const reader = readerIn(principal, ws);
  const files = await Promise.all(page.map(async (f) => ({ ...fileView(deps.config, f, reader), used_in: await pagesUsing(deps, ws._id, f.sha256) })));
  const last = page[page.length - 1];
  const next_cursor = docs.length > limit && last ? encodeCursor(deps.config.SECRET_KEY, "files", { t: last.createdAt.getTime(), i: last._id }) : null;
  return { workspace: ws.slug, files, next_cursor };
}

/** Deletes a file of the workspace (pages that show it then show a broken image) and gives its bytes back. */
export async function deleteFile(
  deps: StoreDeps,
  principal: Principal,
  input: { workspace: string; sha256: string },
): Promise<{ sha256: string; freed_bytes: number }> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  assertCan(principal, ws, "write");
  const gone = await removeFile(deps, fileIdOf(ws._id, input.sha256.toLowerCase()), { complete: true });
  if (!gone) throw new AppError("not_found", "No such file in this workspace.");
  await releaseUsage(deps, ws._id, { pages: 0, bytes: gone.bytes });
  return { sha256: gone.sha256, freed_bytes: gone.bytes };
}

/** How long a file grant lasts: until the end of the next whole hour (so its URLs stay the same for a while and browsers can keep them). */
const GRANT_HOURS = 2;

function grantMac(config: Pick<Config, "SECRET_KEY">, workspaceId: string, until: number): string {
  return createHmac("sha256", config.SECRET_KEY).update(`file-grant\u0000${workspaceId}\u0000${until}`).digest("base64url").slice(0, 32);
}

/**
 * A grant to read one workspace's files for a while, given with a private page to whoever may
 * read it: documents are served in an opaque origin (a sandbox), from which a browser sends no
 * SameSite cookie, and share links have no session at all.
 */
export function fileGrant(config: Pick<Config, "SECRET_KEY">, workspaceId: string): string {
  const until = (Math.floor(now().getTime() / 3_600_000) + GRANT_HOURS) * 3600;
  return `${until}.${grantMac(config, workspaceId, until)}`;
}

/** Whether `grant` (one we gave out, not yet over) lets its holder read `workspaceId`'s files. */
export function grantAllows(config: Pick<Config, "SECRET_KEY">, grant: string, workspaceId: string): boolean {
  const m = /^([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{32})$/.exec(grant);
  if (!m) return false;
  const until = Number(m[1]);
  if (until * 1000 <= now().getTime()) return false;
  const given = Buffer.from(m[2] ?? "");
  const expected = Buffer.from(grantMac(config, workspaceId, until));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A private page's document as one reader gets it: the addresses of its own workspace's
 * files carry a grant (files of other workspaces are left as they are: the reader may not
 * read those through this page).
 */
export function withFileGrants(config: Pick<Config, "SECRET_KEY" | "BASE_URL">, html: string, workspaceId: string): string {
  if (!html.includes(`/files/${workspaceId}/`)) return html;
  const base = config.BASE_URL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const grant = fileGrant(config, workspaceId);
  const at = new RegExp(`(src|href)="(?:${base})?/files/${workspaceId}/`, "g");
  return html.replace(at, `$1="/files/g/${grant}/${workspaceId}/`);
}

/** `{sha256}[-{w}x{h}].{ext}`, the last segment of a file's address. */
const FILE_NAME = /^([0-9a-f]{64})(?:-([1-9][0-9]{0,5})x([1-9][0-9]{0,5}))?\.([a-z0-9]{1,10})$/;
const WORKSPACE_ID = /^ws_[A-Za-z0-9_-]{1,64}$/;

export interface ServedFile {
  file: FileDoc;
  isPublic: boolean;
  /** The chunks in order, read one at a time. */
  chunks(): AsyncGenerator<Buffer>;
}

/**
 * A file by its address, for a reader (a lazily looked-up principal, or a grant given with
 * a private page): null when it does not exist or may not be read (never told apart).
 */
export async function findServedFile(
  deps: StoreDeps,
  reader: (() => Promise<Principal>) | { grant: string },
  workspaceId: string,
  name: string,
): Promise<ServedFile | null> {
  const m = FILE_NAME.exec(name);
  if (!m || !WORKSPACE_ID.test(workspaceId)) return null;
  const [, sha256 = "", w, h, ext] = m;
  const ws = await findWorkspace(deps, workspaceId);
  if (!ws) return null;
  const isPublic = isPublicWorkspace(ws);
  if (!isPublic) {
    if (typeof reader === "function") {
      if (!can(await reader(), ws, "read")) return null;
    } else if (isHidden(ws) || !grantAllows(deps.config, reader.grant, ws._id)) return null;
  }
  const file = await deps.database.c.files.findOne({ _id: fileIdOf(ws._id, sha256) });
  if (!file?.complete || file.ext !== ext) return null;
  // One address per file: the size in the name, when given, must be the file's.
  if ((w !== undefined || h !== undefined) && (Number(w) !== file.width || Number(h) !== file.height)) return null;
  const fileChunks = deps.database.c.fileChunks;
  return {
    file,
    isPublic,
    async *chunks() {
      for (let n = 0; n < file.chunks; n++) {
        const c = await fileChunks.findOne({ _id: chunkId(file._id, n) });
        if (!c) throw new Error(`chunk ${n} of ${file._id} is missing`);
        yield Buffer.from(c.data.buffer);
      }
    },
  };
}

/** The headers a file is served with (docs/security.md#files). */
export function fileHeaders(file: Pick<FileDoc, "type" | "ext" | "sha256" | "size">, shownElsewhere: boolean): Record<string, string> {
  const inline = INLINE_TYPES.has(file.type);
  return {
    "Content-Type": file.type === "text/plain" ? "text/plain; charset=utf-8" : file.type,
    "Content-Length": String(file.size),
    "X-Content-Type-Options": "nosniff",
    // Nothing a file carries may run, load or be framed by others; a PDF viewer still works (it is the browser's).
    "Content-Security-Policy": "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'self'",
    // A public file may be shown anywhere, and a granted one by a sandboxed page (an opaque
    // origin: "same-origin" would block it); one read with a session only by the app itself.
    "Cross-Origin-Resource-Policy": shownElsewhere ? "cross-origin" : "same-origin",
    "Referrer-Policy": "no-referrer",
    "Content-Disposition": inline ? "inline" : `attachment; filename="${file.sha256.slice(0, 16)}.${file.ext}"`,
    ETag: `"${file.sha256}"`,
  };
}
