// Saving an edited row: each save says which version it builds on (expected_version). When
// someone saved or deleted the row meanwhile, the newest version is fetched so that both
// sides can be shown and the person chooses (see RowConflict).
import { useState } from "react";
import { describeError, isNotFound, isVersionConflict } from "../../../lib/errors";
import { rowProblemsOf } from "../../../lib/table/server-problems";
import { type Column, type RowValues } from "../../../lib/table/types";
import type { TheirRow } from "../row-conflict";
import { useFetchNewest, useInsertRows, usePatchRows, useRefreshTable, useUpdateRow } from "../use-table";

export interface RowConflictState {
  theirs: TheirRow;
  /** The columns the person changed, with their values (not saved). */
  mine: RowValues;
}

export function useRowSave({
  workspace,
  collection,
  columns,
  rowId,
  rowName,
  announce,
  onSaved,
  onRefused,
  setOther,
}: {
  workspace: string;
  collection: string;
  columns: Column[];
  rowId: string;
  rowName: string;
  announce: (message: string) => void;
  onSaved: (rowId: string) => void;
  /** The server refused the values (not a conflict): show why. */
  onRefused: (err: unknown) => void;
  /** The message above the buttons (null clears it). */
  setOther: (message: string | null) => void;
}) {
  const [conflict, setConflict] = useState<RowConflictState | null>(null);
  const update = useUpdateRow();
  const insert = useInsertRows();
  const refresh = useRefreshTable(workspace, collection);
  const patch = usePatchRows(workspace, collection);
  const fetchNewest = useFetchNewest(workspace, collection);

  const showConflict = async (mine: RowValues) => {
    try {
      const newest = await fetchNewest(rowId);
      if (!newest) {
        setOther("This row isn’t there any more. Copy your values before closing.");
        return;
      }
      update.reset();
      setConflict({
        theirs: { version: newest.version, values: newest.values, deleted: newest.deleted, actor: newest.actor, at: newest.created_at },
        mine,
      });
    } catch (err) {
      setOther(`Someone changed this row meanwhile, and its newest version didn’t load. ${describeError(err)}`);
    }
  };

  /** Saves `values` (the changed columns) over `expectedVersion`. */
  const send = (values: RowValues, expectedVersion: number) => {
    setOther(null);
    update.mutate(
      { workspace, collection, row_id: rowId, values, expected_version: expectedVersion },
      {
        onSuccess: (saved) => {
          patch(saved.row_id, saved);
          void refresh(saved.row_id);
          announce(`Saved “${rowName}” as version ${saved.version}.`);
          onSaved(saved.row_id);
        },
        onError: (err) => {
          if (isVersionConflict(err) || isNotFound(err)) {
            void showConflict(values);
            return;
          }
          onRefused(err);
        },
      },
    );
  };

  /** The row was deleted meanwhile: adds it back as a new row with `values`. */
  const addBack = (values: RowValues) => {
    setOther(null);
    insert.mutate(
      { workspace, collection, rows: [values] },
      {
        onSuccess: ({ row_ids }) => {
          void refresh();
          announce(`Added “${rowName}” back as a new row.`);
          onSaved(row_ids[0] ?? rowId);
        },
        onError: (err) => setOther(rowProblemsOf(err, columns).other ?? describeError(err)),
      },
    );
  };

  return { conflict, setConflict, send, addBack, updating: update.isPending, saving: update.isPending || insert.isPending };
}
