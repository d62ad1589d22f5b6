// What the grid says above or instead of its rows: the values a person chose not to keep
// after a conflict, and an empty table (or no row matching the filters).
import { rowText } from "../../lib/table/row-conflicts";
import { type Column, type RowValues } from "../../lib/table/types";
import { CopyButton } from "../copy-button";

/** After "Take theirs": the person's own values stay readable and copyable until dismissed. */
export function DiscardedValues({
  name,
  columns,
  values,
  onEditAgain,
  onDismiss,
}: {
  name: string;
  columns: Column[];
  values: RowValues;
  /** Null when the row can't be edited again (no write access, or it is gone). */
  onEditAgain: (() => void) | null;
  onDismiss: () => void;
}) {
  return (
    <div className="callout" role="note">
      <p>
        <strong>Your values for “{name}” weren’t saved</strong> (you kept the other version):{" "}
        <span className="callout__values">{rowText(columns, values)}</span>
      </p>
      <div className="callout__actions">
        <CopyButton text={rowText(columns, values)} label="Copy your values">
          Copy my values
        </CopyButton>
        {onEditAgain ? (
          <button type="button" className="button button--small" onClick={onEditAgain}>
            Edit again with my values
          </button>
        ) : null}
        <button type="button" className="button button--small button--quiet" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    </div>
  );
}

/** The body of a grid without rows. */
export function GridEmpty({
  colSpan,
  filtered,
  canWrite,
  onClearFilters,
  onStartAdding,
}: {
  colSpan: number;
  filtered: boolean;
  canWrite: boolean;
  onClearFilters: () => void;
  onStartAdding: () => void;
}) {
  return (
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
            <p className="muted">{canWrite ? "Add the first one here, or let a connected agent add rows through MCP." : "Nothing has been added yet."}</p>
            {canWrite ? (
              <button type="button" className="button button--primary button--small" onClick={onStartAdding}>
                Add the first row
              </button>
            ) : null}
          </div>
        )}
      </td>
    </tr>
  );
}
