// Longer than 300 lines: the plan reads and checks every kind of entry before the first write, and the writes undo themselves; split, each part would repeat the reading of the archive.
// Import into a workspace (owners): a zip this service exported, or any zip of Markdown (and
// HTML) files, front matter optional. The whole archive is read and checked before the first
// write — entry count and sizes (declared and actual: zip bombs), names (no absolute paths,
// no `..`), UTF-8, front matter, every page and table against the same schemas the tools use,
// every file against its SHA-256 and its type from the bytes, comments and history against
// the manifest — and a write that still fails undoes the ones before it: nothing half-imported.
// Files keep their SHA-256, so the pages' addresses of them only change workspace (and
// instance): rewritten on the way in. Comment authors and history: docs/decisions.md,
// "Workspace export: files, comments and history".
import { createHash } from "node:crypto";
import path from "node:path";
import { z } from "zod";
import { AppError } from "../../errors";
import { CreatePageInputSchema } from "../../schemas/pages";
import { SLUG_PATTERN } from "../../schemas/common";
import { COLUMN_TYPES } from "../../schemas/cells";
import { openZipBuffer, readEntry, type ZipEntry, type ZipReader } from "../../zip";
import { assertCan, type Principal } from "../access";
import { createPage } from "../pages/create-page";
import { deletePage } from "../pages/delete-page";
import { createCollection } from "../tables/create-collection";
import { deleteTable } from "../tables/delete-table";
import { insertRows } from "../tables/insert-rows";
import type { WriteDeps } from "../versioned-write";
import { readableWorkspace } from "../workspaces";
import { checkArchivedFile, deleteFile, storePrepared, type PreparedFile } from "../files";
import { updatePage } from "../pages/update-page";
import { importThread, planComments } from "./import-comments";
import {
  archiveError,
  ARCHIVE_FORMAT,
  ArchiveManifestSchema,
  COMMENTS_FILE,
  IMPORT_LIMITS,
  parseCsv,
  readFrontMatter,
  slugFrom,
  type ArchiveFile,
  type ArchiveManifest,
  type ArchiveThread,
} from "./format";

export interface ImportResult {
  pages: { file: string; slug: string }[];
  tables: { file: string; slug: string; rows: number }[];
  files: { file: string; sha256: string }[];
  comments: number;
  /** Versions written from the archive's history (0 without it). */
  versions: number;
  skipped: string[];
}

/** `invalid_request` naming the archive (format.ts says which codes). */
const bad = archiveError;

const TableSchema = z
  .object({
    slug: z.string().regex(SLUG_PATTERN),
    name: z.string().min(1).max(200),
    columns: z
      .array(
        z
          .object({ name: z.string().min(1).max(63), type: z.enum(COLUMN_TYPES), required: z.boolean().optional(), options: z.array(z.string()).optional() })
          .strip(),
      )
      .max(100),
  })
  .strip();

type Body = { body_markdown: string } | { body_html: string };
interface PlannedVersion {
  version: number;
  title: string;
  summary: string;
  body: Body;
}
interface PlannedPage {
  file: string;
  /** Its slug in the archive (what history and comments name it by). */
  origin: string;
  slug: string;
  title: string;
  summary: string;
  body: Body;
  /** Its kept versions, oldest first, when the archive has its history. */
  history: PlannedVersion[];
}
interface PlannedFile {
  entry: ArchiveFile;
  prepared: PreparedFile;
}
interface Plan {
  pages: PlannedPage[];
  tables: PlannedTable[];
  files: PlannedFile[];
  threads: ArchiveThread[];
  manifest: ArchiveManifest | null;
  skipped: string[];
}
interface PlannedTable {
  file: string;
  slug: string;
  name: string;
  columns: z.infer<typeof TableSchema>["columns"];
  rows: Record<string, string | number | boolean | null>[];
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

async function bytesOf(zip: ZipReader, e: ZipEntry, max: number): Promise<Buffer> {
  return readEntry(zip, e, max).catch((err: unknown) => {
    throw bad(`${e.fileName}: ${err instanceof Error ? err.message : "cannot be read"}`, "too_large");
  });
}

async function text(zip: ZipReader, e: ZipEntry): Promise<string> {
  const buf = await readEntry(zip, e, IMPORT_LIMITS.entryBytes).catch((err: unknown) => {
    throw bad(`${e.fileName}: ${err instanceof Error ? err.message : "cannot be read"}`, "too_large");
  });
  try {
    return utf8.decode(buf).replace(/^\uFEFF/, "");
  } catch {
    throw bad(`${e.fileName} is not UTF-8 text`, "not_utf8");
  }
}

function cell(type: string, raw: string): string | number | boolean | null {
  if (raw === "") return null;
  if (type === "number") return Number.isFinite(Number(raw)) ? Number(raw) : raw;
  if (type === "boolean") return raw === "true" ? true : raw === "false" ? false : raw;
  return raw;
}

/** The manifest of an archive this service wrote (null: none, or another tool's). */
async function readManifest(zip: ZipReader, entry: ZipEntry | undefined): Promise<ArchiveManifest | null> {
  if (!entry) return null;
  let json: unknown;
  try {
    json = JSON.parse(await text(zip, entry));
  } catch (err) {
    if (err instanceof AppError) throw err;
    return null;
  }
  if ((json as { format?: unknown } | null)?.format !== ARCHIVE_FORMAT) return null;
  const r = ArchiveManifestSchema.safeParse(json);
  if (!r.success) throw bad(`manifest.json: ${r.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`);
  return r.data;
}

const isFileEntry = (name: string) => name.startsWith("files/");

async function plan(zip: ZipReader, fileMax: number, config: { IMAGE_MAX_DIMENSION: number }): Promise<Plan> {
  let declared = 0;
  for (const e of zip.entries) {
    const max = isFileEntry(e.fileName) ? fileMax : IMPORT_LIMITS.entryBytes;
    if (e.uncompressedSize > max) throw bad(`${e.fileName} is larger than ${max} bytes`, "too_large");
    declared += e.uncompressedSize;
  }
  if (declared > IMPORT_LIMITS.totalBytes) throw bad(`the archive unpacks to more than ${IMPORT_LIMITS.totalBytes} bytes`, "too_large");
  const byName = new Map(zip.entries.map((e) => [e.fileName, e]));
  const manifest = await readManifest(zip, byName.get("manifest.json"));
  const pages: PlannedPage[] = [];
  const tables: PlannedTable[] = [];
  const skipped: string[] = [];
  const slugs = new Set<string>();
  const uniqueSlug = (s: string) => {
    let slug = s;
    for (let i = 2; slugs.has(slug); i++) slug = `${s.slice(0, 60)}-${i}`;
    slugs.add(slug);
    return slug;
  };
  for (const e of zip.entries) {
    const name = e.fileName;
    if (name.endsWith("/") || name === "manifest.json" || name.startsWith("__MACOSX/") || path.posix.basename(name).startsWith(".")) continue;
    // Read through the manifest below: files, comments and history.
    if (manifest && (isFileEntry(name) || name === COMMENTS_FILE || name.startsWith("history/"))) continue;
    const ext = path.posix.extname(name).toLowerCase();
    const base = path.posix.basename(name, path.posix.extname(name));
    if (ext === ".md" || ext === ".markdown" || ext === ".html" || ext === ".htm") {
      const content = await text(zip, e);
      const isHtml = ext === ".html" || ext === ".htm";
      const { fields, body, error } = isHtml ? { fields: {}, body: content, error: null } : readFrontMatter(content);
      if (error) throw bad(`${name}: ${error}`, "bad_front_matter");
      const given = typeof fields.slug === "string" && SLUG_PATTERN.test(fields.slug) ? fields.slug : null;
      const derived = given ?? slugFrom(base) ?? slugFrom(String(fields.title ?? "")) ?? "page";
      const heading = /^#\s+(.+)$/m.exec(isHtml ? "" : body)?.[1] ?? (isHtml ? /<title>([^<]{1,200})<\/title>/i.exec(body)?.[1] : undefined);
      const title =
        String(fields.title ?? heading ?? base)
          .slice(0, 200)
          .trim() || derived;
      const input = {
        slug: uniqueSlug(derived),
        title,
        summary: typeof fields.summary === "string" ? fields.summary.slice(0, 500) : "",
        ...(isHtml ? { body_html: body } : { body_markdown: body }),
      };
      const r = CreatePageInputSchema.safeParse(input);
      if (!r.success) throw bad(`${name}: ${r.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`, "bad_page");
      pages.push({
        file: name,
        origin: derived,
        slug: input.slug,
        title: r.data.title,
        summary: r.data.summary ?? "",
        body: isHtml ? { body_html: body } : { body_markdown: body },
        history: [],
      });
    } else if (ext === ".csv") {
      const schemaEntry = byName.get(name.replace(/\.csv$/i, ".schema.json"));
      if (!schemaEntry) throw bad(`${name} has no ${base}.schema.json beside it`, "bad_table");
      let schema: z.infer<typeof TableSchema>;
      try {
        schema = TableSchema.parse(JSON.parse(await text(zip, schemaEntry)));
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw bad(`${schemaEntry.fileName} is not a table schema`, "bad_table");
      }
      const records = parseCsv(await text(zip, e));
      if (!records) throw bad(`${name} is not well-formed CSV (a quote is left open)`, "bad_table");
      const [header = [], ...rest] = records;
      const names = schema.columns.map((c) => c.name);
      if (header.join("\u0000") !== names.join("\u0000")) throw bad(`${name}: its header does not match the columns of ${base}.schema.json`, "bad_table");
      const rows = rest
        .filter((r) => !(r.length === 1 && r[0] === ""))
        .map((r, i) => {
          if (r.length !== names.length) throw bad(`${name} line ${i + 2} has ${r.length} fields, not ${names.length}`, "bad_table");
          return Object.fromEntries(schema.columns.map((c, j) => [c.name, cell(c.type, r[j] ?? "")]));
        });
      tables.push({ file: name, slug: schema.slug, name: schema.name, columns: schema.columns, rows });
    } else if (!name.endsWith(".schema.json")) skipped.push(name);
  }
  const files = manifest ? await planFiles(zip, byName, manifest, fileMax, config) : [];
  if (manifest?.history) await planHistory(zip, byName, manifest.history, pages);
  const threads = manifest ? await planComments(zip, byName.get(COMMENTS_FILE), { pages, tables }, text) : [];
  return { pages, tables, files, threads, manifest, skipped };
}

/** Every file the manifest lists: there, within the size cap, its bytes those its name's SHA-256 says, of a type we keep. */
async function planFiles(
  zip: ZipReader,
  byName: Map<string, ZipEntry>,
  manifest: ArchiveManifest,
  fileMax: number,
  config: { IMAGE_MAX_DIMENSION: number },
): Promise<PlannedFile[]> {
  const out: PlannedFile[] = [];
  for (const f of manifest.files ?? []) {
    const e = byName.get(f.file);
    if (!e) throw bad(`${f.file} is listed in manifest.json but missing from the archive`);
    if (f.file !== `files/${f.sha256}.${f.ext}`) throw bad(`${f.file} is not named by its SHA-256 and extension`, "bad_file");
    const data = await bytesOf(zip, e, fileMax);
    const sha = createHash("sha256").update(data).digest("hex");
    if (sha !== f.sha256) throw bad(`${f.file}: its bytes have the SHA-256 ${sha}, not the one in its name`, "bad_file");
    let prepared: PreparedFile;
    try {
      prepared = await checkArchivedFile(config, data, { width: f.width, height: f.height });
    } catch (err) {
      throw bad(`${f.file}: ${err instanceof Error ? err.message : String(err)}`, "bad_file");
    }
    if (prepared.ext !== f.ext) throw bad(`${f.file}: its bytes are ${prepared.type}, not .${f.ext}`, "bad_file");
    out.push({ entry: f, prepared });
  }
  return out;
}

/** Each page's kept versions, in order, checked as an update of the page would be. */
async function planHistory(zip: ZipReader, byName: Map<string, ZipEntry>, history: NonNullable<ArchiveManifest["history"]>, pages: PlannedPage[]) {
  for (const h of history) {
    const page = pages.find((p) => p.origin === h.slug);
    if (!page) throw bad(`manifest.json has history for "${h.slug}", which is not a page of the archive`, "bad_history");
    let last = 0;
    for (const v of h.versions) {
      if (v.version <= last) throw bad(`the history of "${h.slug}" is not in version order`, "bad_history");
      last = v.version;
      if (!v.file.startsWith(`history/${h.slug}/`)) throw bad(`${v.file} is not under history/${h.slug}/`, "bad_history");
      const e = byName.get(v.file);
      if (!e) throw bad(`${v.file} is listed in manifest.json but missing from the archive`, "bad_history");
      const content = await text(zip, e);
      const isHtml = v.file.endsWith(".html");
      const { body, error } = isHtml ? { body: content, error: null } : readFrontMatter(content);
      if (error) throw bad(`${v.file}: ${error}`, "bad_front_matter");
      const r = CreatePageInputSchema.safeParse({
        slug: page.slug,
        title: v.title,
        summary: v.summary,
        ...(isHtml ? { body_html: body } : { body_markdown: body }),
      });
      if (!r.success) throw bad(`${v.file}: ${r.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`, "bad_history");
      page.history.push({ version: v.version, title: v.title, summary: v.summary, body: isHtml ? { body_html: body } : { body_markdown: body } });
    }
  }
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A page body with the addresses of the archive's workspace files (`[base]/files/{ws}/…`)
 * pointing at the same files in this workspace, on this instance. Other addresses stay.
 */
function rewriteFileUrls(body: Body, from: ArchiveManifest["source"], to: { baseUrl: string; workspaceId: string }): Body {
  if (!from || from.workspaceId === "") return body;
  const base = from.baseUrl ? `(${escapeRe(from.baseUrl)})?` : "()?";
  const re = new RegExp(`${base}/files/${escapeRe(from.workspaceId)}/`, "g");
  const fix = (s: string) => s.replace(re, (_m, withBase: string | undefined) => `${withBase ? to.baseUrl : ""}/files/${to.workspaceId}/`);
  return "body_html" in body ? { body_html: fix(body.body_html) } : { body_markdown: fix(body.body_markdown) };
}

export async function importWorkspace(deps: WriteDeps, principal: Principal, input: { workspace: string; archive: Buffer }): Promise<ImportResult> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  assertCan(principal, ws, "manage");
  let zip: ZipReader;
  try {
    zip = await openZipBuffer(input.archive, IMPORT_LIMITS.entries);
  } catch (err) {
    throw bad(`not a zip archive we can read: ${err instanceof Error ? err.message : String(err)}`);
  }
  let planned: Plan;
  try {
    planned = await plan(zip, deps.config.FILE_MAX_BYTES, deps.config);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw bad(`the archive cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    zip.close();
  }
  const done: ImportResult = { pages: [], tables: [], files: [], comments: 0, versions: 0, skipped: planned.skipped };
  /** Files this import stored (not those the workspace had already): undone on failure. */
  const storedFiles: string[] = [];
  const here = { baseUrl: deps.config.BASE_URL, workspaceId: ws._id };
  const source = planned.manifest?.source;
  const rowIds = new Map<string, string[]>();
  const pageIds = new Map<string, { slug: string; versions: Map<number, number> }>();
  try {
    for (const f of planned.files) {
      const had = await deps.database.c.files.findOne({ workspaceId: ws._id, sha256: f.entry.sha256, complete: true }, { projection: { _id: 1 } });
      await storePrepared(deps, ws, principal, f.prepared, f.entry.name);
      if (!had) storedFiles.push(f.entry.sha256);
      done.files.push({ file: f.entry.file, sha256: f.entry.sha256 });
    }
    for (const t of planned.tables) {
      await createCollection(deps, principal, { workspace: ws.slug, slug: t.slug, name: t.name, kind: "table", columns: t.columns });
      done.tables.push({ file: t.file, slug: t.slug, rows: 0 });
      const ids: string[] = [];
      for (let i = 0; i < t.rows.length; i += 100)
        ids.push(...(await insertRows(deps, principal, { workspace: ws.slug, collection: t.slug, rows: t.rows.slice(i, i + 100) })).row_ids);
      rowIds.set(t.slug, ids);
      done.tables[done.tables.length - 1] = { file: t.file, slug: t.slug, rows: t.rows.length };
    }
    for (const p of planned.pages) {
      const versions = new Map<number, number>();
      if (p.history.length > 0) {
        // Its versions in order: the first creates the page, each next one updates it.
        const [first, ...rest] = p.history;
        const slug = await createUnderFreeSlug(deps, principal, ws.slug, { ...p, ...first, body: rewriteFileUrls(first?.body ?? p.body, source, here) });
        done.pages.push({ file: p.file, slug });
        let n = 1;
        versions.set(first?.version ?? 1, n);
        for (const v of rest) {
          const view = await updatePage(deps, principal, { slug, title: v.title, summary: v.summary, ...rewriteFileUrls(v.body, source, here) });
          versions.set(v.version, (n = view.version));
        }
        done.versions += p.history.length;
        pageIds.set(p.origin, { slug, versions });
      } else {
        const slug = await createUnderFreeSlug(deps, principal, ws.slug, { ...p, body: rewriteFileUrls(p.body, source, here) });
        done.pages.push({ file: p.file, slug });
        pageIds.set(p.origin, { slug, versions });
      }
    }
    for (const t of planned.threads) done.comments += await importThread(deps, principal, ws, t, pageIds, rowIds);
  } catch (err) {
    // Undo what this import wrote, newest first (a page or table takes its comments with it), then report the failure.
    for (const p of done.pages.reverse()) await deletePage(deps, principal, p.slug).catch(() => undefined);
    for (const t of done.tables.reverse()) await deleteTable(deps, principal, { workspace: ws.slug, collection: t.slug }).catch(() => undefined);
    for (const sha256 of storedFiles) await deleteFile(deps, principal, { workspace: ws.slug, sha256 }).catch(() => undefined);
    throw err;
  }
  return done;
}

/** Page slugs are unique in the whole instance: a taken one gets -2, -3, … */
async function createUnderFreeSlug(
  deps: WriteDeps,
  principal: Principal,
  workspace: string,
  p: Pick<PlannedPage, "slug" | "title" | "summary" | "body">,
): Promise<string> {
  for (let i = 1; ; i++) {
    const slug = i === 1 ? p.slug : `${p.slug.slice(0, 60)}-${i}`;
    try {
      await createPage(deps, principal, { workspace, slug, title: p.title, summary: p.summary, ...p.body });
      return slug;
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== "conflict" || i >= 50) throw err;
    }
  }
}
