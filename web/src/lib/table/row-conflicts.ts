// A row edit that raced someone else's: column by column, what each side holds.
import { cellText } from "./show-value";
import { sameCell } from "./type-value";
import { type Cell, type Column, type RowValues } from "./types";

export interface CellComparison {
  column: Column;
  base: Cell;
  mine: Cell;
  theirs: Cell;
  iChanged: boolean;
  theyChanged: boolean;
}

/** Column by column: what the person started from, what they typed, what is there now. */
export function compareRow(columns: Column[], base: RowValues, mine: RowValues, theirs: RowValues): CellComparison[] {
  return columns.map((column) => {
    const b = base[column.name] ?? null;
    const iChanged = column.name in mine && !sameCell(mine[column.name], b);
    const t = theirs[column.name] ?? null;
    return { column, base: b, mine: iChanged ? (mine[column.name] ?? null) : b, theirs: t, iChanged, theyChanged: !sameCell(t, b) };
  });
}

/** "score", "score and title", "score, title and done". */
export function nameList(names: string[]): string {
  const quoted = names.map((n) => `“${n}”`);
  if (quoted.length <= 1) return quoted[0] ?? "nothing";
  return `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1] ?? ""}`;
}

/** One row as plain text ("title: Milk · done: Yes"), to copy or to read in a sentence. */
export function rowText(columns: Column[], values: RowValues): string {
  return columns
    .filter((c) => values[c.name] !== null && values[c.name] !== undefined)
    .map((c) => `${c.name}: ${cellText(c, values[c.name])}`)
    .join(" · ");
}

/** A row's name in a sentence: its first filled cell, else its position. */
export function rowLabel(columns: Column[], values: RowValues, fallback: string): string {
  for (const c of columns) {
    const text = cellText(c, values[c.name]);
    if (text) return text.length > 40 ? `${text.slice(0, 39)}…` : text;
  }
  return fallback;
}
