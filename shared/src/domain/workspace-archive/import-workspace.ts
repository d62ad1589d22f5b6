// Import into a workspace (owners): a zip this service exported, or any zip of Markdown (and
// HTML) files, front matter optional. The whole archive is read and checked before the first
// write — entry count and sizes (declared and actual: zip bombs), names (no absolute paths,
// no `..`), UTF-8, front matter, every page and table against the same schemas the tools use
// — and a write that still fails undoes the ones before it: nothing half-imported.
import path from "node:path";
import { z } from "zod";
import { AppError, invalidField } from "../../errors";
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
import { IMPORT_LIMITS, parseCsv, readFrontMatter, slugFrom } from "./format";

export interface ImportResult {
  pages: { file: string; slug: string }[];
  tables: { file: string; slug: string; rows: number }[];
  skipped: string[];
}

/** `invalid_request` naming the archive; `code` (bad_archive, too_large, not_utf8, bad_front_matter, bad_page, bad_table) says why. */
const bad = (message: string, code = "bad_archive") => invalidField("archive", code, message);

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

interface PlannedPage {
  file: string;
  slug: string;
  title: string;
  summary: string;
  body: { body_markdown: string } | { body_html: string };
}
interface PlannedTable {
  file: string;
  slug: string;
  name: string;
  columns: z.infer<typeof TableSchema>["columns"];
  rows: Record<string, string | number | boolean | null>[];
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

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

async function plan(zip: ZipReader): Promise<{ pages: PlannedPage[]; tables: PlannedTable[]; skipped: string[] }> {
  let declared = 0;
  for (const e of zip.entries) {
    if (e.uncompressedSize > IMPORT_LIMITS.entryBytes) throw bad(`${e.fileName} is larger than ${IMPORT_LIMITS.entryBytes} bytes`, "too_large");
    declared += e.uncompressedSize;
  }
  if (declared > IMPORT_LIMITS.totalBytes) throw bad(`the archive unpacks to more than ${IMPORT_LIMITS.totalBytes} bytes`, "too_large");
  const byName = new Map(zip.entries.map((e) => [e.fileName, e]));
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
        slug: input.slug,
        title: r.data.title,
        summary: r.data.summary ?? "",
        body: isHtml ? { body_html: body } : { body_markdown: body },
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
  return { pages, tables, skipped };
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
  let planned: Awaited<ReturnType<typeof plan>>;
  try {
    planned = await plan(zip);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw bad(`the archive cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    zip.close();
  }
  const done: ImportResult = { pages: [], tables: [], skipped: planned.skipped };
  try {
    for (const t of planned.tables) {
      await createCollection(deps, principal, { workspace: ws.slug, slug: t.slug, name: t.name, kind: "table", columns: t.columns });
      done.tables.push({ file: t.file, slug: t.slug, rows: 0 });
      for (let i = 0; i < t.rows.length; i += 100)
        await insertRows(deps, principal, { workspace: ws.slug, collection: t.slug, rows: t.rows.slice(i, i + 100) });
      done.tables[done.tables.length - 1] = { file: t.file, slug: t.slug, rows: t.rows.length };
    }
    for (const p of planned.pages) done.pages.push({ file: p.file, slug: await createUnderFreeSlug(deps, principal, ws.slug, p) });
  } catch (err) {
    // Undo what this import wrote, newest first, then report the failure.
    for (const p of done.pages.reverse()) await deletePage(deps, principal, p.slug).catch(() => undefined);
    for (const t of done.tables.reverse()) await deleteTable(deps, principal, { workspace: ws.slug, collection: t.slug }).catch(() => undefined);
    throw err;
  }
  return done;
}

/** Page slugs are unique in the whole instance: a taken one gets -2, -3, … */
async function createUnderFreeSlug(deps: WriteDeps, principal: Principal, workspace: string, p: PlannedPage): Promise<string> {
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
