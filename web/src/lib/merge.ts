// Three-way merge of a page edit that raced someone else's save: the version the editor
// started from (base), the person's draft (mine) and the newer version (theirs). Changes to
// different fields, or to different lines of the text, combine; the text is merged line by
// line by the one line diff (shared text-diff.ts, diff3 as `git merge-file`: changes to the
// same or to neighbouring lines overlap). Anything that overlaps is left to the person (ConflictPanel).
import { mergeText } from "@atelier/shared/domain/text-diff";
import type { Draft, Field } from "./draft";

/** A field both sides may have changed: equal changes agree; different ones overlap. */
function mergeValue(base: string, mine: string, theirs: string): string | null {
  if (mine === theirs || theirs === base) return mine;
  if (mine === base) return theirs;
  return null;
}

/**
 * The draft with both sides' changes, or null when they overlap. Title, summary and the
 * page's tables are merged as whole values, the text line by line.
 */
export function mergeDrafts(base: Draft, mine: Draft, theirs: Draft): Draft | null {
  const merged: Partial<Record<Field, string>> = {};
  for (const field of ["title", "summary", "tables"] as const) {
    const value = mergeValue(base[field], mine[field], theirs[field]);
    if (value === null) return null;
    merged[field] = value;
  }
  const body = mergeText(base.body, mine.body, theirs.body);
  if (body === null) return null;
  return { title: merged.title ?? mine.title, summary: merged.summary ?? mine.summary, tables: merged.tables ?? mine.tables, body };
}
