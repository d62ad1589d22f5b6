// A page as a versioned document (versioned-write.ts): how a version of it is finished —
// its revision, its rendered document, the oldest revisions beyond REVISIONS_KEPT pruned —
// and the one way every content change of a page is written (`changePage`).
import type { PageDoc, PartDoc, RevisionDoc } from "../../db/index";
import { newId, revisionId } from "../../ids";
import { utf8Bytes } from "../../schemas/cells";
import type { PageView } from "../../schemas/pages";
import { actorOf, assertCan, type Principal } from "../access";
import { noteTableViewers, renderDocument, writeRendition } from "../artifacts";
import { indexPage } from "../search-index";
import { countLines } from "../text-diff";
import { contentBytes, EVENT_BYTES, releaseUsage } from "../limits";
import type { TableViewSpec } from "../table-views";
import { AppError } from "../../errors";
import { insertOnce } from "../../db";
import { versionedWrite, type VersionedKind, type WriteDeps } from "../versioned-write";
import { forgetPage, readablePage } from "./page-store";
import { textOf, withConflictDiff } from "./version-diff";
import { viewOf } from "./page-view";

/** What the writer already has for the finishing steps: the rendered document and the growth it charged for it. */
export interface PageHint {
  html: string;
  renditionCharged: number;
}

export const PAGES: VersionedKind<PageDoc, PageHint> = {
  noun: "page",
  collection: (deps) => deps.database.c.pages,
  steps: [
    {
      name: "revision",
      run: (deps, page) => insertOnce(deps.database.c.revisions, revisionOf(page)),
    },
    {
      name: "rendition",
      async run(deps, page, ws, hint) {
        const change = await writeRendition(deps, page, ws, hint?.html ?? (await renderDocument(deps, page)));
        // The writer charged the document's growth as it saw it before writing; versions finishing
        // at once can see the same older document, so the charge is trued up to what was written.
        if (hint && change !== hint.renditionCharged) await releaseUsage(deps, page.workspaceId, { pages: 0, bytes: hint.renditionCharged - change });
      },
    },
    {
      // The search index (search-index.ts): only the terms whose weight changed are written.
      // After the answer: a new page's hundreds of terms cost seconds on a large index.
      name: "search",
      late: true,
      run: (deps, page) => indexPage(deps, page),
    },
    {
      name: "prune",
      async run(deps, page) {
        const oldest = page.version - deps.config.REVISIONS_KEPT;
        if (oldest < 1) return;
        // Each version drops the one revision that falls out of the window as it is written,
        // addressed by `_id` (one round trip, no scan of the page's revisions); the sweeper
        // finishing a stopped version drops that version's. Two versions finishing at once
        // never drop one revision twice: only the one whose delete found it gives its bytes
        // back, so the counter is never released twice (issue 13).
        const pruned = await deps.database.c.revisions.findOneAndDelete({ _id: revisionId(page._id, oldest) });
        if (pruned && pruned.bytes > 0) await releaseUsage(deps, page.workspaceId, { pages: 0, bytes: pruned.bytes });
      },
    },
  ],
  async event(_deps, page, type) {
    const restoredFrom = page.lastChange.restoredFrom;
    return {
      workspaceId: page.workspaceId,
      type,
      actor: page.updatedBy,
      target: { kind: "page", id: page._id, label: page.title },
      ...(restoredFrom !== null ? { restoredFrom } : {}),
    };
  },
  forget: forgetPage,
};

function revisionOf(page: PageDoc): RevisionDoc {
  return {
    _id: revisionId(page._id, page.version),
    pageId: page._id,
    workspaceId: page.workspaceId,
    version: page.version,
    title: page.title,
    summary: page.summary,
    parts: page.parts,
    bytes: page.bytes,
    restoredFrom: page.lastChange.restoredFrom,
    changes: page.lastChange.changes,
    lines: page.lastChange.lines ?? null,
    actor: page.updatedBy,
    createdAt: page.updatedAt,
  };
}

export function tableParts(specs: TableViewSpec[] | undefined, from: number): PartDoc[] {
  return (specs ?? []).map((spec, i) => ({ id: newId("prt"), kind: "table_view", body: JSON.stringify(spec), position: from + i }));
}

export { textOf };

/** A page's content at its next version. */
export interface PageChange {
  title: string;
  summary: string;
  parts: PartDoc[];
  restoredFrom?: number;
}

/** What a change touched, for the history ("title, text"). */
function changesBetween(before: Pick<PageDoc, "title" | "summary" | "parts">, after: PageChange): string[] {
  const out: string[] = [];
  if (after.restoredFrom !== undefined) out.push("restored");
  if (before.title !== after.title) out.push("title");
  if (before.summary !== after.summary) out.push("summary");
  const joined = (parts: PartDoc[], tables: boolean) =>
    parts
      .filter((p) => (p.kind === "table_view") === tables)
      .map((p) => (tables ? p.body : `${p.kind}:${p.body}`))
      .join("\u0000");
  if (joined(before.parts, false) !== joined(after.parts, false)) out.push("text");
  if (joined(before.parts, true) !== joined(after.parts, true)) out.push("tables");
  return out;
}

/**
 * Applies `change` to the current page as one new version, through the one write protocol
 * (versioned-write.ts): with `expectedVersion`, a page that has moved on (or is being
 * changed right now) is a `version_conflict`, never an overwrite; without it, the change
 * applies to whatever is current, waiting its turn. Only the claim's holder renders.
 */
export async function changePage(
  deps: WriteDeps,
  principal: Principal,
  slug: string,
  expectedVersion: number | undefined,
  eventType: string,
  change: (page: PageDoc) => PageChange,
): Promise<PageView> {
  const written = versionedWrite(deps, PAGES, {
    expectedVersion,
    actor: actorOf(principal),
    async read() {
      const { page, ws } = await readablePage(deps, principal, { slug });
      assertCan(principal, ws, "write", "page");
      return { doc: page, ws };
    },
    async next(page, ws) {
      const next = change(page);
      await noteTableViewers(deps, ws._id, page._id, next.parts, page.parts);
      const html = await renderDocument(deps, { slug: page.slug, title: next.title, summary: next.summary, parts: next.parts, workspaceId: ws._id });
      const bytes = contentBytes(next);
      // The stored document weighs what the previous version's writer rendered (read only for a
      // page written before that was kept); should it differ (tables re-rendered meanwhile), the
      // rendition step trues the charge up to what it replaced.
      const storedBytes = page.renditionBytes ?? (await deps.database.c.artifacts.findOne({ _id: page.slug }, { projection: { bytes: 1 } }))?.bytes ?? 0;
      const renditionBytes = utf8Bytes(html);
      const renditionCharged = renditionBytes - storedBytes;
      return {
        set: {
          title: next.title,
          summary: next.summary,
          parts: next.parts,
          bytes,
          renditionBytes,
          lastChange: {
            changes: changesBetween(page, next),
            restoredFrom: next.restoredFrom ?? null,
            lines: countLines(textOf(page.parts), textOf(next.parts)),
          },
        },
        // The page's new content, its new revision, its document's growth and the event.
        delta: { pages: 0, bytes: bytes - page.bytes + bytes + renditionCharged + EVENT_BYTES },
        event: eventType,
        hint: { html, renditionCharged },
      };
    },
  });
  const { doc, ws } = await written.catch(async (err: unknown) => {
    // A stale base: the conflict carries the diff from that base to the current version.
    if (!(err instanceof AppError) || err.code !== "version_conflict" || expectedVersion === undefined) throw err;
    const current = await readablePage(deps, principal, { slug }).catch(() => null);
    throw current ? await withConflictDiff(deps, err, current.page, expectedVersion) : err;
  });
  return viewOf(deps, principal, doc, ws);
}
