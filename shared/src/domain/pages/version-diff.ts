// The diff between two versions of a page, as agents read it (diff_page_versions, edit_page's
// answer, and the details of a version conflict): a unified diff of the page's text made by
// the one diff algorithm (text-diff.ts), which the app's history view shows line by line.
import type { PartDoc } from "../../db/index";
import { AppError } from "../../errors";
import { revisionId } from "../../ids";
import type { StoreDeps } from "../deps";
import { countLines, unifiedDiff } from "../text-diff";

/** Beyond this many characters a diff is not returned whole (an agent reads the page instead). */
export const MAX_RETURNED_DIFF = 16_000;

/** A page's text (its Markdown and HTML parts, in order), for counting changed lines and diffs. */
export function textOf(parts: PartDoc[]): string {
  return [...parts]
    .sort((a, b) => a.position - b.position)
    .filter((p) => p.kind !== "table_view")
    .map((p) => p.body)
    .join("\n");
}

export interface VersionText {
  version: number;
  parts: PartDoc[];
}

/** The unified diff between two texts labelled as versions of a page ("" when equal, null when not compared). */
export function diffOfTexts(slug: string, from: number, to: number, before: string, after: string): string | null {
  if (before === after) return "";
  return unifiedDiff(before, after, { from: `${slug}@${from}`, to: `${slug}@${to}` });
}

/** A diff as returned to a caller: whole, or null and marked truncated when too long. */
export function shortDiff(diff: string | null): { diff: string | null; diff_truncated: boolean } {
  if (diff !== null && diff.length > MAX_RETURNED_DIFF) return { diff: null, diff_truncated: true };
  return { diff, diff_truncated: false };
}

/** The diff of a page's text between two versions with their line counts. */
export function versionsDiff(slug: string, from: VersionText, to: VersionText) {
  const before = textOf(from.parts);
  const after = textOf(to.parts);
  const counts = countLines(before, after);
  return { diff: diffOfTexts(slug, from.version, to.version, before, after), lines_added: counts?.added ?? null, lines_removed: counts?.removed ?? null };
}

/**
 * A version conflict on a page, its details completed with the diff from the version the
 * caller based its change on to the current one (null when that version is no longer kept),
 * so that an agent can reapply its change without reading the whole page again.
 */
export async function withConflictDiff(
  deps: StoreDeps,
  err: AppError,
  page: { _id: string; slug: string; version: number; parts: PartDoc[] },
  base: number,
): Promise<AppError> {
  if (err.code !== "version_conflict" || err.details?.current_version !== page.version || base === page.version) return err;
  const rev = base < page.version ? await deps.database.c.revisions.findOne({ _id: revisionId(page._id, base) }) : null;
  const diff = rev ? shortDiff(versionsDiff(page.slug, { version: base, parts: rev.parts }, page).diff) : { diff: null, diff_truncated: false };
  return new AppError("version_conflict", err.message, { details: { ...err.details, base_version: base, ...diff }, cause: err });
}
