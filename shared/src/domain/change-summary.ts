// What one version of a page changed, in short words for its history: "+3 −1 lines",
// "title changed", "restored from version 2". Line counts come from the one line diff
// (text-diff.ts), computed once when the version is written and kept with its revision.
import type { LineCounts } from "./text-diff";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * One line for a version in the history. `changes` are the fields it touched ("created",
 * "restored", "title", "summary", "text", "tables"); `lines` the text's line counts when known.
 */
export function changeSummary(input: { changes: string[]; restoredFrom: number | null; lines: LineCounts | null }): string {
  const { changes, restoredFrom, lines } = input;
  if (changes.includes("created")) return lines && lines.added > 0 ? `created, ${plural(lines.added, "line", "lines")}` : "created";
  if (restoredFrom !== null) return `restored from version ${restoredFrom}`;
  const words: string[] = [];
  if (changes.includes("text")) {
    if (lines && (lines.added > 0 || lines.removed > 0)) {
      const counts = [lines.added > 0 ? `+${lines.added}` : null, lines.removed > 0 ? `−${lines.removed}` : null].filter(Boolean).join(" ");
      words.push(`${counts} ${lines.added + lines.removed === 1 ? "line" : "lines"}`);
    } else words.push("text changed");
  }
  if (changes.includes("title")) words.push("title changed");
  if (changes.includes("summary")) words.push("summary changed");
  if (changes.includes("tables")) words.push("tables changed");
  return words.length > 0 ? words.join(", ") : "no changes";
}
