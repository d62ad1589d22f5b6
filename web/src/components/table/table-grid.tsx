// The grid: a real <table> with a header per column (click to sort), typed cells, who last
// changed each row and when, and per-row actions. One row is edited at a time, in place
// (or in a stacked form on phones); new rows are added at the top.
import { Fragment, type MouseEvent, useEffect, useRef, useState } from "react";
import type { Directory } from "../../lib/actors";
import {
  type Column,
  type Row,
  type RowInputs,
  type RowValues,
  type SortState,
  nextSort,
  rowLabel,
  rowText,
  typeLabel,
} from "../../lib/table-cells";
import { useAnnouncer } from "../../lib/use-announcer";
import { NARROW, useMediaQuery } from "../../lib/use-media-query";
import { ActorName } from "../actor-name";
import { CopyButton } from "../copy-button";
import { TimeAgo } from "../time-ago";
import { CellValue } from "./cells";
import { NewRowEditor, RowEditor } from "./row-editor";

interface Editing {
  /** The row as it was when editing started. */
  row: Row;
  focus?: string | undefined;
  initial?: RowValues | undefined;
}

interface Discarded {
  row: Row;
  name: string;
  mine: RowValues;
  base: RowValues;
}

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
  const [editing, setEditing] = useState<Editing | null>(null);
  const bodyRef = useRef<HTMLTableSectionElement>(null);

  const returnFocusTo = useRef<string | null>(null);

  /** Editing ended: keyboard users go on from the row's Edit button, as before. */
  const stopEditing = (rowId: string) => {
    returnFocusTo.current = rowId;
    setEditing(null);
  };
  useEffect(() => {
    const rowId = returnFocusTo.current;
    if (editing || !rowId) return;
    returnFocusTo.current = null;
    // Only when the focus went down with the editor; never away from where the person went.
    if (document.activeElement && document.activeElement !== document.body) return;
    bodyRef.current?.querySelector<HTMLElement>(`tr[data-row-id="${CSS.escape(rowId)}"] [data-action="edit"]`)?.focus();
  }, [editing]);

  const [discarded, setDiscarded] = useState<Discarded | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [message, announce] = useAnnouncer();
  const colSpan = columns.length + 2;

  const flash = (rowId: string) => {
    setSaved(rowId);
    window.setTimeout(() => setSaved((current) => (current === rowId ? null : current)), 2400);
  };

  // The row being edited stays on screen even if a refresh moved it out of the list.
  const shown = editing && !rows.some((r) => r.row_id === editing.row.row_id) ? [editing.row, ...rows] : rows;
  const latestOf = (rowId: string) => rows.find((r) => r.row_id === rowId) ?? null;

  const startEditing = (row: Row, focus?: string, initial?: RowValues) => {
    if (!canWrite || editing) return;
    setDiscarded(null);
    setEditing({ row, focus, initial });
  };

  const onCellDoubleClick = (row: Row) => (event: MouseEvent<HTMLTableRowElement>) => {
    if ((event.target as HTMLElement).closest("a, button")) return;
    const cell = (event.target as HTMLElement).closest<HTMLElement>("[data-col]");
    startEditing(row, cell?.dataset.col);
  };

  const sortLabel = sort ? `, sorted by ${sort.column}, ${sort.direction === "asc" ? "ascending" : "descending"}` : "";

  return (
    <div className="grid-area">
      <p className="sr-only" role="status" aria-live="polite">
        {message}
      </p>
      {discarded ? (
        <div className="callout" role="note">
          <p>
            <strong>Your values for “{discarded.name}” weren’t saved</strong> (you kept the other version):{" "}
            <span className="callout__values">{rowText(columns, { ...discarded.base, ...discarded.mine })}</span>
          </p>
          <div className="callout__actions">
            <CopyButton text={rowText(columns, { ...discarded.base, ...discarded.mine })} label="Copy your values">
              Copy my values
            </CopyButton>
            {canWrite && latestOf(discarded.row.row_id) ? (
              <button
                type="button"
                className="button button--small"
                onClick={() => {
                  const latest = latestOf(discarded.row.row_id);
                  if (latest) startEditing(latest, undefined, discarded.mine);
                }}
              >
                Edit again with my values
              </button>
            ) : null}
            <button type="button" className="button button--small button--quiet" onClick={() => setDiscarded(null)}>
              Dismiss
            </button>
          </div>
        </div>
      ) : null}

      <div className="grid-scroll" role="region" aria-label={`${tableName}, scrollable`} tabIndex={0}>
        <table className="grid" aria-busy={busy || undefined}>
          <caption className="sr-only">
            {tableName}
            {sortLabel}
          </caption>
          <thead>
            <tr>
              {columns.map((col, i) => {
                const sorted = sort?.column === col.name ? sort.direction : null;
                return (
                  <th
                    key={col.name}
                    scope="col"
                    className={`grid-head grid-head--${col.type} ${i === 0 ? "grid-head--first" : ""}`}
                    aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
                  >
                    <button
                      type="button"
                      className="grid-sort"
                      onClick={() => onSort(nextSort(sort, col.name))}
                      title={
                        sorted === "asc"
                          ? `Sorted by ${col.name}, A→Z / low→high. Click for the reverse.`
                          : sorted === "desc"
                            ? `Sorted by ${col.name}, high→low. Click for the table’s own order.`
                            : `Sort by ${col.name}`
                      }
                    >
                      <span className="grid-sort__name">
                        {col.name}
                        {col.required ? (
                          <span className="grid-sort__required" title="Required">
                            *<span className="sr-only"> (required)</span>
                          </span>
                        ) : null}
                      </span>
                      <span className="grid-sort__type">{typeLabel(col.type)}</span>
                      <SortArrow direction={sorted} />
                    </button>
                  </th>
                );
              })}
              <th scope="col" className="grid-head grid-head--meta">
                <span className="grid-head__plain">Last change</span>
              </th>
              <th scope="col" className="grid-head grid-head--actions">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody ref={bodyRef}>
            {adding && canWrite ? (
              <NewRowEditor
                key="__new"
                workspace={workspace}
                collection={collection}
                columns={columns}
                layout={layout}
                colSpan={colSpan}
                directory={directory}
                rowName="new row"
                announce={announce}
                onCancel={onAddingDone}
                onAdded={flash}
                defaults={newRowDefaults}
              />
            ) : null}
            {shown.map((row, index) => {
              const name = rowLabel(columns, row.values, `Row ${index + 1}`);
              const isEditing = editing?.row.row_id === row.row_id;
              const display = (
                <tr
                  data-row-id={row.row_id}
                  className={`grid-row ${saved === row.row_id ? "grid-row--saved" : ""} ${isEditing ? "grid-row--current" : ""}`}
                  onDoubleClick={canWrite && !editing ? onCellDoubleClick(row) : undefined}
                >
                  {columns.map((col, i) => {
                    const Tag = i === 0 ? "th" : "td";
                    return (
                      <Tag key={col.name} scope={i === 0 ? "row" : undefined} data-col={col.name} className={`grid-cell grid-cell--${col.type}`}>
                        <CellValue column={col} value={row.values[col.name]} />
                      </Tag>
                    );
                  })}
                  <td className="grid-meta">
                    <ActorName actor={row.updated_by} directory={directory} />
                    <span className="grid-meta__time">
                      <TimeAgo iso={row.updated_at} /> · v{row.version}
                    </span>
                  </td>
                  <td className="grid-actions">
                    <div className="grid-actions__buttons">
                      {canWrite ? (
                        <IconButton
                          action="edit"
                          icon="edit"
                          label={`Edit “${name}”`}
                          onClick={() => startEditing(row)}
                          disabled={Boolean(editing)}
                          title={editing && !isEditing ? "Finish editing the other row first" : "Edit (or double-click a cell)"}
                        />
                      ) : null}
                      <IconButton icon="history" label={`History of “${name}”`} onClick={() => onHistory(row, name)} title="History" />
                      {canWrite ? (
                        <IconButton icon="delete" label={`Delete “${name}”`} onClick={() => onDelete(row, name)} disabled={isEditing} title="Delete" danger />
                      ) : null}
                    </div>
                  </td>
                </tr>
              );
              if (!isEditing || !editing) return <Fragment key={row.row_id}>{display}</Fragment>;
              return (
                <Fragment key={row.row_id}>
                  {layout === "stacked" ? display : null}
                  <RowEditor
                    workspace={workspace}
                    collection={collection}
                    columns={columns}
                    layout={layout}
                    colSpan={colSpan}
                    directory={directory}
                    rowName={name}
                    announce={announce}
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
              <tr className="grid-panel-row">
                <td colSpan={colSpan} className="grid-empty">
                  {filtered ? (
                    <div className="grid-empty__body">
                      <p className="grid-empty__title">No rows match these filters</p>
                      <button type="button" className="button button--small" onClick={onClearFilters}>
                        Clear filters
                      </button>
                    </div>
                  ) : (
                    <div className="grid-empty__body">
                      <p className="grid-empty__title">No rows yet</p>
                      <p className="muted">
                        {canWrite ? "Add the first one here, or let a connected agent add rows through MCP." : "Nothing has been added yet."}
                      </p>
                      {canWrite ? (
                        <button type="button" className="button button--primary button--small" onClick={onStartAdding}>
                          Add the first row
                        </button>
                      ) : null}
                    </div>
                  )}
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function SortArrow({ direction }: { direction: "asc" | "desc" | null }) {
  return (
    <svg className={`grid-sort__arrow ${direction ? "grid-sort__arrow--on" : ""}`} width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
      {direction === "desc" ? (
        <path d="M6 2v8M2.5 6.5 6 10l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
      ) : direction === "asc" ? (
        <path d="M6 10V2M2.5 5.5 6 2l3.5 3.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
      ) : (
        <path d="M3.5 4.5 6 2l2.5 2.5M3.5 7.5 6 10l2.5-2.5" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" />
      )}
    </svg>
  );
}

const ICONS = {
  edit: "M11.2 2.3a1.6 1.6 0 0 1 2.3 2.3L5.6 12.5l-3 .8.8-3z",
  history: "M8 2.5a5.5 5.5 0 1 1-5.2 3.8M2.5 2.8v3.4h3.4M8 5v3.2l2.2 1.4",
  delete: "M2.8 4.3h10.4M6.3 4.3V2.8h3.4v1.5M4.2 4.3l.6 9h6.4l.6-9M6.7 6.8v4M9.3 6.8v4",
} as const;

function IconButton({
  action,
  icon,
  label,
  onClick,
  title,
  disabled = false,
  danger = false,
}: {
  action?: string;
  icon: keyof typeof ICONS;
  label: string;
  onClick: () => void;
  title: string;
  disabled?: boolean;
  danger?: boolean;
}) {
  return (
    <button
      type="button"
      data-action={action}
      className={`icon-button ${danger ? "icon-button--danger" : ""}`}
      onClick={onClick}
      disabled={disabled}
      title={title}
    >
      <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <path d={ICONS[icon]} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="sr-only">{label}</span>
    </button>
  );
}
