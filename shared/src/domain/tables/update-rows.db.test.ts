// A pasted block of cells: one call, each row's change compare-and-swap on its version, new
// rows after; bad input writes nothing, a row someone changed meanwhile is left as they left
// it and reported with what it holds now, while the rest of the block lands.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { testDatabase, testDeps, type TestDatabase, type TestDeps } from "../../testing/index";
import type { Principal } from "../access";
import { findOrCreateConfirmedUser } from "../users";
import { createCollection } from "./create-collection";
import { insertRows } from "./insert-rows";
import { listRows } from "./list-rows";
import { updateRow } from "./update-row";
import { updateRows } from "./update-rows";

let database: TestDatabase;
let deps: TestDeps<TestDatabase>;
let principal: Principal;

beforeAll(async () => {
  database = await testDatabase("batch");
  deps = testDeps(database);
  principal = { kind: "user", user: await findOrCreateConfirmedUser(deps, "batch@example.com") };
});
afterAll(async () => {
  await database.drop();
});

let n = 0;
async function table(): Promise<{ collection: string; ids: string[] }> {
  const collection = `t${++n}`;
  await createCollection(deps, principal, {
    slug: collection,
    name: collection,
    kind: "table",
    columns: [
      { name: "title", type: "text", required: true },
      { name: "points", type: "number" },
      { name: "done", type: "boolean" },
    ],
  });
  const { row_ids } = await insertRows(deps, principal, { collection, rows: [{ title: "a" }, { title: "b" }, { title: "c" }] });
  return { collection, ids: row_ids };
}

async function values(collection: string) {
  const { rows } = await listRows(deps, principal, { collection });
  return rows.map((r): Record<string, unknown> => ({ ...r.values, v: r.version }));
}

async function rejected(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

describe("updateRows (a pasted block)", () => {
  it("writes every row's cells and the new rows in one call, each row one new version", async () => {
    const { collection, ids } = await table();
    const out = await updateRows(deps, principal, {
      collection,
      changes: [
        { rowId: ids[0] as string, expectedVersion: 1, values: { points: 3, done: true } },
        { rowId: ids[1] as string, expectedVersion: 1, values: { points: 5 } },
      ],
      rows: [{ title: "d", points: 8 }],
    });
    expect(out.conflicts).toEqual([]);
    expect(out.updated.map((r) => [r.row_id, r.version])).toEqual([
      [ids[0], 2],
      [ids[1], 2],
    ]);
    expect(out.inserted).toHaveLength(1);
    expect(await values(collection)).toEqual([
      { title: "a", points: 3, done: true, v: 2 },
      { title: "b", points: 5, done: null, v: 2 },
      { title: "c", points: null, done: null, v: 1 },
      { title: "d", points: 8, done: null, v: 1 },
    ]);
  });

  it("leaves a row someone changed meanwhile as they left it, reports it with its values now, and writes the rest", async () => {
    const { collection, ids } = await table();
    await updateRow(deps, principal, { collection, rowId: ids[1] as string, values: { points: 99 } });
    const out = await updateRows(deps, principal, {
      collection,
      changes: [
        { rowId: ids[0] as string, expectedVersion: 1, values: { points: 1 } },
        { rowId: ids[1] as string, expectedVersion: 1, values: { points: 2 } },
        { rowId: ids[2] as string, expectedVersion: 1, values: { points: 3 } },
      ],
      rows: [],
    });
    expect(out.updated.map((r) => r.row_id)).toEqual([ids[0], ids[2]]);
    expect(out.conflicts).toHaveLength(1);
    expect(out.conflicts[0]).toMatchObject({ row_id: ids[1], expected_version: 1, row: { version: 2, values: { title: "b", points: 99 } } });
    expect((await values(collection)).map((r) => r.points)).toEqual([1, 99, 3]);
  });

  it("writes nothing when any cell is wrong for its column, naming the cell", async () => {
    const { collection, ids } = await table();
    const err = await rejected(
      updateRows(deps, principal, {
        collection,
        changes: [
          { rowId: ids[0] as string, expectedVersion: 1, values: { points: 1 } },
          { rowId: ids[1] as string, expectedVersion: 1, values: { points: "lots" } },
        ],
        rows: [{ title: "new" }],
      }),
    );
    expect(err.code).toBe("invalid_request");
    expect(err.details?.issues?.[0]).toMatchObject({ path: "changes.1.values.points", code: "not_number" });
    const required = await rejected(updateRows(deps, principal, { collection, changes: [], rows: [{ points: 4 }] }));
    expect(required.details?.issues?.[0]).toMatchObject({ path: "rows.0.title", code: "required" });
    expect(await values(collection)).toEqual([
      { title: "a", points: null, done: null, v: 1 },
      { title: "b", points: null, done: null, v: 1 },
      { title: "c", points: null, done: null, v: 1 },
    ]);
  });

  it("refuses an empty batch, a row named twice, a row of another table and an unknown column", async () => {
    const { collection, ids } = await table();
    const other = await table();
    expect((await rejected(updateRows(deps, principal, { collection, changes: [], rows: [] }))).details?.issues?.[0]).toMatchObject({ code: "too_few" });
    const twice = await rejected(
      updateRows(deps, principal, {
        collection,
        changes: [
          { rowId: ids[0] as string, expectedVersion: 1, values: { points: 1 } },
          { rowId: ids[0] as string, expectedVersion: 1, values: { points: 2 } },
        ],
        rows: [],
      }),
    );
    expect(twice.details?.issues?.[0]).toMatchObject({ path: "changes.1.row_id", code: "duplicate" });
    const foreign = await rejected(
      updateRows(deps, principal, { collection, changes: [{ rowId: other.ids[0] as string, expectedVersion: 1, values: {} }], rows: [] }),
    );
    expect(foreign.code).toBe("not_found");
    const unknown = await rejected(
      updateRows(deps, principal, { collection, changes: [{ rowId: ids[0] as string, expectedVersion: 1, values: { nope: 1 } }], rows: [] }),
    );
    expect(unknown.details?.issues?.[0]).toMatchObject({ path: "changes.0.values.nope", code: "unknown_column" });
    expect((await values(collection)).every((r) => r.v === 1)).toBe(true);
    expect((await values(other.collection)).every((r) => r.v === 1)).toBe(true);
  });
});
