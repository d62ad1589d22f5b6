// A block of cells pasted from a spreadsheet (tab-separated text, as Excel, Google Sheets,
// Numbers and LibreOffice copy it): read into a grid of texts, then laid over the table from
// the focused cell as one batch of row changes (each naming the version it builds on) and
// new rows past the last one.
import { inputOf, parseInput } from "./type-value";
import type { Column, Row, RowValues } from "./types";

/**
 * Tab-separated text into rows of cells. A cell in double quotes may hold tabs, line breaks
 * and doubled quotes (what spreadsheets write for such cells); one trailing line break is
 * not an extra row.
 */
export function parseTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let i = 0;
  const s = text.replace(/\r\n?/g, "\n");
  let atCellStart = true;
  while (i < s.length) {
    const ch = s[i] as string;
    if (atCellStart && ch === '"') {
      // A quoted cell: up to the closing quote that is followed by a tab, a line break or the end.
      let j = i + 1;
      let quoted = "";
      let closed = false;
      while (j < s.length) {
        if (s[j] === '"') {
          if (s[j + 1] === '"') {
            quoted += '"';
            j += 2;
            continue;
          }
          closed = j + 1 === s.length || s[j + 1] === "\t" || s[j + 1] === "\n";
          break;
        }
        quoted += s[j];
        j++;
      }
      if (closed) {
        cell = quoted;
        i = j + 1;
        atCellStart = false;
        continue;
      }
    }
    atCellStart = false;
    if (ch === "\t") {
      row.push(cell);
      cell = "";
      atCellStart = true;
    } else if (ch === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      atCellStart = true;
    } else {
      cell += ch;
    }
    i++;
  }
  if (!atCellStart || cell !== "" || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** What spreadsheets write for a ticked or empty box, as the grid's own words. */
function pastedBoolean(raw: string): string {
  const s = raw.trim().toLowerCase();
  if (["true", "yes", "y", "x", "✓", "✔", "1", "on"].includes(s)) return "true";
  if (["false", "no", "n", "0", "off", ""].includes(s)) return "false";
  return raw;
}

export interface PastePlan {
  /** Changes to rows on screen: only the cells that differ, each row with its version. */
  changes: { row_id: string; expected_version: number; values: RowValues }[];
  /** Rows the block runs past the last one: new rows. */
  rows: RowValues[];
  /** "row 2, points: …": cells the block cannot hold; nothing is written while there are any. */
  problems: string[];
  /** Columns of the block past the table's last column, left out. */
  columnsLeftOut: number;
  /** How many cells the block writes. */
  cells: number;
}

/**
 * The block laid over `rows` from row `rowIndex`, column `colIndex`: each text read as its
 * column reads typed input. Rows past the end become new rows (their other cells empty).
 */
export function planPaste(columns: Column[], rows: Row[], rowIndex: number, colIndex: number, block: string[][]): PastePlan {
  const plan: PastePlan = { changes: [], rows: [], problems: [], columnsLeftOut: 0, cells: 0 };
  const width = Math.max(0, ...block.map((r) => r.length));
  plan.columnsLeftOut = Math.max(0, colIndex + width - columns.length);
  block.forEach((texts, r) => {
    const target = rows[rowIndex + r];
    const values: RowValues = {};
    texts.forEach((raw, c) => {
      const col = columns[colIndex + c];
      if (!col) return;
      const typed = col.type === "boolean" ? pastedBoolean(raw) : raw;
      const parsed = parseInput(col, typed);
      const where = target ? `row ${rowIndex + r + 1}` : `new row ${r + rowIndex - rows.length + 1}`;
      if (!parsed.ok) {
        plan.problems.push(`${where}, ${col.name}: ${parsed.problem}`);
        return;
      }
      plan.cells++;
      if (target && inputOf(col, target.values[col.name]) === inputOf(col, parsed.value)) return;
      if (!target && parsed.value === null) return;
      values[col.name] = parsed.value;
    });
    if (target) {
      if (Object.keys(values).length > 0) plan.changes.push({ row_id: target.row_id, expected_version: target.version, values });
    } else {
      // A new row needs its required cells: say which are missing.
      for (const col of columns) {
        if (col.required && (values[col.name] === undefined || values[col.name] === null))
          plan.problems.push(`new row ${r + rowIndex - rows.length + 1}: ${col.name} is required`);
      }
      plan.rows.push(values);
    }
  });
  return plan;
}

/** Whether someone else's version of a row changed any of the cells I am writing. */
export function touchesMine(before: RowValues, theirs: RowValues, mine: RowValues): boolean {
  return Object.keys(mine).some((name) => (theirs[name] ?? null) !== (before[name] ?? null));
}
