// Which row of the grid is being edited (one at a time), the row that just saved (it
// flashes), and the values a person let go after a conflict.
import { type RefObject, useEffect, useRef, useState } from "react";
import type { Row, RowValues } from "../../lib/table/types";

export interface Editing {
  /** The row as it was when editing started. */
  row: Row;
  focus?: string | undefined;
  initial?: RowValues | undefined;
}

export interface Discarded {
  row: Row;
  name: string;
  mine: RowValues;
  base: RowValues;
}

export function useRowEditing(canWrite: boolean, body: RefObject<HTMLTableSectionElement | null>) {
  const [editing, setEditing] = useState<Editing | null>(null);
  const [discarded, setDiscarded] = useState<Discarded | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
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
    body.current?.querySelector<HTMLElement>(`tr[data-row-id="${CSS.escape(rowId)}"] [data-action="edit"]`)?.focus();
  }, [editing]);

  const startEditing = (row: Row, focus?: string, initial?: RowValues) => {
    if (!canWrite || editing) return;
    setDiscarded(null);
    setEditing({ row, focus, initial });
  };

  /** The row saved: it flashes for a moment. */
  const flash = (rowId: string) => {
    setSaved(rowId);
    window.setTimeout(() => setSaved((current) => (current === rowId ? null : current)), 2400);
  };

  return { editing, startEditing, stopEditing, saved, flash, discarded, setDiscarded };
}
