// The grid: a real <table> with a header per column (click to sort, "+" to add a column),
// typed cells edited in place, who last changed each row and when, and per-row actions.
// The table model (columns, rows, cells, the focused cell and the selected block) is
// TanStack Table's (docs/decisions.md); the keys are a spreadsheet's: arrows move, Enter or
// typing edits, Enter/Tab save and move on, Escape cancels, Space ticks a checkbox,
// Delete empties, Ctrl/⌘+C copies the selected cells and Ctrl/⌘+V pastes a block from a
// spreadsheet as one batch. "Edit" on a row still opens the whole row as a form; new rows
// are added at the top.
import { useTable } from "@tanstack/react-table";
import { type ClipboardEvent, Fragment, type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import type { Directory } from "../../lib/actors";
import { type SortState } from "../../lib/table/grid-state";
import { parseTsv, planPaste } from "../../lib/table/paste";
import { rowLabel } from "../../lib/table/row-conflicts";
import { cellText } from "../../lib/table/show-value";
import { inputOf, parseInput, type RowInputs, sameCell } from "../../lib/table/type-value";
import { type Cell, type Column, type Row, type TableInfo } from "../../lib/table/types";
import { useAnnouncer } from "../../lib/use-announcer";
import { NARROW, useMediaQuery } from "../../lib/use-media-query";
import { CellConflictNote } from "./cell-conflict";
import { type After, type CellEdit } from "./grid-cell";
import { GridHead } from "./grid-head";
import { gridColumns, gridFeatures } from "./grid-model";
import { DiscardedValues, GridEmpty } from "./grid-notes";
import { GridRow } from "./grid-row";
import { NewRowEditor } from "./row-editor/new-row-editor";
import { RowEditor } from "./row-editor/row-editor";
import { AddColumn } from "./table-settings";
import { useCellWrites } from "./use-cell-writes";
import { useRefreshTable } from "./use-table";
import { useRowEditing } from "./use-row-editing";
import "./table-grid.css";

const features = gridFeatures;
const helper = gridColumns;
const META = "__meta";
const ACTIONS = "__actions";

export function TableGrid({
  workspace,
  collection,
  table: info,
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
  commentCounts = null,
  onComments,
  busy,
  filtered,
  onClearFilters,
  onStartAdding,
  newRowDefaults,
}: {
  workspace: string;
  collection: string;
  table: TableInfo;
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
  /** Open comment threads per row id, for members (null: comments are not shown). */
  commentCounts?: Record<string, number> | null;
  onComments?: (row: Row, name: string) => void;
  /** A new sort or filter is loading. */
  busy: boolean;
  filtered: boolean;
  onClearFilters: () => void;
  onStartAdding: () => void;
  newRowDefaults: RowInputs;
}) {
  const tableName = info.name;
  const narrow = useMediaQuery(NARROW);
  const layout = narrow ? "stacked" : "cells";
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const { editing, startEditing, stopEditing, saved, flash, discarded, setDiscarded } = useRowEditing(canWrite, bodyRef);
  const [message, announce] = useAnnouncer();
  const writes = useCellWrites({ workspace, collection, columns, announce });
  const refreshTable = useRefreshTable(workspace, collection);
  const [edit, setEdit] = useState<CellEdit | null>(null);
  const [addingColumn, setAddingColumn] = useState(false);
  const focusWanted = useRef(false);
  const addColumnButton = useRef<HTMLButtonElement>(null);
  const colSpan = columns.length + 2 + (canWrite ? 1 : 0);
  const editorProps = { workspace, collection, columns, layout, colSpan, directory, announce } as const;

  // The row being edited stays on screen even if a refresh moved it out of the list.
  const shown = useMemo(() => (editing && !rows.some((r) => r.row_id === editing.row.row_id) ? [editing.row, ...rows] : rows), [editing, rows]);
  const latestOf = (rowId: string) => rows.find((r) => r.row_id === rowId) ?? null;
  const sortLabel = sort ? `, sorted by ${sort.column}, ${sort.direction === "asc" ? "ascending" : "descending"}` : "";
  const discardedLatest = discarded ? latestOf(discarded.row.row_id) : null;

  const tableColumns = useMemo(
    () => [
      ...columns.map((c) => helper.accessor((r: Row): unknown => r.values[c.name] ?? null, { id: c.name, header: c.name })),
      helper.display({ id: META, enableCellSelection: false }),
      helper.display({ id: ACTIONS, enableCellSelection: false }),
    ],
    [columns],
  );
  const grid = useTable({
    features,
    columns: tableColumns,
    data: shown,
    getRowId: (r) => r.row_id,
    autoResetCellSelection: false,
    enableCellSelectionDrag: false,
  });
  const focused = grid.getFocusedCell();
  const focusedKey = focused ? `${focused.row.id}\u0000${focused.column.id}` : null;
  const modelRows = grid.getRowModel().rows;

  // The focused cell takes the keyboard focus when the person moved it with the keyboard.
  useEffect(() => {
    if (!focusWanted.current || edit) return;
    focusWanted.current = false;
    const el = bodyRef.current?.querySelector<HTMLElement>('[data-focused="true"]');
    el?.focus();
    el?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [focusedKey, edit]);

  const nameOf = (row: Row, index: number) => rowLabel(columns, row.values, `Row ${index + 1}`);
  const columnOf = (name: string) => columns.find((c) => c.name === name);

  const startCellEdit = (row: Row, column: Column, draft?: string) => {
    if (!canWrite || editing || column.type === "boolean") return;
    grid.setFocusedCell(row.row_id, column.name);
    setEdit({ rowId: row.row_id, base: row, column: column.name, draft: draft ?? inputOf(column, row.values[column.name]), problem: null });
  };

  const move = (after: After) => {
    if (after === "stay") return;
    grid.moveCellSelection(after === "down" ? "down" : after === "right" ? "right" : "left");
  };

  const commitEdit = (after: After) => {
    if (!edit) return;
    // The save builds on the version the person saw when they started typing.
    const row = edit.base;
    const column = columnOf(edit.column);
    if (!column) {
      setEdit(null);
      return;
    }
    const parsed = parseInput(column, edit.draft);
    if (!parsed.ok) {
      if (after !== "stay" || edit.problem === null) setEdit({ ...edit, problem: parsed.problem });
      return;
    }
    focusWanted.current = true;
    setEdit(null);
    move(after);
    if (!sameCell(parsed.value, row.values[column.name])) void writes.saveCells(row, { [column.name]: parsed.value });
  };

  const cancelEdit = () => {
    focusWanted.current = true;
    setEdit(null);
  };

  const toggle = (row: Row, column: Column) => void writes.saveCells(row, { [column.name]: row.values[column.name] !== true });

  const onCellKeyDown = (event: KeyboardEvent<HTMLElement>, row: Row, column: Column) => {
    if (edit || event.altKey) return;
    const mod = event.ctrlKey || event.metaKey;
    const arrows: Record<string, "up" | "down" | "left" | "right"> = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };
    const dir = arrows[event.key];
    if (dir && !mod) {
      event.preventDefault();
      focusWanted.current = true;
      if (event.shiftKey) grid.extendCellSelection(dir);
      else grid.moveCellSelection(dir);
      return;
    }
    if (!canWrite || editing) return;
    if (event.key === "Enter" || event.key === "F2") {
      event.preventDefault();
      if (column.type === "boolean") toggle(row, column);
      else startCellEdit(row, column);
    } else if (event.key === " " && column.type === "boolean") {
      event.preventDefault();
      toggle(row, column);
    } else if ((event.key === "Delete" || event.key === "Backspace") && !mod) {
      event.preventDefault();
      if (row.values[column.name] === null || row.values[column.name] === undefined) return;
      if (column.required) {
        writes.setProblem(`${column.name} can’t be empty: it’s required.`);
        return;
      }
      void writes.saveCells(row, { [column.name]: null });
    } else if (event.key.length === 1 && !mod && column.type !== "boolean" && column.type !== "select" && column.type !== "date") {
      // Typing on a cell replaces its value, as in a spreadsheet.
      event.preventDefault();
      startCellEdit(row, column, event.key);
    }
  };

  const onCopy = (event: ClipboardEvent) => {
    if (edit || (event.target as HTMLElement).closest("input, select, textarea")) return;
    const ranges = grid.getSelectedCellRangesData();
    const ids = grid.getCellSelectionColumnIds();
    const block = ranges[0];
    if (!block) return;
    const text = block
      .map((cells) =>
        cells
          .map((v, i) => {
            const col = columnOf(ids[i] ?? "");
            return (col ? cellText(col, (v as Cell) ?? null) : String(v ?? "")).replace(/[\t\n]/g, " ");
          })
          .join("\t"),
      )
      .join("\n");
    event.clipboardData.setData("text/plain", text);
    event.preventDefault();
    announce(`Copied ${block.length * (block[0]?.length ?? 0)} cells.`);
  };

  const onPaste = (event: ClipboardEvent) => {
    if (!canWrite || edit || editing || (event.target as HTMLElement).closest("input, select, textarea")) return;
    const cell = grid.getFocusedCell();
    if (!cell) return;
    const text = event.clipboardData.getData("text/plain");
    if (!text) return;
    event.preventDefault();
    const rowIndex = shown.findIndex((r) => r.row_id === cell.row.id);
    const colIndex = columns.findIndex((c) => c.name === cell.column.id);
    if (rowIndex < 0 || colIndex < 0) return;
    const plan = planPaste(columns, shown, rowIndex, colIndex, parseTsv(text));
    if (plan.problems.length > 0) {
      writes.setProblem(
        `Nothing was pasted: ${plan.problems.slice(0, 3).join("; ")}${plan.problems.length > 3 ? `; and ${plan.problems.length - 3} more` : ""}.`,
      );
      return;
    }
    if (plan.changes.length === 0 && plan.rows.length === 0) {
      announce("Nothing changed: the pasted cells hold what is already there.");
      return;
    }
    if (plan.columnsLeftOut > 0)
      announce(`${plan.columnsLeftOut} pasted column${plan.columnsLeftOut === 1 ? " is" : "s are"} past the last one and were left out.`);
    void writes.paste(plan, shown);
  };

  return (
    <div className="grid-area">
      <p className="sr-only" role="status" aria-live="polite">
        {message}
      </p>
      {writes.problem ? (
        <div className="callout callout--warn grid-problem" role="alert">
          <p>{writes.problem}</p>
          <div className="callout__actions">
            <button type="button" className="button button--small button--quiet" onClick={() => writes.setProblem(null)}>
              Dismiss
            </button>
          </div>
        </div>
      ) : null}
      {writes.conflict ? (
        <CellConflictNote conflict={writes.conflict} columns={columns} onKeepMine={() => void writes.keepMine()} onKeepTheirs={writes.keepTheirs} />
      ) : null}
      {discarded ? (
        <DiscardedValues
          name={discarded.name}
          columns={columns}
          values={{ ...discarded.base, ...discarded.mine }}
          onEditAgain={canWrite && discardedLatest ? () => startEditing(discardedLatest, undefined, discarded.mine) : null}
          onDismiss={() => setDiscarded(null)}
        />
      ) : null}
      {canWrite && addingColumn ? (
        <div className="grid-add-column" role="group" aria-label="Add a column">
          <AddColumn
            workspace={workspace}
            table={info}
            autoFocus
            onChanged={() => refreshTable()}
            onAdded={(name) => {
              setAddingColumn(false);
              announce(`Added the column “${name}”.`);
              window.setTimeout(() => addColumnButton.current?.focus(), 0);
            }}
          />
          <button
            type="button"
            className="button button--small button--quiet"
            onClick={() => {
              setAddingColumn(false);
              addColumnButton.current?.focus();
            }}
          >
            Cancel
          </button>
        </div>
      ) : null}

      <div className="grid-scroll" role="region" aria-label={`${tableName}, scrollable`} tabIndex={shown.length === 0 ? 0 : -1}>
        <table className="grid" aria-busy={busy || writes.saving || undefined} onCopy={onCopy} onPaste={onPaste}>
          <caption className="sr-only">
            {tableName}
            {sortLabel}
            {canWrite
              ? ". Arrow keys move between cells; Enter or typing edits a cell, Enter saves, Escape cancels; Ctrl+V pastes cells from a spreadsheet."
              : ""}
          </caption>
          <GridHead
            columns={columns}
            sort={sort}
            onSort={onSort}
            addColumn={canWrite ? { open: addingColumn, onOpen: () => setAddingColumn((o) => !o), ref: addColumnButton } : null}
          />
          <tbody ref={bodyRef}>
            {adding && canWrite ? (
              <NewRowEditor key="__new" {...editorProps} rowName="new row" onCancel={onAddingDone} onAdded={flash} defaults={newRowDefaults} />
            ) : null}
            {modelRows.map((modelRow, index) => {
              const row = modelRow.original;
              const name = nameOf(row, index);
              const isEditing = editing?.row.row_id === row.row_id;
              const display = (
                <GridRow
                  row={row}
                  cells={modelRow.getAllCells().filter((c) => c.column.id !== META && c.column.id !== ACTIONS)}
                  firstFocusable={!focused && index === 0}
                  name={name}
                  columns={columns}
                  directory={directory}
                  canWrite={canWrite}
                  saved={saved === row.row_id}
                  editingThis={isEditing}
                  editingAny={Boolean(editing)}
                  edit={edit?.rowId === row.row_id ? edit : null}
                  onEditDraft={(draft) => setEdit((e) => (e ? { ...e, draft, problem: null } : e))}
                  onCommit={commitEdit}
                  onCancel={cancelEdit}
                  onStartEdit={(column) => startCellEdit(row, column)}
                  onToggle={(column) => toggle(row, column)}
                  onCellKeyDown={(event, column) => onCellKeyDown(event, row, column)}
                  onFocusCell={(column) => {
                    if (
                      !modelRow
                        .getAllCells()
                        .find((c) => c.column.id === column)
                        ?.getIsFocused()
                    )
                      grid.setFocusedCell(row.row_id, column);
                  }}
                  extraCell={canWrite}
                  onEdit={(focus) => startEditing(row, focus)}
                  onHistory={() => onHistory(row, name)}
                  onDelete={() => onDelete(row, name)}
                  commentCount={commentCounts ? (commentCounts[row.row_id] ?? 0) : null}
                  onComments={() => onComments?.(row, name)}
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
