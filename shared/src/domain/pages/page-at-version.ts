// A page as it was at one version, for the addresses that serve it (issue 26): the pinned
// `/a/{slug}@{n}` and `/artifacts/{id}@{n}`, and the machine views `/a/{slug}.md` and `.json`
// (of the current version or a pinned one). The version is the page's own while current, else
// its kept revision; an unkept version, like a page the reader may not read, is null.
import type { PageDoc, WorkspaceDoc } from "../../db/index";
import { AppError } from "../../errors";
import { revisionId } from "../../ids";
import type { PageView } from "../../schemas/pages";
import { type Principal } from "../access";
import { isPublicWorkspace, renderDocument } from "../artifacts";
import type { StoreDeps } from "../deps";
import { etagOf } from "../render";
import { readablePage } from "./page-store";
import { viewOf } from "./page-view";
import { textOf } from "./version-diff";

export interface PageAtVersion {
  /** The page with its title, summary, parts, author and time as they were at that version. */
  page: PageDoc;
  ws: WorkspaceDoc;
  /** Whether anyone may read it (public workspace): only then may shared caches keep it. */
  isPublic: boolean;
  /** Whether it is the page's current version. */
  current: boolean;
}

const NOBODY: Principal = { kind: "nobody" };

const isNotFound = (err: unknown) => err instanceof AppError && err.code === "not_found";

/** The page if anyone may read it; else, only then looking the reader up, if the reader may. */
async function readable(deps: StoreDeps, principal: Principal | (() => Promise<Principal>), by: { slug: string } | { pageId: string }) {
  try {
    return await readablePage(deps, NOBODY, by, true);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const who = typeof principal === "function" ? await principal() : principal;
  if (who.kind === "nobody") return null;
  try {
    return await readablePage(deps, who, by);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    return null;
  }
}

/** Version `version` of a page (the current one when undefined), or null when there is none the reader may read. */
export async function pageAtVersion(
  deps: StoreDeps,
  principal: Principal | (() => Promise<Principal>),
  by: { slug: string } | { pageId: string },
  version: number | undefined,
): Promise<PageAtVersion | null> {
  const found = await readable(deps, principal, by);
  if (!found) return null;
  const { page, ws } = found;
  if (version === undefined || version === page.version) return { page, ws, isPublic: isPublicWorkspace(ws), current: true };
  if (version > page.version) return null;
  const rev = await deps.database.c.revisions.findOne({ _id: revisionId(page._id, version) });
  if (!rev) return null;
  return {
    page: { ...page, version, title: rev.title, summary: rev.summary, parts: rev.parts, updatedBy: rev.actor, updatedAt: rev.createdAt },
    ws,
    isPublic: isPublicWorkspace(ws),
    current: false,
  };
}

/** The standalone HTML document of that version and its ETag. */
export async function renderedAtVersion(deps: StoreDeps, at: PageAtVersion): Promise<{ html: string; etag: string }> {
  const html = await renderDocument(deps, at.page);
  return { html, etag: etagOf(html) };
}

/** A YAML scalar that any YAML reader takes back as the same string (JSON strings are YAML). */
const yamlString = (s: string) => JSON.stringify(s);

/**
 * The page's text as Markdown with a small front matter (title, version, updated, author kind,
 * address): what `/a/{slug}.md` and `Accept: text/markdown` answer. An HTML page's body is
 * given as it is.
 */
export function markdownOf(baseUrl: string, at: PageAtVersion): string {
  const { page } = at;
  const front = [
    "---",
    `title: ${yamlString(page.title)}`,
    ...(page.summary ? [`summary: ${yamlString(page.summary)}`] : []),
    `version: ${page.version}`,
    `updated: ${page.updatedAt.toISOString()}`,
    `author: ${page.updatedBy.kind === "agent" ? "agent" : "person"}`,
    `url: ${baseUrl}/a/${page.slug}@${page.version}`,
    "---",
    "",
  ];
  return `${front.join("\n")}${textOf(page.parts)}\n`;
}

/** What `/a/{slug}.json` answers: get_page's structured output as a reader without an account sees it. */
export async function jsonOf(deps: StoreDeps, at: PageAtVersion): Promise<{ page: PageView }> {
  return { page: await viewOf(deps, NOBODY, at.page, at.ws) };
}
