// Export a workspace (owners): one zip, streamed, with every page as Markdown (front matter)
// or HTML, every table as CSV and its schema, and a manifest.json (workspace-archive/format.ts).
import type { Readable } from "node:stream";
import type { Principal } from "../access";
import { assertCan } from "../access";
import type { StoreDeps } from "../deps";
import { readableWorkspace } from "../workspaces";
import { ATELIER_VERSION } from "../../version";
import { yazl } from "../../zip";
import { ARCHIVE_FORMAT, writeFrontMatter } from "./format";
import { tableCsv } from "../tables/public-table";

export interface WorkspaceExport {
  /** The zip's bytes, streamed as they are made. */
  stream: Readable;
  filename: string;
}

export async function exportWorkspace(deps: StoreDeps, principal: Principal, input: { workspace: string }): Promise<WorkspaceExport> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  assertCan(principal, ws, "manage");
  const { c } = deps.database;
  const zip = new yazl.ZipFile();
  const pages: { slug: string; file: string; version: number }[] = [];
  const tables: { slug: string; file: string; schema: string; rows: number }[] = [];
  const mtime = new Date();
  const pageDocs = await c.pages.find({ workspaceId: ws._id }).sort({ slug: 1, _id: 1 }).toArray();
  for (const page of pageDocs) {
    if (page.deletingAt) continue;
    const parts = [...page.parts].sort((a, b) => a.position - b.position);
    const html = parts.find((p) => p.kind === "html");
    if (html) {
      const file = `pages/${page.slug}.html`;
      zip.addBuffer(Buffer.from(html.body, "utf8"), file, { mtime });
      pages.push({ slug: page.slug, file, version: page.version });
    } else {
      const body = parts
        .filter((p) => p.kind === "markdown")
        .map((p) => p.body)
        .join("\n\n");
      const file = `pages/${page.slug}.md`;
      const front = { title: page.title, slug: page.slug, summary: page.summary, visibility: ws.visibility, version: page.version };
      zip.addBuffer(Buffer.from(writeFrontMatter(front, body), "utf8"), file, { mtime });
      pages.push({ slug: page.slug, file, version: page.version });
    }
  }
  const tableDocs = await c.collections.find({ workspaceId: ws._id, kind: "table" }).sort({ slug: 1, _id: 1 }).toArray();
  for (const table of tableDocs) {
    const rowDocs = await c.rows.find({ collectionId: table._id }).sort({ _id: 1 }).toArray();
    const rows = rowDocs.length;
    const file = `tables/${table.slug}.csv`;
    const schema = `tables/${table.slug}.schema.json`;
    zip.addBuffer(Buffer.from(tableCsv(table, rowDocs), "utf8"), file, { mtime });
    zip.addBuffer(Buffer.from(`${JSON.stringify({ slug: table.slug, name: table.name, columns: table.columns }, null, 2)}\n`, "utf8"), schema, { mtime });
    tables.push({ slug: table.slug, file, schema, rows });
  }
  const manifest = {
    format: ARCHIVE_FORMAT,
    formatVersion: 1,
    atelierVersion: ATELIER_VERSION,
    workspace: { slug: ws.slug, name: ws.name, visibility: ws.visibility },
    exportedAt: mtime.toISOString(),
    pages,
    tables,
  };
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, "utf8"), "manifest.json", { mtime });
  zip.end();
  return { stream: zip.outputStream as Readable, filename: `${ws.slug}-${mtime.toISOString().slice(0, 10)}.zip` };
}
