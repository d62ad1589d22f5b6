import type { RowDoc } from "../../db/index";
import { AppError } from "../../errors";
import type { RowView } from "../../schemas/tables";
import { actorOf, type Principal, readerIn } from "../access";
import { EVENT_BYTES, RECORD_OVERHEAD_BYTES } from "../limits";
import { versionedWrite, type WriteDeps } from "../versioned-write";
import { assertRowSize, checkRow, rowBytes } from "./row-values";
import { ROWS } from "./row-versions";
import { resolveTable, type TableRef } from "./table-store";
import { rowView } from "./table-view";

/**
 * Changes some of a row's values (the others are kept), as one new version through the one
 * write protocol (versioned-write.ts): with `expectedVersion`, a row that has moved on or is
 * being changed at this moment is a `version_conflict`; without it, the change waits its turn.
 */
export async function updateRow(
  deps: WriteDeps,
  principal: Principal,
  input: TableRef & { rowId: string; values: unknown; expectedVersion?: number | undefined },
): Promise<RowView> {
  const { config } = deps;
  const { ws, table } = await resolveTable(deps, principal, input, "write");
  const { doc } = await versionedWrite<RowDoc, { table: typeof table }>(deps, ROWS, {
    expectedVersion: input.expectedVersion,
    actor: actorOf(principal),
    async read() {
      const row = await deps.database.c.rows.findOne({ _id: input.rowId });
      if (!row || row.collectionId !== table._id) throw new AppError("not_found", "No such row.");
      return { doc: row, ws };
    },
    next(row) {
      const values = checkRow(table, input.values, "values", row.values);
      const bytes = rowBytes(values);
      assertRowSize(bytes, config.ROW_MAX_BYTES, "values", "the row would be");
      // The row's growth, its new revision and the event.
      return {
        set: { values, bytes },
        delta: { pages: 0, bytes: bytes - row.bytes + RECORD_OVERHEAD_BYTES + bytes + EVENT_BYTES },
        event: "row.updated",
        hint: { table },
      };
    },
  });
  return rowView(doc, readerIn(principal, ws));
}
