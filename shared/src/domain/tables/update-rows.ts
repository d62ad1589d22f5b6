import { AppError, invalidField } from "../../errors";
import type { UpdateRowsView } from "../../schemas/table-batch";
import { BATCH_MAX_ROWS } from "../../schemas/table-batch";
import { readerIn, type Principal } from "../access";
import type { WriteDeps } from "../versioned-write";
import { insertRows } from "./insert-rows";
import { assertRowSize, checkRow, rowBytes } from "./row-values";
import { resolveTable, type TableRef } from "./table-store";
import { rowView } from "./table-view";
import { updateRow } from "./update-row";

export interface RowChange {
  rowId: string;
  /** The version the values build on. */
  expectedVersion: number;
  values: unknown;
}

/** How many row writes of a batch run at once. */
const PARALLEL = 4;

/**
 * A block of cells written at once (a paste): changes to existing rows and rows added after
 * them. Everything is checked before anything is written, so bad input writes nothing. The
 * new rows go in all or nothing (insert-rows.ts); then each change is its own
 * compare-and-swap write of its row (update-row.ts): a row someone changed after the version
 * named, or is changing at this moment, is left as it is and reported with what it holds now,
 * while the other rows of the block land.
 */
export async function updateRows(deps: WriteDeps, principal: Principal, input: TableRef & { changes: RowChange[]; rows: unknown[] }): Promise<UpdateRowsView> {
  const { changes, rows } = input;
  if (changes.length + rows.length === 0) throw invalidField("changes", "too_few", "send at least one change or one new row", { min: 1 });
  if (changes.length > BATCH_MAX_ROWS) throw invalidField("changes", "too_many", `send at most ${BATCH_MAX_ROWS} changes at a time`, { max: BATCH_MAX_ROWS });
  if (rows.length > BATCH_MAX_ROWS) throw invalidField("rows", "too_many", `send at most ${BATCH_MAX_ROWS} rows at a time`, { max: BATCH_MAX_ROWS });
  const seen = new Set<string>();
  changes.forEach((c, i) => {
    if (seen.has(c.rowId)) throw invalidField(`changes.${i}.row_id`, "duplicate", "names a row an earlier change names; send one change per row");
    seen.add(c.rowId);
  });

  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const found = await deps.database.c.rows.find({ _id: { $in: [...seen] }, collectionId: table._id }).toArray();
  const byId = new Map(found.map((r) => [r._id, r]));
  changes.forEach((c, i) => {
    const row = byId.get(c.rowId);
    if (!row) throw new AppError("not_found", `No such row: ${c.rowId}.`, { details: { path: `changes.${i}.row_id` } });
    assertRowSize(rowBytes(checkRow(table, c.values, `changes.${i}.values`, row.values)), deps.config.ROW_MAX_BYTES, `changes.${i}.values`, "the row would be");
  });
  rows.forEach((r, i) => assertRowSize(rowBytes(checkRow(table, r, `rows.${i}`)), deps.config.ROW_MAX_BYTES, `rows.${i}`, "is"));

  const inserted = rows.length > 0 ? (await insertRows(deps, principal, { workspace: input.workspace, collection: input.collection, rows })).row_ids : [];

  const reader = readerIn(principal, ws);
  const updated: UpdateRowsView["updated"] = [];
  const conflicts: UpdateRowsView["conflicts"] = [];
  const results: ({ ok: true; row: UpdateRowsView["updated"][number] } | { ok: false; conflict: UpdateRowsView["conflicts"][number] })[] = new Array(
    changes.length,
  );
  let next = 0;
  const worker = async () => {
    while (next < changes.length) {
      const i = next++;
      const c = changes[i] as RowChange;
      try {
        const row = await updateRow(deps, principal, {
          workspace: input.workspace,
          collection: input.collection,
          rowId: c.rowId,
          values: c.values,
          expectedVersion: c.expectedVersion,
        });
        results[i] = { ok: true, row };
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== "version_conflict") throw err;
        const now = await deps.database.c.rows.findOne({ _id: c.rowId, collectionId: table._id });
        if (!now) throw err;
        results[i] = { ok: false, conflict: { row_id: c.rowId, expected_version: c.expectedVersion, row: rowView(now, reader) } };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, changes.length) }, worker));
  for (const r of results) {
    if (r.ok) updated.push(r.row);
    else conflicts.push(r.conflict);
  }
  return { updated, inserted, conflicts };
}
