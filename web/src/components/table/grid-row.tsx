import type { KeyboardEvent, MouseEvent } from "react";
import type { Directory } from "../../lib/actors";
import type { Column, Row } from "../../lib/table/types";
import { ActorName } from "../actor-name";
import { TimeAgo } from "../time-ago";
import { CellValue } from "./cells";
import { type After, CellEditor, type CellEdit, CheckCell } from "./grid-cell";
import type { GridCellModel } from "./grid-model";
import { IconButton } from "./icon-button";

const COMMENT_ICON = "M2.5 3.5h11v7h-6l-3 2.5v-2.5h-2z";

/**
 * One row as it reads: its typed cells (each focusable, edited in place on double-click,
 * Enter or typing; checkboxes ticked directly), who last changed it and when, and its actions.
 */
export function GridRow({
  row,
  cells,
  firstFocusable,
  name,
  columns,
  directory,
  canWrite,
  saved,
  editingThis,
  editingAny,
  edit,
  onEditDraft,
  onCommit,
  onCancel,
  onStartEdit,
  onToggle,
  onCellKeyDown,
  onFocusCell,
  extraCell,
  onEdit,
  onHistory,
  onDelete,
  commentCount,
  onComments,
}: {
  row: Row;
  cells: GridCellModel[];
  /** No cell is focused yet: this row's first cell is the grid's tab stop. */
  firstFocusable: boolean;
  /** The row's name in labels. */
  name: string;
  columns: Column[];
  directory: Directory;
  canWrite: boolean;
  /** Just saved: it flashes. */
  saved: boolean;
  editingThis: boolean;
  /** Some row (this or another) is being edited as a form. */
  editingAny: boolean;
  /** The cell of this row being typed into. */
  edit: CellEdit | null;
  onEditDraft: (draft: string) => void;
  onCommit: (after: After) => void;
  onCancel: () => void;
  onStartEdit: (column: Column) => void;
  onToggle: (column: Column) => void;
  onCellKeyDown: (event: KeyboardEvent<HTMLElement>, column: Column) => void;
  onFocusCell: (column: string) => void;
  /** The empty cell under the header's "add a column". */
  extraCell: boolean;
  onEdit: (focus?: string) => void;
  onHistory: () => void;
  onDelete: () => void;
  /** Open comment threads on the row (null: comments are not shown to this reader). */
  commentCount: number | null;
  onComments: () => void;
}) {
  return (
    <tr data-row-id={row.row_id} className={`grid-row ${saved ? "grid-row--saved" : ""} ${editingThis ? "grid-row--current" : ""}`}>
      {cells.map((cell, i) => {
        const col = columns.find((c) => c.name === cell.column.id);
        if (!col) return null;
        const Tag = i === 0 ? "th" : "td";
        const isFocused = cell.getIsFocused();
        const editingCell = edit?.column === col.name ? edit : null;
        const tabIndex = editingCell ? -1 : isFocused || (firstFocusable && i === 0) ? 0 : -1;
        const value = row.values[col.name];
        const label = `${col.name} of “${name}”`;
        return (
          <Tag
            key={col.name}
            scope={i === 0 ? "row" : undefined}
            data-col={col.name}
            data-focused={isFocused || undefined}
            tabIndex={tabIndex}
            className={`grid-cell grid-cell--${col.type} ${editingCell ? "grid-cell--editing" : ""} ${cell.getIsSelected() ? "grid-cell--selected" : ""}`}
            onFocus={(e) => {
              if (e.target === e.currentTarget) onFocusCell(col.name);
            }}
            onMouseDown={(e: MouseEvent) => {
              if (!(e.target as HTMLElement).closest("a, input, select")) cell.getSelectionStartHandler()(e);
            }}
            onDoubleClick={(e: MouseEvent) => {
              if (!canWrite || editingAny || (e.target as HTMLElement).closest("a, input, select")) return;
              onStartEdit(col);
            }}
            onKeyDown={(e) => {
              if (e.target === e.currentTarget) onCellKeyDown(e, col);
            }}
          >
            {editingCell ? (
              <CellEditor column={col} edit={editingCell} label={label} onDraft={onEditDraft} onCommit={onCommit} onCancel={onCancel} />
            ) : col.type === "boolean" ? (
              <CheckCell value={value} label={label} canWrite={canWrite && !editingAny} onToggle={() => onToggle(col)} />
            ) : (
              <CellValue column={col} value={value} />
            )}
          </Tag>
        );
      })}
      {extraCell ? <td className="grid-add-cell" aria-hidden="true" /> : null}
      <td className="grid-meta">
        <ActorName actor={row.updated_by} directory={directory} />
        <span className="grid-meta__time">
          {" · "}
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
              onClick={() => onEdit()}
              disabled={editingAny}
              title={editingAny && !editingThis ? "Finish editing the other row first" : "Edit the whole row as a form"}
            />
          ) : null}
          {commentCount !== null ? (
            <button
              type="button"
              data-action="comments"
              className={`icon-button row-comments ${commentCount > 0 ? "row-comments--open" : ""}`}
              onClick={onComments}
              title={commentCount > 0 ? `${commentCount} open ${commentCount === 1 ? "comment" : "comments"}` : "Comment on this row"}
            >
              <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
                <path d={COMMENT_ICON} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
              {commentCount > 0 ? (
                <span className="row-comments__count" aria-hidden="true">
                  {commentCount}
                </span>
              ) : null}
              <span className="sr-only">{commentCount > 0 ? `Comments on “${name}”: ${commentCount} open` : `Comments on “${name}”`}</span>
            </button>
          ) : null}
          <IconButton icon="history" label={`History of “${name}”`} onClick={onHistory} title="History" />
          {canWrite ? <IconButton icon="delete" label={`Delete “${name}”`} onClick={onDelete} disabled={editingThis} title="Delete" danger /> : null}
        </div>
      </td>
    </tr>
  );
}
