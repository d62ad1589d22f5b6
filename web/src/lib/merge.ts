// Three-way merge of a page edit that raced someone else's save: the version the editor
// started from (base), the person's draft (mine) and the newer version (theirs). Changes to
// different fields, or to different lines of the text, combine; the text is merged line by
// line with node-diff3 (the diff3 algorithm, as `git merge-file`: changes to the same or to
// neighbouring lines overlap). Anything that overlaps is left to the person (ConflictPanel).
import { diff3Merge } from "node-diff3";
import type { Draft, Field } from "./draft";

/** The merged text, or null when both sides changed the same (or neighbouring) lines differently. */
export function mergeText(base: string, mine: string, theirs: string): string | null {
  if (mine === theirs || theirs === base) return mine;
  if (mine === base) return theirs;
  const regions = diff3Merge(mine.split("\n"), base.split("\n"), theirs.split("\n"), { excludeFalseConflicts: true });
  const out: string[] = [];
  for (const region of regions) {
    if (region.conflict) return null;
    if (region.ok) out.push(...region.ok);
  }
  return out.join("\n");
}

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
