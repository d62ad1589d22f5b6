// One cell of the grid: shown, or typed into in place. Checkboxes are ticked right in the
// cell. The cell itself takes the focus (one cell of the grid is in the tab order, and the
// arrow keys move between them; see table-grid.tsx).
import { type KeyboardEvent, useEffect, useRef } from "react";
import type { Cell, Column, Row } from "../../lib/table/types";
import { dateInputType } from "../../lib/table/type-value";
import { CellValue } from "./cells";

export interface CellEdit {
  rowId: string;
  /** The row as it was when the typing started: the save builds on its version. */
  base: Row;
  column: string;
  draft: string;
  problem: string | null;
}

/** Where a committed edit sends the focus: the cell below (Enter), beside (Tab), or stays. */
export type After = "down" | "right" | "left" | "stay";

export function CellEditor({
  column,
  edit,
  label,
  onDraft,
  onCommit,
  onCancel,
}: {
  column: Column;
  edit: CellEdit;
  label: string;
  onDraft: (draft: string) => void;
  onCommit: (after: After) => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLInputElement & HTMLSelectElement>(null);
  const done = useRef(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    // Typing started the edit: the caret goes after what was typed.
    const input = el as HTMLInputElement;
    if (input.tagName === "INPUT" && (input.type === "text" || input.type === "url")) input.setSelectionRange(input.value.length, input.value.length);
  }, []);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      done.current = true;
      onCancel();
    } else if (event.key === "Enter" && !event.nativeEvent.isComposing) {
      event.preventDefault();
      event.stopPropagation();
      onCommit(event.shiftKey ? "stay" : "down");
    } else if (event.key === "Tab") {
      event.preventDefault();
      event.stopPropagation();
      onCommit(event.shiftKey ? "left" : "right");
    }
  };
  const problemId = `cell-problem-${edit.rowId}-${column.name}`;
  const common = {
    ref,
    className: "grid-input",
    "aria-label": label,
    "aria-invalid": edit.problem ? true : undefined,
    "aria-describedby": edit.problem ? problemId : undefined,
    "data-column": column.name,
    value: edit.draft,
    onKeyDown,
    onBlur: () => {
      if (!done.current) onCommit("stay");
    },
  } as const;
  return (
    <div className="grid-editor">
      {column.type === "select" ? (
        <select {...common} onChange={(e) => onDraft(e.target.value)}>
          <option value="">—</option>
          {(column.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          type={column.type === "date" ? dateInputType(edit.draft) : column.type === "url" ? "url" : "text"}
          inputMode={column.type === "number" ? "decimal" : undefined}
          onChange={(e) => onDraft(e.target.value)}
        />
      )}
      {edit.problem ? (
        <span id={problemId} className="grid-editor__problem" role="alert">
          {edit.problem}
        </span>
      ) : null}
    </div>
  );
}

/** A yes/no cell: a checkbox ticked in place by those who may write. */
export function CheckCell({ value, label, canWrite, onToggle }: { value: Cell | undefined; label: string; canWrite: boolean; onToggle: () => void }) {
  if (!canWrite) return <CellValue column={{ name: "", type: "boolean", required: false }} value={value ?? null} />;
  return <input type="checkbox" className="grid-check" tabIndex={-1} checked={value === true} aria-label={label} onChange={onToggle} />;
}
