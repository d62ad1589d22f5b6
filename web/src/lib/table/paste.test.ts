import { describe, expect, it } from "vitest";
import { parseTsv, planPaste, touchesMine } from "./paste";
import type { Column, Row } from "./types";

const columns: Column[] = [
  { name: "title", type: "text", required: true },
  { name: "points", type: "number", required: false },
  { name: "done", type: "boolean", required: false },
];

const row = (id: string, version: number, values: Row["values"]): Row => ({
  row_id: id,
  version,
  values,
  updated_by: { kind: "user", id: "u", label: "u" } as unknown as Row["updated_by"],
  updated_at: "2026-11-27T00:00:00.000Z",
});

describe("parseTsv (what spreadsheets copy)", () => {
  it("reads rows and tab-separated cells, without an extra row for the last line break", () => {
    expect(parseTsv("a\t1\tTRUE\r\nb\t2\tFALSE\r\n")).toEqual([
      ["a", "1", "TRUE"],
      ["b", "2", "FALSE"],
    ]);
    expect(parseTsv("one")).toEqual([["one"]]);
    expect(parseTsv("a\t\tc")).toEqual([["a", "", "c"]]);
  });
  it("keeps tabs, line breaks and quotes inside a quoted cell", () => {
    expect(parseTsv('"two\nlines"\t"say ""hi"""\nx\ty')).toEqual([
      ["two\nlines", 'say "hi"'],
      ["x", "y"],
    ]);
    // A quote that does not close a cell is just a character.
    expect(parseTsv('5" screen\tok')).toEqual([['5" screen', "ok"]]);
  });
});

describe("planPaste (a block laid over the grid)", () => {
  const rows = [row("row_aaaaaaaaaa", 3, { title: "a", points: 1, done: false }), row("row_bbbbbbbbbb", 1, { title: "b", points: null, done: null })];

  it("changes only the cells that differ, each row with the version it builds on, and adds rows past the end", () => {
    const plan = planPaste(columns, rows, 0, 0, parseTsv("a\t1\tyes\nb\t7\tx\nc\t9\tno\n"));
    expect(plan.problems).toEqual([]);
    expect(plan.changes).toEqual([
      { row_id: "row_aaaaaaaaaa", expected_version: 3, values: { done: true } },
      { row_id: "row_bbbbbbbbbb", expected_version: 1, values: { points: 7, done: true } },
    ]);
    expect(plan.rows).toEqual([{ title: "c", points: 9, done: false }]);
    expect(plan.cells).toBe(9);
  });

  it("names every cell the block cannot hold, and the required cells a new row lacks", () => {
    const plan = planPaste(columns, rows, 1, 0, parseTsv("b2\tmany\nc\t4"));
    expect(plan.problems).toHaveLength(1);
    expect(plan.problems[0]).toMatch(/^row 2, points: /);
    const blank = planPaste(columns, rows, 2, 1, parseTsv("4"));
    expect(blank.problems).toEqual(["new row 1: title is required"]);
  });

  it("counts the columns past the last one, which are left out", () => {
    const plan = planPaste(columns, rows, 0, 2, parseTsv("true\textra\tmore"));
    expect(plan.columnsLeftOut).toBe(2);
    expect(plan.changes).toEqual([{ row_id: "row_aaaaaaaaaa", expected_version: 3, values: { done: true } }]);
  });
});

describe("touchesMine", () => {
  it("is true only when someone else changed a cell I am writing", () => {
    expect(touchesMine({ a: 1, b: 2 }, { a: 1, b: 3 }, { a: 5 })).toBe(false);
    expect(touchesMine({ a: 1, b: 2 }, { a: 4, b: 2 }, { a: 5 })).toBe(true);
  });
});
