import type { MouseEvent } from "react";
import type { Directory } from "../../lib/actors";
import type { Column, Row } from "../../lib/table/types";
import { ActorName } from "../actor-name";
import { TimeAgo } from "../time-ago";
import { CellValue } from "./cells";
import { IconButton } from "./icon-button";

/**
 * One row as it reads: its typed cells, who last changed it and when, and its actions.
 * Double-clicking a cell edits the row, with that cell's input focused.
 */
export function GridRow({
  row,
  name,
  columns,
  directory,
  canWrite,
  saved,
  editingThis,
  editingAny,
  onEdit,
  onHistory,
  onDelete,
}: {
  row: Row;
  /** The row's name in labels. */
  name: string;
  columns: Column[];
  directory: Directory;
  canWrite: boolean;
  /** Just saved: it flashes. */
  saved: boolean;
  editingThis: boolean;
  /** Some row (this or another) is being edited. */
  editingAny: boolean;
  onEdit: (focus?: string) => void;
  onHistory: () => void;
  onDelete: () => void;
}) {
  const onDoubleClick = (event: MouseEvent<HTMLTableRowElement>) => {
    if ((event.target as HTMLElement).closest("a, button")) return;
    const cell = (event.target as HTMLElement).closest<HTMLElement>("[data-col]");
    onEdit(cell?.dataset.col);
  };
  return (
    <tr
      data-row-id={row.row_id}
      className={`grid-row ${saved ? "grid-row--saved" : ""} ${editingThis ? "grid-row--current" : ""}`}
      onDoubleClick={canWrite && !editingAny ? onDoubleClick : undefined}
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
              onClick={() => onEdit()}
              disabled={editingAny}
              title={editingAny && !editingThis ? "Finish editing the other row first" : "Edit (or double-click a cell)"}
            />
          ) : null}
          <IconButton icon="history" label={`History of “${name}”`} onClick={onHistory} title="History" />
          {canWrite ? <IconButton icon="delete" label={`Delete “${name}”`} onClick={onDelete} disabled={editingThis} title="Delete" danger /> : null}
        </div>
      </td>
    </tr>
  );
}
