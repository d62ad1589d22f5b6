import { AppError } from "../../errors";
import type { RowRevisionView } from "../../schemas/tables";
import { actorForReader, type Principal, readerIn } from "../access";
import type { StoreDeps } from "../deps";
import { resolveTable, type TableRef } from "./table-store";

/** A row's kept versions, newest first (a deleted row's tombstone among them). */
export async function rowHistory(deps: StoreDeps, principal: Principal, input: TableRef & { rowId: string }): Promise<RowRevisionView[]> {
  const { ws, table } = await resolveTable(deps, principal, input, "read");
  const reader = readerIn(principal, ws);
  const revisions = (await deps.database.c.rowRevisions.find({ rowId: input.rowId }).sort({ version: -1 }).limit(200).toArray()).filter(
    (r) => r.collectionId === table._id,
  );
  // A row this table never had is not found, as everywhere else (an empty history would say it exists).
  if (revisions.length === 0) throw new AppError("not_found", "No such row in this table.");
  return revisions.map((r) => ({
    version: r.version,
    values: r.values,
    deleted: r.deleted,
    actor: actorForReader(r.actor, reader),
    created_at: r.createdAt.toISOString(),
  }));
}
