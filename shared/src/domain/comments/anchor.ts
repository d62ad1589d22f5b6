// Where a comment on a passage stands after the page changed (docs/comments.md#re-anchoring):
// a pure function of the text the comment was made on, its anchor (the exact quote, some
// context either side, where it started, the version) and the text now. It re-attaches to
// the same passage, exact or slightly reworded, where it is now (moved, or with text added
// around it), or says "on an earlier version" — never attaches to another passage, even a
// word-for-word twin elsewhere on the page.
//
// How: a word-level diff (jsdiff's Myers, the one diff of text-diff.ts) maps the quote's
// words from the old text to the new. All kept and still together: the same passage,
// exactly. Most of its words kept: the same passage, reworded; the span is widened over
// words put in place of the quote's first or last ones. Few kept: the passage left its place
// (moved) or went away; only text the diff says is new is then searched (an exact match,
// then a window with most of the quote's words), and only a single clear winner is taken —
// text the diff says stayed put is another passage, however alike. Browser-safe.
// Longer than 300 lines on purpose: the mapping, the search for moved passages and the
// tie-breaking rules that keep a comment off a twin are one judgement.

/** `xs[i]`, which must be there (an index computed in bounds). */
function at<T>(xs: ArrayLike<T> | Readonly<Record<string, T>>, i: number | string): T {
  const v = (xs as Record<string, T>)[i];
  if (v === undefined) throw new Error(`re-anchoring: no element ${String(i)}`);
  return v;
}
import { diffArrays } from "diff";

/** A comment's anchor in the text of the version it was made on. */
export interface QuoteAnchor {
  quote: string;
  /** Up to CONTEXT_CHARS before and after the quote in that text. */
  prefix: string;
  suffix: string;
  /** Where the quote started in that text (UTF-16 offset). */
  start: number;
  /** The page version it was made on. */
  version: number;
}

export type Attachment = { state: "attached"; start: number; end: number; exact: boolean } | { state: "earlier_version" };

export const CONTEXT_CHARS = 32;
/** Share of the quote's letters that must still be there for a reworded passage to be the same. */
const KEPT_MIN = 0.6;
/** Share of the quote's words a moved and reworded passage must still have. */
const MOVED_MIN = 0.75;
/** Diffs longer than this many token edits are given up (the text was rewritten: search instead). */
const MAX_EDIT_TOKENS = 20_000;

interface Token {
  text: string;
  start: number;
}

const TOKEN = /[\p{L}\p{N}_'’]+|\s+|[^\p{L}\p{N}_'’\s]/gu;

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) out.push({ text: m[0], start: m.index });
  return out;
}

const isSpace = (s: string) => /^\s+$/.test(s);
/** What a token weighs in shares: its letters, not its spaces. */
const weight = (t: Token) => (isSpace(t.text) ? 0 : t.text.length);

/** The anchor of `text[start, end)` made on `version`. */
export function makeAnchor(text: string, start: number, end: number, version: number): QuoteAnchor {
  return {
    quote: text.slice(start, end),
    prefix: text.slice(Math.max(0, start - CONTEXT_CHARS), start),
    suffix: text.slice(end, end + CONTEXT_CHARS),
    start,
    version,
  };
}

function commonSuffix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/** How well the text around `[start, end)` matches the anchor's context (chars in common). */
function contextScore(text: string, start: number, end: number, prefix: string, suffix: string): number {
  return commonSuffix(prefix, text.slice(Math.max(0, start - prefix.length), start)) + commonPrefix(suffix, text.slice(end, end + suffix.length));
}

function occurrences(text: string, quote: string): number[] {
  const out: number[] = [];
  if (quote === "") return out;
  for (let i = text.indexOf(quote); i !== -1; i = text.indexOf(quote, i + 1)) out.push(i);
  return out;
}

/**
 * Where `quote` is in `text`: its one occurrence, or the one whose surroundings match
 * `prefix`/`suffix` best (a tie is no answer: the quote is ambiguous). Null when absent or
 * ambiguous.
 */
export function findQuote(text: string, quote: string, prefix = "", suffix = ""): { start: number; end: number } | null {
  const found = occurrences(text, quote);
  if (found.length === 0) return null;
  if (found.length === 1) return { start: at(found, 0), end: at(found, 0) + quote.length };
  const scored = found.map((s) => ({ s, score: contextScore(text, s, s + quote.length, prefix, suffix) })).sort((a, b) => b.score - a.score);
  if (at(scored, 0).score === at(scored, 1).score) return null;
  return { start: at(scored, 0).s, end: at(scored, 0).s + quote.length };
}

/** The token index holding char offset `p` (the last token for p at the end). */
function tokenAt(tokens: Token[], p: number): number {
  let lo = 0;
  let hi = tokens.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (at(tokens, mid).start <= p) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** For each old token, the new token it was kept as (-1: removed); for each new token, whether it was kept. */
function mapTokens(a: Token[], b: Token[]): { oldToNew: Int32Array; kept: Uint8Array } | null {
  const changes = diffArrays(
    a.map((t) => t.text),
    b.map((t) => t.text),
    { maxEditLength: MAX_EDIT_TOKENS },
  );
  if (!changes) return null;
  const oldToNew = new Int32Array(a.length).fill(-1);
  const kept = new Uint8Array(b.length);
  let i = 0;
  let j = 0;
  for (const c of changes) {
    const n = c.count ?? c.value.length;
    if (c.added) j += n;
    else if (c.removed) i += n;
    else {
      for (let k = 0; k < n; k++) {
        oldToNew[i + k] = j + k;
        kept[j + k] = 1;
      }
      i += n;
      j += n;
    }
  }
  return { oldToNew, kept };
}

/** Trims spaces off a span's ends. */
function trimSpan(text: string, start: number, end: number): { start: number; end: number } {
  while (start < end && /\s/.test(at(text, start))) start++;
  while (end > start && /\s/.test(at(text, end - 1))) end--;
  return { start, end };
}

/** The multiset of a text's words (lower-cased), for likeness. */
function bag(tokens: Token[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tokens) if (!isSpace(t.text)) m.set(t.text.toLowerCase(), (m.get(t.text.toLowerCase()) ?? 0) + 1);
  return m;
}

/** Share of `quote`'s words (by letters) that `span` has too. */
function likeness(quote: string, span: string): number {
  const q = tokenize(quote).filter((t) => !isSpace(t.text));
  const have = bag(tokenize(span));
  let total = 0;
  let shared = 0;
  for (const t of q) {
    total += t.text.length;
    const k = t.text.toLowerCase();
    const n = have.get(k) ?? 0;
    if (n > 0) {
      shared += t.text.length;
      have.set(k, n - 1);
    }
  }
  return total === 0 ? 0 : shared / total;
}

/** Whether a reworded span still reads as the quote: most of its words, and not much longer or shorter. */
function stillTheQuote(quote: string, span: string, min: number): boolean {
  const ratio = span.length / Math.max(1, quote.length);
  return ratio >= 0.5 && ratio <= 2 && likeness(quote, span) >= min && likeness(span, quote) >= min * 0.8;
}

/**
 * Where the anchored passage (at `[s, e)` in `oldText`) is in `newText`, using the diff:
 * exact when every token of it was kept in one piece, reworded when most were.
 */
function followByDiff(
  newText: string,
  a: Token[],
  b: Token[],
  map: { oldToNew: Int32Array; kept: Uint8Array },
  s: number,
  e: number,
  quote: string,
): Attachment | null {
  const t0 = tokenAt(a, s);
  const t1 = tokenAt(a, e - 1);
  let total = 0;
  let keptW = 0;
  let together = true;
  let first = -1;
  let last = -1;
  for (let i = t0; i <= t1; i++) {
    const w = weight(at(a, i));
    total += w;
    const j = at(map.oldToNew, i);
    if (j >= 0) {
      keptW += w;
      if (first === -1) first = i;
      if (last !== -1 && at(map.oldToNew, last) !== j - (i - last)) together = false;
      last = i;
    } else together = false;
  }
  if (first === -1) return null;
  if (together && first === t0 && last === t1) {
    const start = at(b, at(map.oldToNew, t0)).start + (s - at(a, t0).start);
    const end = at(b, at(map.oldToNew, t1)).start + (e - at(a, t1).start);
    if (newText.slice(start, end) === quote) return { state: "attached", start, end, exact: true };
  }
  if (total === 0 || keptW / total < KEPT_MIN) return null;
  // Reworded: from the first kept token to the last, widened over what replaced the quote's edges.
  const jFirst = at(map.oldToNew, first);
  const jLast = at(map.oldToNew, last);
  let js = jFirst;
  const lostBefore = first - t0;
  if (lostBefore > 0) {
    let steps = 0;
    while (js > 0 && !map.kept[js - 1] && steps < lostBefore + 2) {
      js--;
      steps++;
    }
  }
  let je = jLast;
  const lostAfter = t1 - last;
  if (lostAfter > 0) {
    let steps = 0;
    while (je < b.length - 1 && !map.kept[je + 1] && steps < lostAfter + 2) {
      je++;
      steps++;
    }
  }
  const startIn = first === t0 ? s - at(a, t0).start : 0;
  const endIn = last === t1 ? e - at(a, t1).start : at(b, je).text.length;
  let span = trimSpan(newText, at(b, js).start + (js === jFirst ? startIn : 0), at(b, je).start + (je === jLast ? endIn : at(b, je).text.length));
  if (!stillTheQuote(quote, newText.slice(span.start, span.end), KEPT_MIN)) {
    span = trimSpan(newText, at(b, jFirst).start + startIn, at(b, jLast).start + (last === t1 ? endIn : at(b, jLast).text.length));
    if (!stillTheQuote(quote, newText.slice(span.start, span.end), KEPT_MIN)) return null;
  }
  return { state: "attached", start: span.start, end: span.end, exact: newText.slice(span.start, span.end) === quote };
}

/** Share of `[start, end)` of `newText` made of new (not kept) tokens, by letters. */
function newShare(b: Token[], kept: Uint8Array | null, start: number, end: number): number {
  if (!kept) return 1;
  let total = 0;
  let fresh = 0;
  for (let j = tokenAt(b, start); j < b.length && at(b, j).start < end; j++) {
    const w = weight(at(b, j));
    total += w;
    if (!kept[j]) fresh += w;
  }
  return total === 0 ? 0 : fresh / total;
}

/**
 * A passage that left its place: the quote found again, exact or reworded, only in text the
 * diff says is new (null `kept`: all of it), with a single clear winner.
 */
function findMoved(newText: string, b: Token[], kept: Uint8Array | null, anchor: QuoteAnchor): Attachment | null {
  const { quote, prefix, suffix } = anchor;
  const exact = occurrences(newText, quote)
    .filter((s) => newShare(b, kept, s, s + quote.length) >= 0.8)
    .map((s) => ({ s, score: contextScore(newText, s, s + quote.length, prefix, suffix) }))
    .sort((x, y) => y.score - x.score);
  if (exact.length === 1 || (exact.length > 1 && at(exact, 0).score >= at(exact, 1).score + 8)) {
    return { state: "attached", start: at(exact, 0).s, end: at(exact, 0).s + quote.length, exact: true };
  }
  if (exact.length > 1) return null;
  // Moved and reworded: the window of new text holding most of the quote's words.
  const q = tokenize(quote);
  const words = q.filter((t) => !isSpace(t.text));
  if (words.length < 4) return null; // too short to recognise once reworded
  const want = bag(q);
  const W = q.length;
  const qW = words.reduce((n, t) => n + t.text.length, 0);
  const candidates: { i: number; j: number; score: number }[] = [];
  for (let i = 0; i < b.length; i++) {
    if ((kept && kept[i]) || isSpace(at(b, i).text) || !want.has(at(b, i).text.toLowerCase())) continue;
    const have = new Map<string, number>();
    let shared = 0;
    let lastHit = i;
    for (let j = i; j < b.length && j < i + Math.ceil(W * 1.3); j++) {
      if (kept && kept[j]) break;
      const t = at(b, j);
      if (isSpace(t.text)) continue;
      const k = t.text.toLowerCase();
      const n = have.get(k) ?? 0;
      if (n < (want.get(k) ?? 0)) {
        shared += t.text.length;
        lastHit = j;
      }
      have.set(k, n + 1);
    }
    const score = shared / qW;
    if (score >= MOVED_MIN) candidates.push({ i, j: lastHit, score });
  }
  if (candidates.length === 0) return null;
  candidates.sort((x, y) => y.score - x.score || x.i - y.i);
  const best = at(candidates, 0);
  const bestEnd = at(b, best.j).start + at(b, best.j).text.length;
  // Another window as good that does not overlap the best: two passages alike, no answer.
  const rival = candidates.find(
    (c) => c !== best && (at(b, c.i).start >= bestEnd || at(b, c.j).start + at(b, c.j).text.length <= at(b, best.i).start) && c.score >= best.score - 0.1,
  );
  if (rival) return null;
  const span = trimSpan(newText, at(b, best.i).start, bestEnd);
  if (!stillTheQuote(quote, newText.slice(span.start, span.end), MOVED_MIN)) return null;
  return { state: "attached", start: span.start, end: span.end, exact: newText.slice(span.start, span.end) === quote };
}

/**
 * Where `anchor` (made on `oldText`) is in `newText`. `oldText` null: that version's text is
 * no longer kept; the anchor's own context then stands for it.
 */
export function reanchor(oldText: string | null, anchor: QuoteAnchor, newText: string): Attachment {
  const { quote } = anchor;
  if (quote === "") return { state: "earlier_version" };
  let base = oldText ?? anchor.prefix + quote + anchor.suffix;
  let s = oldText === null ? anchor.prefix.length : anchor.start;
  if (base.slice(s, s + quote.length) !== quote) {
    const found = findQuote(base, quote, anchor.prefix, anchor.suffix);
    if (found) s = found.start;
    else {
      base = anchor.prefix + quote + anchor.suffix;
      s = anchor.prefix.length;
    }
  }
  if (base === newText) return { state: "attached", start: s, end: s + quote.length, exact: true };
  const a = tokenize(base);
  const b = tokenize(newText);
  const map = mapTokens(a, b);
  if (map) {
    const followed = followByDiff(newText, a, b, map, s, s + quote.length, quote);
    if (followed) return followed;
  }
  return findMoved(newText, b, map?.kept ?? null, anchor) ?? { state: "earlier_version" };
}
