// Text that someone else chose (an OAuth client's name, a URL it registered) shown to a person
// who must decide whether to trust it. Characters that change how the text looks without
// being seen are removed: control characters, bidirectional overrides and isolates (which can
// make "moc.evil" read as "live.com"), zero-width joiners and spaces, variation selectors,
// invisible fillers and tag characters. What is left is trimmed, its runs of white space made
// one space, and cut to a length.

// Each range is a character that draws nothing (or reorders what is drawn). The classes hold
// combining marks and selectors on purpose: they are what is removed.
const INVISIBLE = new RegExp(
  // eslint-disable-next-line no-misleading-character-class
  [
    "[\\u0000-\\u0008\\u000e-\\u001f\\u007f-\\u009f]", // C0 and C1 controls (tabs and line breaks become a space below)
    "[\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f]", // soft hyphen, grapheme joiner, Arabic letter mark, fillers, Mongolian selectors
    "[\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u206f]", // zero-width, LRM/RLM, embeddings, overrides, isolates, invisible operators
    "[\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff0-\\ufffb]", // Hangul filler, variation selectors, BOM, specials
    "[\\u{e0000}-\\u{e007f}\\u{e0100}-\\u{e01ef}]", // tag characters, variation selectors supplement
  ].join("|"),
  "gu",
);

/** `text` without invisible and reordering characters, white space collapsed, at most `max` characters. */
export function inertText(text: string, max = 200): string {
  const cleaned = text.replace(INVISIBLE, "").replace(/\s+/gu, " ").trim();
  // Cut on a code point boundary, never inside a surrogate pair.
  const chars = Array.from(cleaned);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : cleaned;
}

/**
 * Text someone else chose, as a mail shows it: `inertText`, and nothing a mail program would
 * turn into a link — "https://evil.example" becomes "https[:]//evil[.]example", an address
 * "x[@]y[.]z" — so a workspace or agent name cannot carry a clickable phishing link.
 */
export function unlinkableText(text: string, max = 200): string {
  return inertText(text, max)
    .replace(/:\/\//g, "[:]//")
    .replace(/(?<=[\p{L}\p{N}])[.\u3002\uff0e\uff61](?=[\p{L}\p{N}])/gu, "[.]")
    .replace(/@/g, "[@]");
}
