/**
 * The words of a one-line shell command as a POSIX shell splits them (single quotes, double
 * quotes with backslash escapes, and words glued to quoted parts): how tests run a printed
 * command exactly as a person pasting it would.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /'([^']*)'|"((?:\\.|[^"\\])*)"|(\S+)/g;
  let current: string | null = null;
  let last = 0;
  for (const m of line.matchAll(re)) {
    if (current !== null && m.index !== last) {
      words.push(current);
      current = null;
    }
    current = (current ?? "") + (m[1] ?? (m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : (m[3] ?? "")));
    last = m.index + m[0].length;
  }
  if (current !== null) words.push(current);
  return words;
}
