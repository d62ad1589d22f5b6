// The one line diff of Atelier, browser-safe (the app imports it too): history line counts,
// the app's side-by-side views (history, conflict), three-way merges of conflicting edits,
// and unified patches for agents all come from jsdiff's Myers diff, so a count, a view and
// a merge never disagree. jsdiff was chosen over node-diff3 because it also writes unified
// patches that `applyPatch` turns back into the target text exactly (what agents need, see
// docs/decisions.md "One write protocol (issue 24)"); the diff3 merge is built here on two of
// its diffs (base → mine, base → theirs), as `git merge-file` does.
import { applyPatch, diffArrays, FILE_HEADERS_ONLY, formatPatch, type StructuredPatchHunk } from "diff";

/** Beyond this many lines on either side, texts are not compared (a view shows them unmarked). */
export const MAX_DIFF_LINES = 20_000;
/**
 * Beyond this many changed lines among the lines both texts have, the diff is given up (its
 * cost grows with them): "too different to compare". Lines only one side has never count
 * here, so rewriting a page whole stays cheap.
 */
const MAX_EDIT_LENGTH = 1_000;

/** The lines of a text ("" has none). */
export function linesOf(text: string): string[] {
  return text === "" ? [] : text.split("\n");
}

/** A change between two line lists: lines `from` to `to` (excluded) of the old one replaced by `lines`. */
interface Hunk {
  from: number;
  to: number;
  lines: string[];
}

/**
 * The hunks turning `a` into `b` (a shortest edit, by jsdiff's Myers diff), or null when they
 * are too long or too different to compare. Lines that only one side has cannot be common, so
 * they are set aside before the diff runs and counted as changed (as GNU diff does): the diff
 * then works on the lines both have, which keeps a whole rewrite as cheap as a small edit.
 */
function hunks(a: string[], b: string[]): Hunk[] | null {
  if (a.length > MAX_DIFF_LINES || b.length > MAX_DIFF_LINES) return null;
  const inA = new Set(a);
  const inB = new Set(b);
  const keptA = a.flatMap((line, i) => (inB.has(line) ? [i] : []));
  const keptB = b.flatMap((line, j) => (inA.has(line) ? [j] : []));
  const changes = diffArrays(
    keptA.map((i) => a[i]),
    keptB.map((j) => b[j]),
    { maxEditLength: MAX_EDIT_LENGTH },
  );
  if (!changes) return null;
  // The common lines, as pairs of positions in a and b, then a sentinel past both ends.
  const pairs: [number, number][] = [];
  let x = 0;
  let y = 0;
  for (const c of changes) {
    if (!c.added && !c.removed) for (let k = 0; k < c.count; k++) pairs.push([keptA[x + k] ?? 0, keptB[y + k] ?? 0]);
    if (!c.added) x += c.count;
    if (!c.removed) y += c.count;
  }
  pairs.push([a.length, b.length]);
  const out: Hunk[] = [];
  let i = 0;
  let j = 0;
  for (const [pi, pj] of pairs) {
    if (pi > i || pj > j) out.push({ from: i, to: pi, lines: b.slice(j, pj) });
    i = pi + 1;
    j = pj + 1;
  }
  return out;
}

export interface LineCounts {
  added: number;
  removed: number;
}

/** Lines added and removed between two texts, or null when they cannot be compared. */
export function countLines(before: string, after: string): LineCounts | null {
  if (before === after) return { added: 0, removed: 0 };
  const found = hunks(linesOf(before), linesOf(after));
  if (!found) return null;
  return found.reduce((n, h) => ({ added: n.added + h.lines.length, removed: n.removed + h.to - h.from }), { added: 0, removed: 0 });
}

export interface DiffLine {
  text: string;
  /** True when this line is not in the other text at this place. */
  changed: boolean;
}

/** Both texts line by line, each line marked when the other text lacks it there (unmarked when not compared). */
export function diffLines(mine: string, theirs: string): { mine: DiffLine[]; theirs: DiffLine[]; compared: boolean } {
  const a = mine.split("\n");
  const b = theirs.split("\n");
  const found = hunks(a, b);
  const changedA = new Set<number>();
  const changedB = new Set<number>();
  let shift = 0;
  for (const h of found ?? []) {
    for (let i = h.from; i < h.to; i++) changedA.add(i);
    for (let j = 0; j < h.lines.length; j++) changedB.add(h.from + shift + j);
    shift += h.lines.length - (h.to - h.from);
  }
  return {
    mine: a.map((text, i) => ({ text, changed: changedA.has(i) })),
    theirs: b.map((text, j) => ({ text, changed: changedB.has(j) })),
    compared: found !== null,
  };
}

/** How many lines of one side differ. */
export function changedCount(lines: DiffLine[]): number {
  return lines.reduce((count, line) => count + (line.changed ? 1 : 0), 0);
}

/** `base` with `side`'s hunks between base lines `from` and `to` applied. */
function applyWithin(base: string[], side: Hunk[], from: number, to: number): string[] {
  const out: string[] = [];
  let at = from;
  for (const h of side) {
    out.push(...base.slice(at, h.from), ...h.lines);
    at = h.to;
  }
  out.push(...base.slice(at, to));
  return out;
}

/**
 * Three-way merge of a text (diff3, as `git merge-file`): changes of `mine` and `theirs` to
 * different lines of `base` combine; changes to the same or to neighbouring lines overlap,
 * and unless both made the same change the result is null (left to the person).
 */
export function mergeText(base: string, mine: string, theirs: string): string | null {
  if (mine === theirs || theirs === base) return mine;
  if (mine === base) return theirs;
  const o = base.split("\n");
  const a = hunks(o, mine.split("\n"));
  const b = hunks(o, theirs.split("\n"));
  if (!a || !b) return null;
  const all = [...a.map((h) => ({ h, side: 0 })), ...b.map((h) => ({ h, side: 1 }))].sort((x, y) => x.h.from - y.h.from || x.h.to - y.h.to);
  const out: string[] = [];
  let at = 0;
  for (let k = 0; k < all.length;) {
    const first = all[k];
    if (!first) break;
    // A region: every hunk that overlaps or touches the ones before it, from either side.
    const from = first.h.from;
    let to = first.h.to;
    const sides: Hunk[][] = [[], []];
    while (k < all.length) {
      const next = all[k];
      if (!next || (next.h.from > to && sides.some((s) => s.length > 0))) break;
      sides[next.side]?.push(next.h);
      to = Math.max(to, next.h.to);
      k++;
    }
    out.push(...o.slice(at, from));
    const [ours = [], others = []] = sides;
    const mineHere = applyWithin(o, ours, from, to);
    if (others.length > 0) {
      const theirsHere = applyWithin(o, others, from, to);
      if (ours.length > 0 && mineHere.join("\n") !== theirsHere.join("\n")) return null;
      out.push(...theirsHere);
    } else out.push(...mineHere);
    at = to;
  }
  out.push(...o.slice(at));
  return out.join("\n");
}

/** A text's lines, each with its line break (the last one may have none), as unified diffs count them. */
function terminatedLines(text: string): string[] {
  const parts = text.split("\n");
  const out = parts.map((line, k) => (k < parts.length - 1 ? `${line}\n` : line));
  if (out[out.length - 1] === "") out.pop();
  return out;
}

const NO_NEWLINE = "\\ No newline at end of file";

/**
 * A unified diff (`---`/`+++` headers, `@@` hunks with `context` lines around each change)
 * from `before` to `after`, made from the same diff as every count and view, which any
 * unified-diff reader (`applyUnifiedDiff`, `patch`, `git apply`) turns back into `after`
 * exactly; null when the texts are too long or too different to compare.
 */
export function unifiedDiff(before: string, after: string, labels: { from: string; to: string }, context = 3): string | null {
  const a = terminatedLines(before);
  const b = terminatedLines(after);
  const found = hunks(a, b);
  if (!found) return null;
  const line = (sign: string, token: string) => (token.endsWith("\n") ? [sign + token.slice(0, -1)] : [sign + token, NO_NEWLINE]);
  const out: StructuredPatchHunk[] = [];
  let shift = 0;
  for (let k = 0; k < found.length;) {
    // Changes closer than twice the context share one @@ hunk.
    let last = k;
    while (last + 1 < found.length && (found[last + 1]?.from ?? 0) - (found[last]?.to ?? 0) <= 2 * context) last++;
    const first = found[k] as Hunk;
    const start = Math.max(0, first.from - context);
    const end = Math.min(a.length, (found[last] as Hunk).to + context);
    const lines: string[] = [];
    let at = start;
    let newLines = 0;
    const startShift = shift;
    for (let h = k; h <= last; h++) {
      const hunk = found[h] as Hunk;
      for (; at < hunk.from; at++) lines.push(...line(" ", a[at] ?? ""));
      for (; at < hunk.to; at++) lines.push(...line("-", a[at] ?? ""));
      for (const added of hunk.lines) lines.push(...line("+", added));
      newLines += hunk.lines.length;
      shift += hunk.lines.length - (hunk.to - hunk.from);
    }
    for (; at < end; at++) lines.push(...line(" ", a[at] ?? ""));
    const oldLines = end - start;
    newLines += oldLines - found.slice(k, last + 1).reduce((n, h) => n + h.to - h.from, 0);
    out.push({
      oldStart: oldLines === 0 ? start : start + 1,
      oldLines,
      newStart: newLines === 0 ? start + startShift : start + startShift + 1,
      newLines,
      lines,
    });
    k = last + 1;
  }
  return formatPatch({ oldFileName: labels.from, newFileName: labels.to, oldHeader: undefined, newHeader: undefined, hunks: out }, FILE_HEADERS_ONLY);
}
/** `text` with a unified diff applied, or null when the diff does not fit it. */
export function applyUnifiedDiff(text: string, patch: string): string | null {
  const out = applyPatch(text, patch);
  return out === false ? null : out;
}
