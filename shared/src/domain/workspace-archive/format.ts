// A workspace archive (issue 31, item 3): a zip with `pages/<slug>.md` (front matter: title,
// slug, summary, visibility, version), `pages/<slug>.html` for HTML pages, `tables/<slug>.csv`
// with `tables/<slug>.schema.json`, `files/<sha256>.<ext>`, `comments.json`, with full history
// `history/<slug>/<version>.md|html`, and `manifest.json`. The front matter is the YAML subset
// we write and read: one `key: value` a line, the value a JSON string or number.
import { z } from "zod";
import { invalidField } from "../../errors";
import { SLUG_MAX, SLUG_PATTERN } from "../../schemas/common";

export const ARCHIVE_FORMAT = "atelier-workspace";
/** 2: files, comments and history (version 1 archives have none of them, and still import). */
export const ARCHIVE_FORMAT_VERSION = 2;
export const COMMENTS_FILE = "comments.json";
/** What an import accepts: entries, bytes of one entry, bytes in all (zip bombs stop here). */
export const IMPORT_LIMITS = { entries: 20_000, entryBytes: 2 * 1024 * 1024, totalBytes: 64 * 1024 * 1024 } as const;

/**
 * `invalid_request` naming the archive; `code` (bad_archive, too_large, not_utf8,
 * bad_front_matter, bad_page, bad_table, bad_file, bad_comments, bad_history) says why.
 */
export const archiveError = (message: string, code = "bad_archive") => invalidField("archive", code, message);

export type FrontMatter = Record<string, string | number>;

export function writeFrontMatter(fields: FrontMatter, body: string): string {
  const lines = Object.entries(fields).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return `---\n${lines.join("\n")}\n---\n\n${body}`;
}

/** Front matter and body; `error` names what is wrong with a front matter that is there. */
export function readFrontMatter(text: string): { fields: FrontMatter; body: string; error: string | null } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) return { fields: {}, body: text, error: null };
  const fields: FrontMatter = {};
  for (const raw of (m[1] ?? "").split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const kv = /^([A-Za-z_][A-Za-z0-9_-]{0,40}):\s*(.*)$/.exec(line);
    if (!kv) return { fields, body: text, error: `front matter line "${line.slice(0, 60)}" is not key: value` };
    const [, key = "", value = ""] = kv;
    if (value.startsWith('"')) {
      try {
        const v: unknown = JSON.parse(value);
        if (typeof v !== "string") throw new Error();
        fields[key] = v;
      } catch {
        return { fields, body: text, error: `front matter ${key} is not a well-formed quoted string` };
      }
    } else if (/^-?\d+$/.test(value)) fields[key] = Number(value);
    else fields[key] = value.replace(/^'(.*)'$/, "$1");
  }
  return { fields, body: text.slice(m[0].length).replace(/^\r?\n/, ""), error: null };
}

/** A slug from a file name or title: lower-case ASCII letters, digits and hyphens, or null. */
export function slugFrom(name: string): string | null {
  const s = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/g, "");
  return s === "" ? null : s;
}

/** One CSV field, quoted when it must be (RFC 4180). */
export const csvField = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** RFC 4180 records; null when a quote is left open. */
export function parseCsv(text: string): string[][] | null {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (quoted) return null;
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const iso = z.string().max(40);
const label = z.string().max(320);
const kind = z.enum(["user", "agent"]);

/** A file of the archive as the manifest lists it (what the import checks the bytes against). */
export const ArchiveFileSchema = z
  .object({
    file: z.string().regex(/^files\/[0-9a-f]{64}\.[a-z0-9]{1,10}$/),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    name: z.string().max(200),
    type: z.string().max(100),
    ext: z.string().regex(/^[a-z0-9]{1,10}$/),
    size: z.number().int().min(1),
    width: z.number().int().min(1).nullable(),
    height: z.number().int().min(1).nullable(),
  })
  .strip();
export type ArchiveFile = z.infer<typeof ArchiveFileSchema>;

/** One kept version of a page, with who wrote it and when. */
export const ArchiveVersionSchema = z
  .object({
    version: z.number().int().min(1),
    file: z.string().max(300),
    title: z.string().max(200),
    summary: z.string().max(500),
    author: label,
    author_kind: kind,
    at: iso,
  })
  .strip();
export type ArchiveVersion = z.infer<typeof ArchiveVersionSchema>;

export const ArchiveCommentSchema = z
  .object({ author: label, author_kind: kind, body: z.string().max(10_000), created_at: iso, edited_at: iso.nullable(), deleted: z.boolean() })
  .strip();
export type ArchiveComment = z.infer<typeof ArchiveCommentSchema>;

/** A thread: its first comment with what it is on and its anchor, whether it is resolved, its replies. */
export const ArchiveThreadSchema = ArchiveCommentSchema.extend({
  on: z.union([
    z.object({ page: z.string().regex(SLUG_PATTERN) }).strict(),
    z.object({ table: z.string().regex(SLUG_PATTERN), row: z.number().int().min(0) }).strict(),
  ]),
  anchor: z.union([
    z.object({ kind: z.enum(["page", "row"]) }).strict(),
    z
      .object({
        kind: z.literal("quote"),
        quote: z.string().min(1).max(2_000),
        prefix: z.string().max(200),
        suffix: z.string().max(200),
        start: z.number().int().min(0),
        version: z.number().int().min(1),
      })
      .strict(),
  ]),
  resolved: z.object({ by: label, by_kind: kind, at: iso }).strict().nullable(),
  replies: z.array(ArchiveCommentSchema).max(200),
}).strip();
export type ArchiveThread = z.infer<typeof ArchiveThreadSchema>;

/** What the import reads of a manifest (everything else in it is for people and other tools). */
export const ArchiveManifestSchema = z
  .object({
    format: z.literal(ARCHIVE_FORMAT),
    formatVersion: z.number().int().min(1).max(ARCHIVE_FORMAT_VERSION),
    source: z
      .object({ baseUrl: z.string().max(2_000).optional(), workspaceId: z.string().max(100) })
      .strip()
      .optional(),
    files: z.array(ArchiveFileSchema).max(2_000).optional(),
    history: z
      .array(z.object({ slug: z.string().regex(SLUG_PATTERN), versions: z.array(ArchiveVersionSchema).max(100_000) }).strip())
      .max(2_000)
      .optional(),
  })
  .strip();
export type ArchiveManifest = z.infer<typeof ArchiveManifestSchema>;
