import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { describeEvent } from "../actors";
import { draftOf, isEmptyUpdate, keepMine, storedAsDraft, tablesOf, tablesText, updateInputFor, type EditablePage } from "../draft";
import { filterSummary, gridStateOf, nextSort, searchOf, serverFilterOf } from "./grid-state";
import { compareRow, nameList } from "./row-conflicts";
import { cellAdvice, rowProblemsOf } from "./server-problems";
import { cellText, formatDateCell } from "./show-value";
import { canonicalSpec, tableSpecsOf } from "./table-view-specs";
import { emptyInputs, inputOf, inputsOf, newRowValues, parseInput, rowChanges } from "./type-value";
import { type Column } from "./types";

type Issue = { path: string; code: string; message: string; params?: Record<string, string | number | string[]> };

function serverError(message: string, issues: Issue[] | null = null, appCode = "invalid_request") {
  return TRPCClientError.from(
    { error: { code: -32600, message, data: { code: "BAD_REQUEST", httpStatus: 400, path: "rows.insert", appCode, issues } } },
    { meta: { response: new Response(null, { status: 400 }) } },
  );
}

const columns: Column[] = [
  { name: "title", type: "text", required: true },
  { name: "score", type: "number", required: false },
  { name: "done", type: "boolean", required: false },
  { name: "due", type: "date", required: false },
  { name: "link", type: "url", required: false },
  { name: "status", type: "select", required: false, options: ["todo", "done"] },
];
const col = (name: string): Column => {
  const c = columns.find((x) => x.name === name);
  if (!c) throw new Error(name);
  return c;
};

describe("typing into cells", () => {
  it("turns what was typed into typed values, and says what is wrong in words", () => {
    expect(parseInput(col("score"), " 1 000.5 ")).toEqual({ ok: true, value: 1000.5 });
    expect(parseInput(col("score"), "-3e2")).toEqual({ ok: true, value: -300 });
    expect(parseInput(col("score"), "12abc")).toEqual({ ok: false, problem: "Enter a number, like 42 or 3.5." });
    expect(parseInput(col("score"), "")).toEqual({ ok: true, value: null });
    expect(parseInput(col("title"), "  ")).toMatchObject({ ok: false, problem: expect.stringMatching(/“title” is required/) });
    expect(parseInput(col("done"), "true")).toEqual({ ok: true, value: true });
    expect(parseInput(col("due"), "2026-11-21")).toEqual({ ok: true, value: "2026-11-21" });
    expect(parseInput(col("due"), "21/11/2026")).toMatchObject({ ok: false });
    expect(parseInput(col("status"), "maybe")).toEqual({ ok: false, problem: "Choose one of: todo, done." });
  });

  it("shows stored values in inputs and reads them back unchanged", () => {
    expect(inputOf(col("done"), false)).toBe("false");
    expect(inputOf(col("score"), null)).toBe("");
    expect(inputOf(col("due"), "2026-11-21")).toBe("2026-11-21");
    expect(inputOf(col("due"), "2026-11-21T10:30:00.000Z")).toMatch(/^2026-11-2\dT\d\d:30$/);
    expect(emptyInputs(columns)).toMatchObject({ title: "", done: "false" });
  });

  it("sends only the columns that changed, so a change made meanwhile elsewhere is kept", () => {
    const base = { title: "Milk", score: 3, done: false, due: "2026-11-21T10:30:00.000Z", link: null, status: "todo" };
    const inputs = { ...inputsOf(columns, base), score: "3.0", title: "Oat milk" };
    expect(rowChanges(columns, base, inputs)).toEqual({ values: { title: "Oat milk" }, problems: {} });
    expect(rowChanges(columns, base, { ...inputs, score: "lots" }).problems).toEqual({ score: "Enter a number, like 42 or 3.5." });
    expect(rowChanges(columns, base, { ...inputs, status: "" }).values).toMatchObject({ status: null });
  });

  it("adds a row with its filled columns only, and checks the required ones", () => {
    expect(newRowValues(columns, { ...emptyInputs(columns), title: "Eggs", score: "12" })).toEqual({
      values: { title: "Eggs", score: 12, done: false },
      problems: {},
    });
    expect(newRowValues(columns, emptyInputs(columns)).problems).toHaveProperty("title");
  });

  it("reads cells as words", () => {
    expect(cellText(col("score"), 1234.5)).toBe("1,234.5");
    expect(cellText(col("done"), true)).toBe("Yes");
    expect(cellText(col("due"), "2026-11-21")).toBe(formatDateCell("2026-11-21"));
    expect(cellText(col("title"), null)).toBe("");
  });
});

describe("dates, as the date input shows them", () => {
  it("reads a calendar date in the reader's numeric form, the same day in every zone", () => {
    expect(formatDateCell("2026-11-21", "en-US")).toBe("11/21/2026");
    expect(formatDateCell("2026-11-21", "en-GB")).toBe("21/11/2026");
    expect(formatDateCell("2026-11-21", "de-DE")).toBe("21.11.2026");
    expect(formatDateCell("2026-01-05", "en-US")).toBe("01/05/2026");
  });

  it("adds the time of a moment, and leaves what is not a date as it is", () => {
    expect(formatDateCell("2026-11-21T14:05:00.000Z", "en-GB")).toMatch(/^\d\d\/\d\d\/2026, \d\d:05$/);
    expect(formatDateCell("soon", "en-GB")).toBe("soon");
  });
});

describe("what the server refused, next to the field", () => {
  it("puts an update's or an insert's problem under its column, in plain words, from its code", () => {
    const issue = (path: string, code: string, params?: Issue["params"]) =>
      serverError("(a sentence the web never reads)", [{ path, code, message: "…", ...(params ? { params } : {}) }]);
    expect(rowProblemsOf(issue("rows.0.score", "not_number"), columns)).toEqual({
      fields: { score: "Enter a number, like 42 or 3.5." },
      other: null,
    });
    expect(rowProblemsOf(issue("values.link", "not_url"), columns).fields).toEqual({
      link: "Enter a web address that starts with http:// or https://.",
    });
    expect(rowProblemsOf(issue("values.title", "required"), columns).fields.title).toMatch(/“title” is required/);
    expect(rowProblemsOf(issue("values", "too_large", { max: 16384, size: 20000 }), columns)).toEqual({
      fields: {},
      other: "The row is too large: keep it under 16,384 bytes.",
    });
    const unknown = serverError("x", [{ path: "values.score", code: "something_new", message: "is not what we expected" }]);
    expect(rowProblemsOf(unknown, columns).fields).toEqual({ score: "Is not what we expected." });
  });

  it("finds columns whose names have spaces", () => {
    const spaced: Column[] = [{ name: "Due date", type: "date", required: false }];
    expect(rowProblemsOf(serverError("x", [{ path: "values.Due date", code: "not_date", message: "…" }]), spaced).fields).toEqual({
      "Due date": "Enter a date, like 2026-11-21.",
    });
  });

  it("words the server's codes and keeps unknown ones readable", () => {
    expect(cellAdvice({ code: "not_option", message: "…", params: { options: ["a", "b"] } }, "x")).toBe("Choose one of: a, b.");
    expect(cellAdvice({ code: "too_long", message: "…", params: { max: 10000 } }, "x")).toBe("Keep it to 10,000 characters or fewer.");
    expect(cellAdvice({ code: "brand_new", message: "something new" }, "x")).toBe("Something new.");
  });
});

describe("sort and filters in the address", () => {
  it("reads and writes sort and filters, keeping other parameters", () => {
    const search = new URLSearchParams("sort=score&dir=desc&gte.score=3&eq.Due date=2026-11-21&tab=x");
    const state = gridStateOf(search);
    expect(state).toEqual({ sort: { column: "score", direction: "desc" }, filters: { score: { gte: "3" }, "Due date": { eq: "2026-11-21" } } });
    const next = searchOf(search, { sort: null, filters: { score: { lte: "9" } } });
    expect(next.toString()).toBe("tab=x&lte.score=9");
  });

  it("cycles a header through ascending, descending and off", () => {
    expect(nextSort(null, "a")).toEqual({ column: "a", direction: "asc" });
    expect(nextSort({ column: "a", direction: "asc" }, "a")).toEqual({ column: "a", direction: "desc" });
    expect(nextSort({ column: "a", direction: "desc" }, "a")).toBeNull();
    expect(nextSort({ column: "a", direction: "desc" }, "b")).toEqual({ column: "b", direction: "asc" });
  });

  it("types filters for rows.list: equality, ranges, whole days", () => {
    const { filter, problems } = serverFilterOf(columns, {
      score: { gte: "3", lte: "10" },
      done: { eq: "true" },
      due: { eq: "2026-11-21" },
      status: { eq: "todo" },
      gone: { eq: "x" },
    });
    expect(problems).toEqual({});
    expect(filter).toEqual({
      score: { gte: 3, lte: 10 },
      done: true,
      due: { gte: "2026-11-21", lte: "2026-11-21T23:59:59.999Z" },
      status: "todo",
    });
    expect(serverFilterOf(columns, { score: { gte: "many" } }).problems).toEqual({ score: "Enter a number, like 42 or 3.5." });
    expect(serverFilterOf(columns, {}).filter).toBeUndefined();
  });

  it("filters text by a part of it, kept in the address, for text and link columns only", () => {
    const state = gridStateOf(new URLSearchParams("has.title=milk&has.score=3"));
    expect(state.filters).toEqual({ title: { has: "milk" }, score: { has: "3" } });
    expect(searchOf(new URLSearchParams("tab=x"), state).toString()).toBe("tab=x&has.title=milk&has.score=3");
    // A part of a number means nothing: that one is not in force.
    expect(serverFilterOf(columns, state.filters)).toEqual({ filter: { title: { contains: "milk" } }, problems: {} });
    expect(filterSummary(col("title"), { has: "milk" })).toBe("title contains “milk”");
    expect(serverFilterOf(columns, { link: { has: "example" } }).filter).toEqual({ link: { contains: "example" } });
  });

  it("says each filter in words", () => {
    expect(filterSummary(col("score"), { gte: "3" })).toBe("score ≥ 3");
    expect(filterSummary(col("due"), { gte: "2026-11-01", lte: "2026-11-30" })).toBe(
      `due from ${formatDateCell("2026-11-01")} to ${formatDateCell("2026-11-30")}`,
    );
    expect(filterSummary(col("done"), { eq: "false" })).toBe("done is No");
  });
});

describe("conflicts on a row", () => {
  it("compares the person's change and the other side's, column by column", () => {
    const base = { title: "Milk", score: 3 };
    const cmp = compareRow(columns.slice(0, 2), base, { score: 5 }, { title: "Milk (agent)", score: 3 });
    expect(cmp.map((c) => [c.column.name, c.iChanged, c.theyChanged, c.mine, c.theirs])).toEqual([
      ["title", false, true, "Milk", "Milk (agent)"],
      ["score", true, false, 5, 3],
    ]);
    expect(nameList(["a", "b", "c"])).toBe("“a”, “b” and “c”");
  });
});

describe("tables on a page", () => {
  const page: EditablePage = {
    slug: "plan",
    version: 2,
    title: "Plan",
    summary: "",
    parts: [
      { kind: "markdown", body: "# Plan", position: 0 },
      { kind: "table_view", body: JSON.stringify({ limit: 5, collection: "tasks" }), position: 1 },
    ],
  };

  it("reads a page's table views in order, with their keys in one order", () => {
    expect(tableSpecsOf(page.parts)).toEqual([{ collection: "tasks", limit: 5 }]);
    expect(JSON.stringify(canonicalSpec({ limit: 3, sort: { direction: "asc", column: "a" }, collection: "t", columns: [] }))).toBe(
      '{"collection":"t","sort":{"column":"a","direction":"asc"},"limit":3}',
    );
  });

  it("sends the tables only when they changed", () => {
    const draft = draftOf(page);
    expect(isEmptyUpdate(updateInputFor(page, draft))).toBe(true);
    const added = { ...draft, tables: tablesText([...tablesOf(draft), { collection: "scores" }]) };
    expect(updateInputFor(page, added)).toEqual({
      slug: "plan",
      expected_version: 2,
      tables: [{ collection: "tasks", limit: 5 }, { collection: "scores" }],
    });
  });

  it("keeps the other side's tables when only the text was mine", () => {
    const base = draftOf(page);
    const mine = { ...base, body: "# Plan v2" };
    const theirs = { ...base, tables: "[]" };
    expect(keepMine(base, mine, theirs)).toEqual({ ...mine, tables: "[]" });
  });

  it("brings back a draft kept before pages had tables without dropping the page's tables", () => {
    const current = draftOf(page);
    const restored = storedAsDraft({ title: "T", summary: "", body: "b", tables: null, baseVersion: 1, savedAt: "" }, current);
    expect(restored.tables).toBe(current.tables);
  });
});

describe("table events in the activity", () => {
  it("names the table and how many rows were added", () => {
    const at = (type: string, label: string) => describeEvent({ type, target: { kind: "collection", id: "col_1", label } });
    expect(at("rows.inserted", "reading-list (+5)")).toEqual({
      verb: "added 5 rows to",
      target: { text: "reading-list", kind: "table", slug: "reading-list" },
      suffix: "",
    });
    expect(at("rows.inserted", "tasks (+1)").verb).toBe("added 1 row to");
    expect(at("row.updated", "tasks").target).toEqual({ text: "tasks", kind: "table", slug: "tasks" });
    // Current servers name the table by its title, link it by slug, and count a run of changes.
    const named = { kind: "collection", id: "col_1", label: "Reading list", slug: "reading-list" };
    expect(describeEvent({ type: "rows.inserted", target: named, count: 12 })).toEqual({
      verb: "added 12 rows to",
      target: { text: "Reading list", kind: "table", slug: "reading-list" },
      suffix: "",
    });
    expect(describeEvent({ type: "row.updated", target: named, count: 3 }).verb).toBe("updated 3 rows in");
    expect(describeEvent({ type: "row.deleted", target: named, count: 1 }).verb).toBe("deleted a row from");
    expect(describeEvent({ type: "page.updated", target: { kind: "page", id: "p", label: "Trail log", slug: "trail-log" } }).target).toEqual({
      text: "Trail log",
      kind: "page",
      slug: "trail-log",
    });
    expect(describeEvent({ type: "page.updated", target: { kind: "page", id: "p", label: "Gone page", slug: null } }).target?.kind).toBe("page-gone");
  });
});
