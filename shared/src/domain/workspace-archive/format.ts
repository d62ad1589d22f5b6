// A workspace archive (issue 31, item 3): a zip with `pages/<slug>.md` (front matter: title,
// slug, summary, visibility, version), `pages/<slug>.html` for HTML pages, `tables/<slug>.csv`
// with `tables/<slug>.schema.json`, and `manifest.json`. The front matter is the YAML subset
// we write and read: one `key: value` a line, the value a JSON string or number.
import { SLUG_MAX } from "../../schemas/common";

export const ARCHIVE_FORMAT = "atelier-workspace";
/** What an import accepts: entries, bytes of one entry, bytes in all (zip bombs stop here). */
export const IMPORT_LIMITS = { entries: 2_000, entryBytes: 2 * 1024 * 1024, totalBytes: 64 * 1024 * 1024 } as const;

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
