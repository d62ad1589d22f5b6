// Export a workspace (owners): one zip, streamed, with every page as Markdown (front matter)
// or HTML, every table as CSV and its schema, every file as `files/<sha256>.<ext>`, the
// comment threads in `comments.json`, optionally every kept version of each page in
// `history/<slug>/<version>.md|html`, and a manifest.json (workspace-archive/format.ts).
import { Readable } from "node:stream";
import type { Actor, CommentDoc, PageDoc, PartDoc, RevisionDoc } from "../../db/index";
import type { Principal } from "../access";
import { assertCan } from "../access";
import type { StoreDeps } from "../deps";
import { readableWorkspace } from "../workspaces";
import { ATELIER_VERSION } from "../../version";
import { yazl } from "../../zip";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  COMMENTS_FILE,
  type ArchiveComment,
  type ArchiveFile,
  type ArchiveThread,
  type ArchiveVersion,
  writeFrontMatter,
} from "./format";
import { tableCsv } from "../tables/public-table";

export interface WorkspaceExport {
  /** The zip's bytes, streamed as they are made. */
  stream: Readable;
  filename: string;
}

/** A page's (or revision's) content as one file: its HTML part, or its Markdown parts joined. */
export function pageFile(parts: PartDoc[]): { html: boolean; body: string } {
  const sorted = [...parts].sort((a, b) => a.position - b.position);
  const html = sorted.find((p) => p.kind === "html");
  if (html) return { html: true, body: html.body };
  return {
    html: false,
    body: sorted
      .filter((p) => p.kind === "markdown")
      .map((p) => p.body)
      .join("\n\n"),
  };
}

const who = (a: Actor) => ({ author: a.label, author_kind: a.kind });

function commentOf(c: CommentDoc): ArchiveComment {
  return {
    ...who(c.author),
    body: c.body,
    created_at: c.createdAt.toISOString(),
    edited_at: c.editedAt ? c.editedAt.toISOString() : null,
    deleted: c.deletedAt !== null,
  };
}

export async function exportWorkspace(deps: StoreDeps, principal: Principal, input: { workspace: string; history?: boolean }): Promise<WorkspaceExport> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  assertCan(principal, ws, "manage");
  const { c } = deps.database;
  const zip = new yazl.ZipFile();
  const pages: { slug: string; file: string; version: number }[] = [];
  const tables: { slug: string; file: string; schema: string; rows: number }[] = [];
  const history: { slug: string; versions: ArchiveVersion[] }[] = [];
  const mtime = new Date();
  const pageDocs = (await c.pages.find({ workspaceId: ws._id }).sort({ slug: 1, _id: 1 }).toArray()).filter((p) => !p.deletingAt);
  const slugOfPage = new Map<string, string>();
  for (const page of pageDocs) {
    slugOfPage.set(page._id, page.slug);
    const { html, body } = pageFile(page.parts);
    if (html) {
      const file = `pages/${page.slug}.html`;
      zip.addBuffer(Buffer.from(body, "utf8"), file, { mtime });
      pages.push({ slug: page.slug, file, version: page.version });
    } else {
      const file = `pages/${page.slug}.md`;
      const front = { title: page.title, slug: page.slug, summary: page.summary, visibility: ws.visibility, version: page.version };
      zip.addBuffer(Buffer.from(writeFrontMatter(front, body), "utf8"), file, { mtime });
      pages.push({ slug: page.slug, file, version: page.version });
    }
    if (input.history) history.push({ slug: page.slug, versions: await exportHistory(deps, zip, page, mtime) });
  }
  const tableDocs = await c.collections.find({ workspaceId: ws._id, kind: "table" }).sort({ slug: 1, _id: 1 }).toArray();
  /** A row's table and its line in the table's CSV (0: the first row), for comments on rows. */
  const rowPlace = new Map<string, { table: string; row: number }>();
  for (const table of tableDocs) {
    const rowDocs = await c.rows.find({ collectionId: table._id }).sort({ _id: 1 }).toArray();
    rowDocs.forEach((r, i) => rowPlace.set(r._id, { table: table.slug, row: i }));
    const rows = rowDocs.length;
    const file = `tables/${table.slug}.csv`;
    const schema = `tables/${table.slug}.schema.json`;
    zip.addBuffer(Buffer.from(tableCsv(table, rowDocs), "utf8"), file, { mtime });
    zip.addBuffer(Buffer.from(`${JSON.stringify({ slug: table.slug, name: table.name, columns: table.columns }, null, 2)}\n`, "utf8"), schema, { mtime });
    tables.push({ slug: table.slug, file, schema, rows });
  }
  const files: ArchiveFile[] = [];
  for await (const f of c.files.find({ workspaceId: ws._id, complete: true }).sort({ _id: 1 })) {
    const file = `files/${f.sha256}.${f.ext}`;
    const fileChunks = c.fileChunks;
    // Streamed one chunk at a time, read when the zip gets to it.
    const chunks = Readable.from(
      (async function* () {
        for (let n = 0; n < f.chunks; n++) {
          const chunk = await fileChunks.findOne({ _id: `${f._id}:${n}` });
          if (!chunk) throw new Error(`chunk ${n} of ${f._id} is missing`);
          yield Buffer.from(chunk.data.buffer);
        }
      })(),
    );
    zip.addReadStream(chunks, file, { mtime, size: f.size });
    files.push({ file, sha256: f.sha256, name: f.name, type: f.type, ext: f.ext, size: f.size, width: f.width, height: f.height });
  }
  const threads = await exportComments(deps, ws._id, slugOfPage, rowPlace);
  zip.addBuffer(Buffer.from(`${JSON.stringify(threads, null, 2)}\n`, "utf8"), COMMENTS_FILE, { mtime });
  const manifest = {
    format: ARCHIVE_FORMAT,
    formatVersion: ARCHIVE_FORMAT_VERSION,
    atelierVersion: ATELIER_VERSION,
    workspace: { slug: ws.slug, name: ws.name, visibility: ws.visibility },
    // Where the pages' file addresses point (an import rewrites them to its own workspace).
    source: { baseUrl: deps.config.BASE_URL, workspaceId: ws._id },
    exportedAt: mtime.toISOString(),
    pages,
    tables,
    files,
    comments: { file: COMMENTS_FILE, threads: threads.length },
    ...(input.history ? { history } : {}),
  };
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, "utf8"), "manifest.json", { mtime });
  zip.end();
  return { stream: zip.outputStream as Readable, filename: `${ws.slug}-${mtime.toISOString().slice(0, 10)}${input.history ? "-history" : ""}.zip` };
}

/** Every kept version of a page, oldest first, each as its own file with who wrote it and when. */
async function exportHistory(deps: StoreDeps, zip: InstanceType<typeof yazl.ZipFile>, page: PageDoc, mtime: Date): Promise<ArchiveVersion[]> {
  const out: ArchiveVersion[] = [];
  const revisions = deps.database.c.revisions.find({ pageId: page._id }).sort({ version: 1 });
  for await (const r of revisions as AsyncIterable<RevisionDoc>) {
    const { html, body } = pageFile(r.parts);
    const meta = { version: r.version, title: r.title, summary: r.summary, ...who(r.actor), at: r.createdAt.toISOString() };
    const file = `history/${page.slug}/${r.version}.${html ? "html" : "md"}`;
    zip.addBuffer(Buffer.from(html ? body : writeFrontMatter(meta, body), "utf8"), file, { mtime });
    out.push({ ...meta, file });
  }
  return out;
}

/** The workspace's comment threads on the exported pages and rows, replies in order. */
async function exportComments(
  deps: StoreDeps,
  workspaceId: string,
  slugOfPage: Map<string, string>,
  rowPlace: Map<string, { table: string; row: number }>,
): Promise<ArchiveThread[]> {
  const docs = await deps.database.c.comments.find({ workspaceId }).sort({ createdAt: 1, _id: 1 }).toArray();
  const replies = new Map<string, CommentDoc[]>();
  for (const d of docs) if (d.threadId !== d._id) replies.set(d.threadId, [...(replies.get(d.threadId) ?? []), d]);
  const threads: ArchiveThread[] = [];
  for (const d of docs) {
    if (d.threadId !== d._id) continue;
    const page = d.pageId ? slugOfPage.get(d.pageId) : undefined;
    const row = d.rowId ? rowPlace.get(d.rowId) : undefined;
    if (!page && !row) continue;
    const a = d.anchor;
    threads.push({
      on: page ? { page } : { table: row?.table ?? "", row: row?.row ?? 0 },
      anchor:
        a.kind === "quote"
          ? { kind: "quote", quote: a.quote, prefix: a.prefix, suffix: a.suffix, start: a.start, version: a.version }
          : { kind: a.kind === "row" ? "row" : "page" },
      ...commentOf(d),
      resolved: d.resolved ? { by: d.resolved.by.label, by_kind: d.resolved.by.kind, at: d.resolved.at.toISOString() } : null,
      replies: (replies.get(d._id) ?? []).map(commentOf),
    });
  }
  return threads;
}
