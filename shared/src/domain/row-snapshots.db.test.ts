// list_rows cut from a table's rows in memory must give exactly what the database gives for
// the same query: every filter shape, sort and cursor, and a change is seen at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabase, testDeps, type TestDatabase, type TestDeps } from "../testing/index";
import type { Principal } from "./access";
import { ROW_CHANGES_KEPT, rowSnapshot } from "./row-snapshots";
import { addColumn } from "./tables/add-column";
import { createCollection } from "./tables/create-collection";
import { deleteRow } from "./tables/delete-row";
import { insertRows } from "./tables/insert-rows";
import { listRows, type RowFilter } from "./tables/list-rows";
import { renameColumn } from "./tables/rename-column";
import { updateRow } from "./tables/update-row";
import { countUsage } from "./limits";
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
    score: i % 7 === 0 ? null : ((i * 37) % 50) - 10 + (i % 3) / 4,
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
const SORTS: (Query["sort"] | undefined)[] = [
  undefined,
  ...["title", "score", "done", "due", "status"].flatMap((column) => [
    { column, direction: "asc" as const },
    { column, direction: "desc" as const },
  ]),
];

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
    const rest = await listRows(cached, principal, {
      collection: "mix",
      sort: { column: "score", direction: "desc" },
      cursor: first.next_cursor ?? "",
      limit: 500,
    });
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

  /** Whole-table reads of the rows (a find on `rows` by collectionId) made while `run` runs. */
  async function wholeTableReads(run: () => Promise<void>): Promise<number> {
    let n = 0;
    const seen = (e: { commandName: string; command: Record<string, unknown> }) => {
      const filter = e.command.filter as Record<string, unknown> | undefined;
      if (e.commandName === "find" && e.command.find === "rows" && filter && "collectionId" in filter) n++;
    };
    database.client.on("commandStarted", seen);
    try {
      await run();
    } finally {
      database.client.off("commandStarted", seen);
    }
    return n;
  }

  async function sameAsDatabase(): Promise<void> {
    for (const q of [QUERIES[0], QUERIES[1], QUERIES[4]] as Query[]) {
      for (const sort of [undefined, { column: "score", direction: "desc" as const }]) {
        const query = { ...q, ...(sort ? { sort } : {}) };
        expect(await walk(cached, query, 500), JSON.stringify(query)).toEqual(await walk(exact, query, 500));
      }
    }
  }

  it("catches up with another process's changes by reading only the rows they name, by _id", async () => {
    await listRows(cached, principal, { collection: "mix", limit: 1 }); // the copy is current
    const some = (await listRows(exact, principal, { collection: "mix", limit: 5 })).rows;
    const [a, b, c] = some;
    if (!a || !b || !c) throw new Error("no rows");
    // Another process: an update, an insert of three rows, a delete, a second update of one row.
    await updateRow(exact, principal, { collection: "mix", rowId: a.row_id, values: { status: "done", score: 99 } });
    await insertRows(exact, principal, { collection: "mix", rows: [{ title: "n1", score: 1 }, { title: "n2", status: "todo" }, { title: "n3" }] });
    await deleteRow(exact, principal, { collection: "mix", rowId: b.row_id });
    await updateRow(exact, principal, { collection: "mix", rowId: a.row_id, values: { title: "again" } });
    expect(await wholeTableReads(sameAsDatabase)).toBe(0);
    const ids = (await listRows(cached, principal, { collection: "mix", limit: 500 })).rows.map((r) => r.row_id);
    expect(ids).not.toContain(b.row_id);
    expect(ids).toContain(c.row_id);

    // A change to every row (a column renamed) names none: the copy is read again whole, and is exact.
    await renameColumn(exact, principal, { collection: "mix", column: "status", name: "state" });
    let fromMemory: Awaited<ReturnType<typeof listRows>> | undefined;
    expect(
      await wholeTableReads(async () => void (fromMemory = await listRows(cached, principal, { collection: "mix", filter: { state: "todo" }, limit: 500 }))),
    ).toBe(1);
    expect(fromMemory?.rows).toEqual((await listRows(exact, principal, { collection: "mix", filter: { state: "todo" }, limit: 500 })).rows);
    await renameColumn(exact, principal, { collection: "mix", column: "state", name: "status" });
    await addColumn(exact, principal, { collection: "mix", column: { name: "extra", type: "text" } });
    await sameAsDatabase();
  }, 120_000);

  it("carries every sort order it built across a catch-up, each equal to the database's", async () => {
    for (const sort of SORTS) await listRows(cached, principal, { collection: "mix", ...(sort ? { sort } : {}), limit: 1 }); // every order built
    const rows = (await listRows(exact, principal, { collection: "mix", limit: 500 })).rows;
    const pick = (i: number) => (rows[i] as { row_id: string }).row_id;
    // Another process moves rows within every order, adds rows at both ends and with empty cells, deletes one.
    await updateRow(exact, principal, {
      collection: "mix",
      rowId: pick(2),
      values: { title: "\u{10000} moved", score: -1e9, done: true, due: "2026-12-31", status: "done" },
    });
    await updateRow(exact, principal, { collection: "mix", rowId: pick(7), values: { title: null, score: null, done: null, due: null, status: null } });
    await insertRows(exact, principal, {
      collection: "mix",
      rows: [{ title: "Alpha", score: 1e9, done: false, due: "2020-01-01", status: "todo" }, { title: null }, { title: "alpha", score: 5 }],
    });
    await deleteRow(exact, principal, { collection: "mix", rowId: pick(11) });
    await updateRow(exact, principal, { collection: "mix", rowId: pick(2), values: { score: 5 } });
    const reads = await wholeTableReads(async () => {
      for (const q of [QUERIES[0], QUERIES[2], QUERIES[7]] as Query[]) {
        for (const sort of SORTS) {
          const query = { ...q, ...(sort ? { sort } : {}) };
          expect(await walk(cached, query, 70), JSON.stringify(query)).toEqual(await walk(exact, query, 70));
        }
      }
    });
    expect(reads).toBe(0);
    // The orders came along with the copy rather than being sorted again from scratch.
    const table = await database.c.collections.findOne({ slug: "mix" });
    if (!table) throw new Error("no table");
    expect((await rowSnapshot(cached, table))?.sorted.size).toBe(SORTS.length - 1);
  }, 240_000);

  it("reads the table whole when it is further behind than the changes written down", async () => {
    await listRows(cached, principal, { collection: "mix", limit: 1 });
    const [a] = (await listRows(exact, principal, { collection: "mix", limit: 1 })).rows;
    if (!a) throw new Error("no rows");
    for (let i = 0; i <= ROW_CHANGES_KEPT; i++) await updateRow(exact, principal, { collection: "mix", rowId: a.row_id, values: { score: i } });
    // Only the last ROW_CHANGES_KEPT notes are kept.
    expect(
      await database.c.rowChanges.countDocuments({ collectionId: (await database.c.collections.findOne({ slug: "mix" }))?._id ?? "" }),
    ).toBeLessThanOrEqual(ROW_CHANGES_KEPT);
    expect(await wholeTableReads(sameAsDatabase)).toBeGreaterThan(0);
    const row = (await listRows(cached, principal, { collection: "mix", limit: 500 })).rows.find((r) => r.row_id === a.row_id);
    expect(row?.values.score).toBe(ROW_CHANGES_KEPT);
  }, 240_000);

  it("keeps a row's last REVISIONS_KEPT revisions, dropping each by its id, and the usage counter stays equal to a recount", async () => {
    const kept = testDeps(database, { REVISIONS_KEPT: "3", SECRET_KEY: exact.config.SECRET_KEY });
    const [row] = (await listRows(exact, principal, { collection: "mix", limit: 1 })).rows;
    if (!row) throw new Error("no rows");
    const start = row.version;
    for (let i = 0; i < 6; i++) await updateRow(kept, principal, { collection: "mix", rowId: row.row_id, values: { title: `rev ${i}` } });
    const versions = (await database.c.rowRevisions.find({ rowId: row.row_id }).toArray()).map((r) => r.version).sort((x, y) => x - y);
    // The three newest stay (older ones up to start - 3 may predate this test's limit of 3).
    expect(versions.slice(-3)).toEqual([start + 4, start + 5, start + 6]);
    expect(versions.filter((v) => v > start)).toHaveLength(3);
    const ws = await database.c.workspaces.findOne({ _id: (await database.c.collections.findOne({ slug: "mix" }))?.workspaceId ?? "" });
    expect(ws?.usage.bytes).toBe((await countUsage(exact, ws?._id ?? "")).bytes);
  });
});
