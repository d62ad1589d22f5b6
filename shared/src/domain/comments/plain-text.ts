// A passage selected in the rendered page is what people see, not the Markdown: `**bold**`
// reads "bold", `[a link](https://…)` reads "a link". To anchor such a selection on the page's
// text, both are compared as plain text (markup left out, spaces folded), and the match is
// mapped back to where it is in the Markdown. Browser-safe.

const MARKUP = new Set(["*", "_", "`", "~", "#", ">", "[", "]", "|", "<"]);
const EMPHASIS = new Set(["*", "_", "`", "~"]);

/** The text's plain reading and, for each of its characters, where it came from in `text`. */
function project(text: string): { plain: string; from: number[] } {
  let plain = "";
  const from: number[] = [];
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? "";
    // A link's or image's target: `](…)` is not read.
    if (ch === "]" && text[i + 1] === "(") {
      const close = text.indexOf(")", i + 2);
      if (close !== -1) {
        i = close;
        continue;
      }
    }
    if (MARKUP.has(ch)) continue;
    if (/\s/.test(ch)) {
      space = plain.length > 0;
      continue;
    }
    if (space) {
      plain += " ";
      from.push(i);
      space = false;
    }
    plain += ch;
    from.push(i);
  }
  return { plain, from };
}

/** A text as read: markup left out, spaces folded. */
export function plainOf(text: string): string {
  return project(text).plain;
}

/**
 * Where a selection of the rendered text is in `text` (the Markdown): its span there, or
 * "ambiguous" when it reads the same in more than one place and the context does not say
 * which, or null when it is not there.
 */
export function locateSelection(text: string, quote: string, prefix = "", suffix = ""): { start: number; end: number } | "ambiguous" | null {
  const q = plainOf(quote);
  if (q === "") return null;
  const { plain, from } = project(text);
  const hits: number[] = [];
  for (let i = plain.indexOf(q); i !== -1; i = plain.indexOf(q, i + 1)) hits.push(i);
  if (hits.length === 0) return null;
  let best = hits[0] ?? 0;
  if (hits.length > 1) {
    const p = plainOf(prefix);
    const s = plainOf(suffix);
    const score = (h: number) => {
      let n = 0;
      while (n < p.length && h - 1 - n >= 0 && plain[h - 1 - n] === p[p.length - 1 - n]) n++;
      let m = 0;
      while (m < s.length && plain[h + q.length + m] === s[m]) m++;
      return n + m;
    };
    const ranked = hits.map((h) => ({ h, n: score(h) })).sort((a, b) => b.n - a.n);
    if ((ranked[0]?.n ?? 0) === (ranked[1]?.n ?? 0)) return "ambiguous";
    best = ranked[0]?.h ?? best;
  }
  let start = from[best] ?? 0;
  let end = (from[best + q.length - 1] ?? start) + 1;
  // Emphasis around the selection's ends belongs to it: "**current plan**", not "**current plan".
  while (start > 0 && EMPHASIS.has(text[start - 1] ?? "")) start--;
  while (end < text.length && EMPHASIS.has(text[end] ?? "")) end++;
  return { start, end };
}
