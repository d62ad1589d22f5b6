import type { Directory } from "../../../lib/actors";
import type { Column } from "../../../lib/table/types";
import type { EditorLayout } from "./editor-frame";

/** What the grid gives both row editors. */
export interface RowEditorProps {
  workspace: string;
  collection: string;
  columns: Column[];
  layout: EditorLayout;
  /** Every column of the grid, data and the two of its own (for panels under a row). */
  colSpan: number;
  directory: Directory;
  /** A short name for the row in labels: its first value. */
  rowName: string;
  onCancel: () => void;
  /** Live words for screen readers ("Saved", "Row added"). */
  announce: (message: string) => void;
}
