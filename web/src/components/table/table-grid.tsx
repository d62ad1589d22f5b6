// The grid: a real <table> with a header per column (click to sort), typed cells, who last
// changed each row and when, and per-row actions. One row is edited at a time, in place
// (or in a stacked form on phones); new rows are added at the top.
import { Fragment, useRef } from "react";
import type { Directory } from "../../lib/actors";
import { type SortState } from "../../lib/table/grid-state";
import { rowLabel } from "../../lib/table/row-conflicts";
import { type RowInputs } from "../../lib/table/type-value";
import { type Column, type Row } from "../../lib/table/types";
import { useAnnouncer } from "../../lib/use-announcer";
import { NARROW, useMediaQuery } from "../../lib/use-media-query";
import { GridHead } from "./grid-head";
import { DiscardedValues, GridEmpty } from "./grid-notes";
import { GridRow } from "./grid-row";
import { NewRowEditor } from "./row-editor/new-row-editor";
import { RowEditor } from "./row-editor/row-editor";
import { useRowEditing } from "./use-row-editing";
import "./table-grid.css";

export function TableGrid({
  workspace,
  collection,
  tableName,
  columns,
  rows,
  sort,
  onSort,
  canWrite,
  directory,
  adding,
  onAddingDone,
  onHistory,
  onDelete,
  busy,
  filtered,
  onClearFilters,
  onStartAdding,
  newRowDefaults,
}: {
  workspace: string;
  collection: string;
  tableName: string;
  columns: Column[];
  rows: Row[];
  sort: SortState | null;
  onSort: (sort: SortState | null) => void;
  canWrite: boolean;
  directory: Directory;
  adding: boolean;
  onAddingDone: () => void;
  onHistory: (row: Row, name: string) => void;
  onDelete: (row: Row, name: string) => void;
  /** A new sort or filter is loading. */
  busy: boolean;
  filtered: boolean;
  onClearFilters: () => void;
  onStartAdding: () => void;
  newRowDefaults: RowInputs;
}) {
  const narrow = useMediaQuery(NARROW);
  const layout = narrow ? "stacked" : "cells";
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const { editing, startEditing, stopEditing, saved, flash, discarded, setDiscarded } = useRowEditing(canWrite, bodyRef);
  const [message, announce] = useAnnouncer();
  const colSpan = columns.length + 2;
  const editorProps = { workspace, collection, columns, layout, colSpan, directory, announce } as const;

  // The row being edited stays on screen even if a refresh moved it out of the list.
  const shown = editing && !rows.some((r) => r.row_id === editing.row.row_id) ? [editing.row, ...rows] : rows;
  const latestOf = (rowId: string) => rows.find((r) => r.row_id === rowId) ?? null;
  const sortLabel = sort ? `, sorted by ${sort.column}, ${sort.direction === "asc" ? "ascending" : "descending"}` : "";
  const discardedLatest = discarded ? latestOf(discarded.row.row_id) : null;

  return (
    <div className="grid-area">
      <p className="sr-only" role="status" aria-live="polite">
        {message}
      </p>
      {discarded ? (
        <DiscardedValues
          name={discarded.name}
          columns={columns}
          values={{ ...discarded.base, ...discarded.mine }}
          onEditAgain={canWrite && discardedLatest ? () => startEditing(discardedLatest, undefined, discarded.mine) : null}
          onDismiss={() => setDiscarded(null)}
        />
      ) : null}

      <div className="grid-scroll" role="region" aria-label={`${tableName}, scrollable`} tabIndex={0}>
        <table className="grid" aria-busy={busy || undefined}>
          <caption className="sr-only">
            {tableName}
            {sortLabel}
          </caption>
          <GridHead columns={columns} sort={sort} onSort={onSort} />
          <tbody ref={bodyRef}>
            {adding && canWrite ? (
              <NewRowEditor key="__new" {...editorProps} rowName="new row" onCancel={onAddingDone} onAdded={flash} defaults={newRowDefaults} />
            ) : null}
            {shown.map((row, index) => {
              const name = rowLabel(columns, row.values, `Row ${index + 1}`);
              const isEditing = editing?.row.row_id === row.row_id;
              const display = (
                <GridRow
                  row={row}
                  name={name}
                  columns={columns}
                  directory={directory}
                  canWrite={canWrite}
                  saved={saved === row.row_id}
                  editingThis={isEditing}
                  editingAny={Boolean(editing)}
                  onEdit={(focus) => startEditing(row, focus)}
                  onHistory={() => onHistory(row, name)}
                  onDelete={() => onDelete(row, name)}
                />
              );
              if (!isEditing || !editing) return <Fragment key={row.row_id}>{display}</Fragment>;
              return (
                <Fragment key={row.row_id}>
                  {layout === "stacked" ? display : null}
                  <RowEditor
                    {...editorProps}
                    rowName={name}
                    row={editing.row}
                    latest={latestOf(row.row_id)}
                    initial={editing.initial}
                    focus={editing.focus}
                    onCancel={() => stopEditing(row.row_id)}
                    onSaved={(rowId) => {
                      stopEditing(rowId);
                      flash(rowId);
                    }}
                    onTakeTheirs={(mine, base) => {
                      stopEditing(row.row_id);
                      setDiscarded({ row, name, mine, base });
                    }}
                  />
                </Fragment>
              );
            })}
            {shown.length === 0 && !adding ? (
              <GridEmpty colSpan={colSpan} filtered={filtered} canWrite={canWrite} onClearFilters={onClearFilters} onStartAdding={onStartAdding} />
            ) : null}
          </tbody>
        </table>
      </div>
    </div>
  );
}
