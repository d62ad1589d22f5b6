// Someone else changed the same cells while the person typed or pasted: nothing was
// overwritten. Both values are shown, cell by cell, and the person chooses.
import type { Column } from "../../lib/table/types";
import { rowLabel } from "../../lib/table/row-conflicts";
import { type CellConflict, shown } from "./use-cell-writes";

export function CellConflictNote({
  conflict,
  columns,
  onKeepMine,
  onKeepTheirs,
}: {
  conflict: CellConflict;
  columns: Column[];
  onKeepMine: () => void;
  onKeepTheirs: () => void;
}) {
  const many = conflict.rows.length > 1;
  return (
    <div className="callout callout--warn grid-conflict" role="alert">
      <p>
        <strong>{many ? `Someone else changed ${conflict.rows.length} of these rows meanwhile.` : "Someone else changed this cell meanwhile."}</strong> Nothing
        of theirs was overwritten; choose what to keep.
      </p>
      <ul className="grid-conflict__list">
        {conflict.rows.map(({ latest, mine }) => (
          <li key={latest.row_id}>
            “{rowLabel(columns, latest.values, "a row")}”:{" "}
            {Object.entries(mine)
              .map(([name, value]) => {
                const col = columns.find((c) => c.name === name);
                return `${name} is now ${shown(col, latest.values[name])}, you wrote ${shown(col, value)}`;
              })
              .join("; ")}
          </li>
        ))}
      </ul>
      <div className="callout__actions">
        <button type="button" className="button button--small" onClick={onKeepTheirs}>
          Keep theirs
        </button>
        <button type="button" className="button button--small button--primary" onClick={onKeepMine}>
          Use mine instead
        </button>
      </div>
    </div>
  );
}
