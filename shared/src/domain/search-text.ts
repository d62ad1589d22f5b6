// What search reads in a page or a table, and how (issue 30 item 2, docs/decisions.md, "Search
// over what pages say"): the one tokeniser, used both for what is indexed and for what is
// asked, so a word matches itself whatever its case, accents or plural; the weights a page's
// terms carry in the index; and the snippet shown for a result. Pure: no database here.

/** Words too common to tell pages apart: neither indexed nor asked for. */
const STOP_WORDS = new Set(
  (
    "a an and are as at be but by for from has have he her his i if in into is it its me my no not of on or our she so " +
    "than that the their them then there these they this those to too was we were what when which who will with you your"
  ).split(" "),
);

/** Shortest and longest word indexed. */
const MIN_WORD = 2;
const MAX_WORD = 40;

/** Folds a word to its indexed form: lower case, accents dropped, a plain English plural made singular. */
export function normaliseWord(word: string): string {
  let w = word.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  return w;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of a text with where each starts and ends (for snippets), normalised. */
export function wordsOf(text: string): { term: string; start: number; end: number }[] {
  const out: { term: string; start: number; end: number }[] = [];
  for (const m of text.matchAll(WORD)) {
    const raw = m[0];
    if (raw.length < MIN_WORD || raw.length > MAX_WORD) continue;
    const term = normaliseWord(raw);
    if (STOP_WORDS.has(term) || term.length < MIN_WORD) continue;
    out.push({ term, start: m.index, end: m.index + raw.length });
  }
  return out;
}

/** The terms of a query, in order, without repeats (at most `max`). */
export function queryTerms(query: string, max = 8): string[] {
  return [...new Set(wordsOf(query).map((w) => w.term))].slice(0, max);
}

/** Markdown or HTML made plain enough to search and to quote: tags, scripts, styles and entities dropped. */
export function plainText(kind: string, body: string): string {
  if (kind === "html") {
    return body
      .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ")
      .replace(/<[^>]*>/g, " ")
      .replace(/&[a-z]+;|&#\d+;/gi, " ")
      .replace(/\s+/g, " ")
      .trim();
  }
  if (kind === "markdown") {
    return body
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/<[^>]*>/g, " ")
      .replace(/[#*_`>|~]+/g, " ")
      .replace(/\s+/g, " ")
      .trim();
  }
  return "";
}

/** A page's searchable text: its summary and its Markdown and HTML parts, in order (not its title: that is weighed apart). */
export function pageBodyText(page: { summary?: string; parts: { kind: string; body: string; position: number }[] }): string {
  const parts = [...page.parts].sort((a, b) => a.position - b.position).map((p) => plainText(p.kind, p.body));
  return [page.summary ?? "", ...parts].filter(Boolean).join(" \n ");
}

// BM25's term-frequency part, computed when a page is written and kept in the index; the
// query multiplies it by the term's rarity (idf) among the pages the caller may read.
const K1 = 1.2;
const B = 0.5;
/** A typical page's length in indexed words. */
const AVG_LENGTH = 400;
/** A word of the title, address or table name counts as this many words of the text. */
export const TITLE_BOOST = 5;
/** The weights are kept as whole numbers: this many per unit. */
export const WEIGHT_SCALE = 100;

/**
 * A page's length in coarse steps (a factor of √2 each), so an edit that adds or removes a few
 * words leaves the weights of the terms it did not touch as they were, and rewrites only those.
 */
export function lengthStep(words: number): number {
  return Math.round(2 ** (Math.round(2 * Math.log2(Math.max(words, 16))) / 2));
}

function weightOf(tf: number, length: number): number {
  const sat = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / AVG_LENGTH));
  return Math.max(1, Math.round(sat * WEIGHT_SCALE));
}

/** The shortest start of a title word indexed for as-you-type search, and the longest. */
const PREFIX_MIN = 2;
const PREFIX_MAX = 12;
/** A prefix term is marked so it never meets a whole word. */
export const PREFIX_MARK = "^";

/** The terms of a title, address or name, each counted once per occurrence; the address split on dashes. */
function titleWords(titles: string[]): string[] {
  return titles.flatMap((t) => wordsOf(t.replace(/[-_/]+/g, " ")).map((w) => w.term));
}

/**
 * What the index keeps of a page or table: each term with its weight, and the starts of its
 * title's words (for ⌘K's last, half-typed word). Title words count TITLE_BOOST times.
 */
export function termWeights(input: { titles: string[]; body: string }): Record<string, number> {
  const body = wordsOf(input.body).map((w) => w.term);
  const title = titleWords(input.titles);
  const tf = new Map<string, number>();
  for (const t of body) tf.set(t, (tf.get(t) ?? 0) + 1);
  for (const t of title) tf.set(t, (tf.get(t) ?? 0) + TITLE_BOOST);
  const length = lengthStep(body.length + title.length);
  // A map, not an object: a word such as "constructor" is a term like any other.
  const out = new Map<string, number>();
  for (const [t, n] of tf) out.set(t, weightOf(n, length));
  for (const t of new Set(title)) {
    for (let i = PREFIX_MIN; i <= Math.min(PREFIX_MAX, t.length - 1); i++) out.set(`${PREFIX_MARK}${t.slice(0, i)}`, weightOf(TITLE_BOOST, length));
  }
  return Object.fromEntries(out);
}

/** How long a snippet is, in characters (about). */
export const SNIPPET_LENGTH = 180;

export interface Snippet {
  text: string;
  /** Where the query's words are in `text`: [start, end) pairs, in order. */
  highlights: [number, number][];
}

/**
 * The part of `text` that holds the most of the query's terms (a whole word's or, for
 * `prefix`, a word's start), cut at word boundaries, with where those words are.
 */
export function snippetOf(text: string, terms: string[], prefix: string | null = null): Snippet {
  const wanted = new Set(terms);
  const words = wordsOf(text);
  const hits = words.filter((w) => wanted.has(w.term) || (prefix !== null && w.term.startsWith(prefix)));
  let from = 0;
  if (hits.length > 0) {
    // The window starting at a hit that covers the most distinct terms (then the most hits).
    let best = -1;
    for (const hit of hits) {
      const start = hit.start;
      const inside = hits.filter((h) => h.start >= start && h.end <= start + SNIPPET_LENGTH);
      const score = new Set(inside.map((h) => h.term)).size * 1000 + inside.length;
      if (score > best) {
        best = score;
        from = start;
      }
    }
    // A little context before the first word, from a word's start.
    let start = Math.max(0, from - 40);
    if (start > 0) {
      const space = text.indexOf(" ", start);
      start = space >= 0 && space < from ? space + 1 : from;
    }
    from = start;
  }
  let to = Math.min(text.length, from + SNIPPET_LENGTH);
  if (to < text.length) {
    const space = text.lastIndexOf(" ", to);
    if (space > from + SNIPPET_LENGTH / 2) to = space;
  }
  const lead = from > 0 ? "…" : "";
  const tail = to < text.length ? "…" : "";
  const body = text.slice(from, to).replace(/\s+/g, " ");
  // Positions again on the cut text (whitespace folded), so they match what is shown.
  const shown = `${lead}${body}${tail}`;
  const highlights: [number, number][] = wordsOf(shown)
    .filter((w) => wanted.has(w.term) || (prefix !== null && w.term.startsWith(prefix)))
    .map((w) => [w.start, w.end]);
  return { text: shown, highlights };
}
