// The grid's header row: one button per column that cycles its sort (A→Z, Z→A, the table's
// own order), the column's type under its name, and the two columns of the grid's own.
import type { Ref } from "react";
import { type SortState, nextSort } from "../../lib/table/grid-state";
import { type Column, typeLabel } from "../../lib/table/types";
import "./grid-head.css";

export function GridHead({
  columns,
  sort,
  onSort,
  addColumn,
}: {
  columns: Column[];
  sort: SortState | null;
  onSort: (sort: SortState | null) => void;
  /** "+" after the last column, for those who may change the table. */
  addColumn: { open: boolean; onOpen: () => void; ref: Ref<HTMLButtonElement> } | null;
}) {
  return (
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
        {addColumn ? (
          <th scope="col" className="grid-head grid-head--add">
            <button
              ref={addColumn.ref}
              type="button"
              className="grid-add"
              aria-label="Add a column"
              aria-expanded={addColumn.open}
              title="Add a column"
              onClick={addColumn.onOpen}
            >
              <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
                <path d="M7 2v10M2 7h10" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
              </svg>
            </button>
          </th>
        ) : null}
        <th scope="col" className="grid-head grid-head--meta">
          <span className="grid-head__plain">Last change</span>
        </th>
        <th scope="col" className="grid-head grid-head--actions">
          <span className="sr-only">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

function SortArrow({ direction }: { direction: "asc" | "desc" | null }) {
  return (
    <svg
      className={`grid-sort__arrow ${direction ? "grid-sort__arrow--on" : ""}`}
      width="12"
      height="12"
      viewBox="0 0 12 12"
      aria-hidden="true"
      focusable="false"
    >
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
