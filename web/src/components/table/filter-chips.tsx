import { activeFilters, type FilterState, filterSummary } from "../../lib/table/grid-state";
import { type Column } from "../../lib/table/types";
import "./filter-chips.css";

/** The filters in force, each a chip that removes it. */
export function FilterChips({
  columns,
  filters,
  onRemove,
  onClear,
}: {
  columns: Column[];
  filters: FilterState;
  onRemove: (column: string) => void;
  onClear: () => void;
}) {
  const active = activeFilters(columns, filters);
  if (active.length === 0) return null;
  return (
    <ul className="filter-chips" aria-label="Filters in force">
      {active.map(([col, f]) => (
        <li key={col.name} className="filter-chip">
          <span>{filterSummary(col, f)}</span>
          <button type="button" className="filter-chip__remove" onClick={() => onRemove(col.name)} aria-label={`Remove the filter ${filterSummary(col, f)}`}>
            <svg width="10" height="10" viewBox="0 0 10 10" aria-hidden="true" focusable="false">
              <path d="M2 2l6 6M8 2 2 8" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
            </svg>
          </button>
        </li>
      ))}
      {active.length > 1 ? (
        <li>
          <button type="button" className="button--inline-link filter-chips__clear" onClick={onClear}>
            Clear all
          </button>
        </li>
      ) : null}
    </ul>
  );
}
