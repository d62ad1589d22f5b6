// What a client sees of a page's earlier version, and finding one the reader may see.
import type { RevisionDoc } from "../../db/index";
import { AppError } from "../../errors";
import { revisionId } from "../../ids";
import type { RevisionView } from "../../schemas/pages";
import { actorForReader, type Principal, type Reader, readerIn } from "../access";
import { changeSummary } from "../change-summary";
import type { StoreDeps } from "../deps";
import { readablePage } from "./page-store";

const CHANGES: readonly string[] = ["created", "title", "summary", "text", "tables", "restored"];

export function revisionView(r: RevisionDoc, reader: Reader): RevisionView {
  return {
    version: r.version,
    title: r.title,
    summary: r.summary,
    actor: actorForReader(r.actor, reader),
    created_at: r.createdAt.toISOString(),
    restored_from: r.restoredFrom ?? null,
    changes: (r.changes ?? []).filter((c): c is RevisionView["changes"][number] => CHANGES.includes(c)),
    lines_added: r.lines?.added ?? null,
    lines_removed: r.lines?.removed ?? null,
    change_summary: changeSummary({ changes: r.changes ?? [], restoredFrom: r.restoredFrom ?? null, lines: r.lines ?? null }),
  };
}

/** Version `version` of a page, if the principal may read the page and the version is still kept. */
export async function readableRevision(deps: StoreDeps, principal: Principal, slug: string, version: number): Promise<{ rev: RevisionDoc; reader: Reader }> {
  const { page, ws } = await readablePage(deps, principal, { slug });
  const rev = await deps.database.c.revisions.findOne({ _id: revisionId(page._id, version) });
  if (!rev) throw new AppError("not_found", `The page has no version ${version} (or it is no longer kept).`);
  return { rev, reader: readerIn(principal, ws) };
}
