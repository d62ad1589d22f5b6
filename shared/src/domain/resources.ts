// Pages as MCP resources (artifact://{slug}): the list a caller may read, a page at a time,
// and one page's content — Markdown for Markdown pages, the rendered document otherwise.
import { z } from "zod";
import { AppError } from "../errors";
import { type Principal } from "./access";
import { isPublicWorkspace } from "./artifacts";
import { decodeCursor, encodeCursor } from "./cursors";
import type { Deps, StoreDeps } from "./deps";
import { countAgentRead } from "./analytics/record";
import { readablePage } from "./pages/page-store";
import { workspacesOf } from "./workspaces";

export const RESOURCES_PAGE_SIZE = 100;
const ResourcesCursor = z.object({ s: z.string().min(1).max(64) }).strict();

export interface PageResource {
  uri: string;
  name: string;
  title: string;
  description?: string;
  mimeType: string;
}

/** The pages the principal may read, in slug order, RESOURCES_PAGE_SIZE at a time. */
export async function listPageResources(
  deps: StoreDeps,
  principal: Principal,
  cursor?: string,
): Promise<{ resources: PageResource[]; nextCursor: string | null }> {
  const spaces = await workspacesOf(deps, principal);
  if (spaces.length === 0) return { resources: [], nextCursor: null };
  const filter: Record<string, unknown> = { workspaceId: { $in: spaces.map((w) => w._id) } };
  if (cursor) filter.slug = { $gt: decodeCursor(deps.config.SECRET_KEY, "resources", cursor, ResourcesCursor).s };
  const pages = await deps.database.c.pages
    .find(filter, { projection: { slug: 1, title: 1, summary: 1, parts: 1 } })
    .sort({ slug: 1 })
    .limit(RESOURCES_PAGE_SIZE + 1)
    .toArray();
  const shown = pages.slice(0, RESOURCES_PAGE_SIZE);
  const last = shown[shown.length - 1];
  return {
    resources: shown.map((p) => ({
      uri: `artifact://${p.slug}`,
      name: p.slug,
      title: p.title,
      ...(p.summary ? { description: p.summary } : {}),
      mimeType: p.parts.every((x) => x.kind === "markdown") ? "text/markdown" : "text/html",
    })),
    nextCursor: pages.length > RESOURCES_PAGE_SIZE && last ? encodeCursor(deps.config.SECRET_KEY, "resources", { s: last.slug }) : null,
  };
}

/**
 * One page as a resource. A page the principal may not read is `not_found`, exactly as a
 * missing one; any other failure (the database) is left to surface as what it is.
 */
export async function readPageResource(
  deps: StoreDeps & Pick<Deps, "views">,
  principal: Principal,
  uri: string,
): Promise<{ uri: string; mimeType: string; text: string; isPublic: boolean }> {
  const m = /^artifact:\/\/([a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)$/.exec(uri);
  if (!m?.[1]) throw new AppError("not_found", "Resources are artifact://{slug}.");
  const { page, ws } = await readablePage(deps, principal, { slug: m[1] }, true);
  countAgentRead(deps.views, principal, { workspaceId: ws._id, pageId: page._id });
  const parts = [...page.parts].sort((a, b) => a.position - b.position);
  const isPublic = isPublicWorkspace(ws);
  if (parts.every((p) => p.kind === "markdown")) {
    return { uri, mimeType: "text/markdown", text: `# ${page.title}\n\n${parts.map((p) => p.body).join("\n\n")}`, isPublic };
  }
  const doc = await deps.database.c.artifacts.findOne({ _id: page.slug }, { projection: { html: 1 } });
  return { uri, mimeType: "text/html", text: doc?.html ?? "", isPublic };
}
