// `/llms.txt` (llmstxt.org): what an instance publishes, for language models to read — the
// public workspaces and their pages, each linked as Markdown (`/a/{slug}.md`); and one per public
// workspace (`/w/{slug}/llms.txt`). Only public workspaces (not hidden, not being deleted)
// ever appear; a private one's llms.txt does not exist (the same 404 as a missing one).
import { isPublicWorkspace } from "./artifacts";
import type { StoreDeps } from "./deps";
import type { WorkspaceDoc } from "../db/index";

/** At most this many workspaces and pages are listed (the rest are reachable through their workspace's file). */
export const LLMS_MAX_WORKSPACES = 100;
export const LLMS_MAX_PAGES = 1000;

/** One line of Markdown link text: no brackets or line breaks that would end it early. */
const linkText = (s: string) => s.replace(/[\r\n]+/g, " ").replace(/([[\]\\])/g, "\\$1");
const note = (s: string) => s.replace(/[\r\n]+/g, " ").trim();

async function pagesOf(deps: StoreDeps, ws: WorkspaceDoc, limit: number): Promise<string[]> {
  const pages = await deps.database.c.pages
    .find({ workspaceId: ws._id }, { projection: { slug: 1, title: 1, summary: 1, deletingAt: 1 } })
    .sort({ slug: 1 })
    .limit(limit)
    .toArray();
  const base = deps.config.BASE_URL;
  return pages.filter((p) => !p.deletingAt).map((p) => `- [${linkText(p.title)}](${base}/a/${p.slug}.md)${p.summary ? `: ${note(p.summary)}` : ""}`);
}

/** A section of the workspace's tables, each linked as CSV (and JSON), or nothing when it has none. */
async function tablesOf(deps: StoreDeps, ws: WorkspaceDoc): Promise<string[]> {
  const tables = await deps.database.c.collections
    .find({ workspaceId: ws._id, kind: "table" }, { projection: { slug: 1, name: 1 } })
    .sort({ slug: 1 })
    .limit(LLMS_MAX_PAGES)
    .toArray();
  if (tables.length === 0) return [];
  const base = `${deps.config.BASE_URL}/w/${ws.slug}/tables`;
  return ["## Tables", "", ...tables.map((t) => `- [${linkText(t.name)}](${base}/${t.slug}.csv): also as JSON at ${base}/${t.slug}.json`), ""];
}

/** The instance's llms.txt. */
export async function instanceLlmsTxt(deps: StoreDeps): Promise<string> {
  const found = await deps.database.c.workspaces
    .find({ visibility: "public" })
    .sort({ slug: 1 })
    .limit(LLMS_MAX_WORKSPACES * 2)
    .toArray();
  const open = found.filter(isPublicWorkspace).slice(0, LLMS_MAX_WORKSPACES);
  const base = deps.config.BASE_URL;
  const out = [
    "# Atelier",
    "",
    "> Public pages and tables kept on this Atelier instance. Each page is linked as Markdown; its HTML is at the same address without `.md`.",
    "",
    `Agents can also read and write through MCP at ${base}/mcp (${base}/auth.md explains how to connect).`,
    "",
  ];
  let left = LLMS_MAX_PAGES;
  for (const ws of open) {
    out.push(`## ${linkText(ws.name)}`, "", `- [All pages of ${linkText(ws.name)}](${base}/w/${ws.slug}/llms.txt)`);
    if (left > 0) {
      const lines = await pagesOf(deps, ws, Math.min(left, 200));
      left -= lines.length;
      out.push(...lines);
    }
    out.push("");
  }
  return out.join("\n");
}

/** A public workspace's llms.txt, or null when there is no public workspace by that slug. */
export async function workspaceLlmsTxt(deps: StoreDeps, slug: string): Promise<string | null> {
  const ws = await deps.database.c.workspaces.findOne({ slug });
  if (!ws || !isPublicWorkspace(ws)) return null;
  return [
    `# ${linkText(ws.name)}`,
    "",
    `> Public pages of the workspace "${note(ws.name)}" on Atelier, each linked as Markdown.`,
    "",
    "## Pages",
    "",
    ...(await pagesOf(deps, ws, LLMS_MAX_PAGES)),
    "",
    ...(await tablesOf(deps, ws)),
  ].join("\n");
}
