// list_rows cut from a table's rows in memory must give exactly what the database gives for
// the same query: every filter shape, sort and cursor, and a change is seen at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabase, testDeps, type TestDatabase, type TestDeps } from "../testing/index";
import type { Principal } from "./access";
import { createCollection, deleteRow, insertRows, listRows, updateRow, type RowFilter } from "./tables";
import { findOrCreateConfirmedUser } from "./users";

let database: TestDatabase;
let exact: TestDeps<TestDatabase>;
let cached: TestDeps<TestDatabase>;
let principal: Principal;

const WORDS = ["alpha", "Alpha", "ALPHA beta", "Ünïcode", "ünïcode lower", "emoji 😀", "\u{10000} astral", "\uFFFD replacement", "a.b*c", "", "zeta"];

beforeAll(async () => {
  database = await testDatabase("rowsnap");
  exact = testDeps(database); // CACHE_TTL_MS=0: every page from the database
  cached = testDeps(database, { CACHE_TTL_MS: "1000", SECRET_KEY: exact.config.SECRET_KEY });
  principal = { kind: "user", user: await findOrCreateConfirmedUser(exact, "rows@example.com") };
  await createCollection(exact, principal, {
    slug: "mix",
    name: "Mix",
    kind: "table",
    columns: [
      { name: "title", type: "text" },
      { name: "score", type: "number" },
      { name: "done", type: "boolean" },
      { name: "due", type: "date" },
      { name: "status", type: "select", options: ["todo", "doing", "done"] },
    ],
  });
  // Another table, so the copy holds only this one's rows.
  await createCollection(exact, principal, { slug: "other", name: "Other", kind: "table", columns: [{ name: "score", type: "number" }] });
  await insertRows(exact, principal, { collection: "other", rows: Array.from({ length: 50 }, (_, i) => ({ score: i })) });
  const rows = Array.from({ length: 240 }, (_, i) => ({
    title: i % 13 === 0 ? null : WORDS[i % WORDS.length],
    score: i % 7 === 0 ? null : (i * 37) % 50 - 10 + (i % 3) / 4,
    done: i % 5 === 0 ? null : i % 2 === 0,
    due: i % 6 === 0 ? null : `2026-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 27) + 1).padStart(2, "0")}`,
    status: i % 4 === 0 ? null : ["todo", "doing", "done"][i % 3],
  }));
  await insertRows(exact, principal, { collection: "mix", rows });
});
afterAll(async () => {
  await database.drop();
});

type Query = { filter?: RowFilter; sort?: { column: string; direction: "asc" | "desc" } };

/** Every row id, page by page with cursors, and the pages' sizes. */
async function walk(deps: TestDeps<TestDatabase>, q: Query, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const page = await listRows(deps, principal, { collection: "mix", ...q, cursor, limit });
    ids.push(...page.rows.map((r) => `${r.row_id}:${r.version}`));
    if (!page.next_cursor) return ids;
    cursor = page.next_cursor;
  }
  throw new Error("no end");
}

const QUERIES: Query[] = [
  {},
  { filter: { status: "todo" } },
  { filter: { status: null } },
  { filter: { done: false } },
  { filter: { score: { gte: 5 } } },
  { filter: { score: { gt: -3, lte: 20.25 } } },
  { filter: { due: { lt: "2026-06-01" } } },
  { filter: { title: { contains: "alpha" } } },
  { filter: { title: { contains: "ÜNÏ" } } },
  { filter: { title: { contains: "." } } },
  { filter: { title: { gte: "a" } } },
  { filter: { status: "done", score: { gte: 0 } } },
];
const SORTS: (Query["sort"] | undefined)[] = [undefined, ...["title", "score", "done", "due", "status"].flatMap((column) => [{ column, direction: "asc" as const }, { column, direction: "desc" as const }])];

describe("list_rows from a table's rows in memory", () => {
  it("gives exactly the database's pages for every filter shape, sort and cursor", async () => {
    let compared = 0;
    for (const q of QUERIES) {
      for (const sort of SORTS) {
        const query = { ...q, ...(sort ? { sort } : {}) };
        const fromDb = await walk(exact, query, 70);
        const fromMemory = await walk(cached, query, 70);
        expect(fromMemory, JSON.stringify(query)).toEqual(fromDb);
        compared += fromDb.length;
      }
    }
    expect(compared).toBeGreaterThan(1000);
    // A cursor from one path continues on the other: they are the same order.
    const first = await listRows(exact, principal, { collection: "mix", sort: { column: "score", direction: "desc" }, limit: 30 });
    const rest = await listRows(cached, principal, { collection: "mix", sort: { column: "score", direction: "desc" }, cursor: first.next_cursor ?? "", limit: 500 });
    const all = await listRows(exact, principal, { collection: "mix", sort: { column: "score", direction: "desc" }, limit: 500 });
    expect([...first.rows, ...rest.rows].map((r) => r.row_id)).toEqual(all.rows.map((r) => r.row_id));
  }, 240_000);

  it("sees every change at once, from any process: the table's rowsVersion says which copy is current", async () => {
    const before = await listRows(cached, principal, { collection: "mix", filter: { status: "todo" }, limit: 500 });
    // Another process (the exact deps share only the database) changes, adds and deletes rows.
    const target = before.rows[0];
    if (!target) throw new Error("no rows");
    await updateRow(exact, principal, { collection: "mix", rowId: target.row_id, values: { status: "doing" } });
    await insertRows(exact, principal, { collection: "mix", rows: [{ title: "late", status: "todo" }] });
    const gone = before.rows[1];
    if (!gone) throw new Error("no rows");
    await deleteRow(exact, principal, { collection: "mix", rowId: gone.row_id });
    const after = await listRows(cached, principal, { collection: "mix", filter: { status: "todo" }, limit: 500 });
    const ids = after.rows.map((r) => r.row_id);
    expect(ids).not.toContain(target.row_id);
    expect(ids).not.toContain(gone.row_id);
    expect(after.rows.some((r) => r.values.title === "late")).toBe(true);
    expect(ids).toEqual((await listRows(exact, principal, { collection: "mix", filter: { status: "todo" }, limit: 500 })).rows.map((r) => r.row_id));
  });
});
