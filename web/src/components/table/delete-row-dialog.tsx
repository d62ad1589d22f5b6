// Deleting a row asks first, and deletes only the version the person saw: when someone
// changed it meanwhile, the newest values are shown and deleting needs a second yes.
import { useState } from "react";
import type { Directory } from "../../lib/actors";
import { describeError, isNotFound, isVersionConflict } from "../../lib/errors";
import { rowText } from "../../lib/table/row-conflicts";
import { type Column, type Row } from "../../lib/table/types";
import { ActorName } from "../actor-name";
import { ConfirmDialog } from "../confirm-dialog";
import { TimeAgo } from "../time-ago";
import type { TheirRow } from "./row-conflict";
import { useDeleteRow, useFetchNewest, usePatchRows, useRefreshTable } from "./use-table";
import "./delete-row-dialog.css";

export interface DeleteTarget {
  row: Row;
  name: string;
}

export function DeleteRowDialog({
  workspace,
  collection,
  columns,
  target,
  directory,
  onClose,
  announce,
}: {
  workspace: string;
  collection: string;
  columns: Column[];
  target: DeleteTarget | null;
  directory: Directory;
  onClose: () => void;
  announce: (message: string) => void;
}) {
  const remove = useDeleteRow();
  const refresh = useRefreshTable(workspace, collection);
  const patch = usePatchRows(workspace, collection);
  const fetchNewest = useFetchNewest(workspace, collection);
  const [changed, setChanged] = useState<TheirRow | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [gone, setGone] = useState(false);

  const close = () => {
    remove.reset();
    setChanged(null);
    setProblem(null);
    setGone(false);
    onClose();
  };

  const confirm = () => {
    if (!target) return;
    const rowId = target.row.row_id;
    const expected = changed?.version ?? target.row.version;
    setProblem(null);
    remove.mutate(
      { workspace, collection, row_id: rowId, expected_version: expected },
      {
        onSuccess: () => {
          patch(rowId, null);
          void refresh(rowId);
          announce(`Deleted “${target.name}”.`);
          close();
        },
        onError: (err) => {
          if (!isVersionConflict(err) && !isNotFound(err)) {
            setProblem(describeError(err));
            return;
          }
          void showNewest(rowId);
        },
      },
    );
  };

  /** The row changed (or went) since the person saw it: show what it is now. */
  const showNewest = async (rowId: string) => {
    try {
      const newest = await fetchNewest(rowId);
      remove.reset();
      if (!newest || newest.deleted) {
        patch(rowId, null);
        void refresh(rowId);
        setGone(true);
        return;
      }
      setChanged({ version: newest.version, values: newest.values, deleted: false, actor: newest.actor, at: newest.created_at });
    } catch (fetchErr) {
      setProblem(describeError(fetchErr));
    }
  };

  return (
    <ConfirmDialog
      open={target !== null}
      title={changed ? "This row changed meanwhile" : `Delete “${target?.name ?? ""}”?`}
      confirmLabel={gone ? "Close" : changed ? `Delete version ${changed.version} anyway` : "Delete row"}
      pendingLabel="Deleting…"
      pending={remove.isPending}
      error={gone ? null : problem}
      onCancel={close}
      onConfirm={gone ? close : confirm}
    >
      {gone ? (
        <p>Someone else deleted this row already. Its versions stay in its history.</p>
      ) : changed ? (
        <>
          <p>
            <ActorName actor={changed.actor} directory={directory} /> saved version {changed.version} <TimeAgo iso={changed.at} />. It now reads:
          </p>
          <p className="dialog__values">{rowText(columns, changed.values ?? {}) || "(all empty)"}</p>
          <p>Delete it anyway? Its versions stay in the row’s history.</p>
        </>
      ) : target ? (
        <>
          <p className="dialog__values">{rowText(columns, target.row.values) || "(all empty)"}</p>
          <p>The row leaves the table and every page that shows it. Its versions stay in its history.</p>
        </>
      ) : null}
    </ConfirmDialog>
  );
}
