// Above the grid: the filter button with the filters in force as chips, the sort, and a
// live status; and, when the filters can't be used, why, with ways out.
import type { FilterState, SortState } from "../../lib/table/grid-state";
import type { Column } from "../../lib/table/types";
import { FilterChips } from "./filter-chips";
import "./grid-toolbar.css";

export function GridToolbar({
  columns,
  filters,
  activeCount,
  filtersOpen,
  onToggleFilters,
  onFiltersChange,
  sort,
  onClearSort,
  status,
}: {
  columns: Column[];
  filters: FilterState;
  activeCount: number;
  filtersOpen: boolean;
  onToggleFilters: () => void;
  onFiltersChange: (filters: FilterState) => void;
  sort: SortState | null;
  onClearSort: () => void;
  status: string;
}) {
  return (
    <div className="grid-toolbar">
      <button type="button" className="button button--small" aria-expanded={filtersOpen} aria-controls="table-filters" onClick={onToggleFilters}>
        <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <path d="M2 3.5h12M4.5 8h7M7 12.5h2" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
        Filter{activeCount > 0 ? ` (${activeCount})` : ""}
      </button>
      <FilterChips
        columns={columns}
        filters={filters}
        onRemove={(name) => {
          const { [name]: _gone, ...rest } = filters;
          onFiltersChange(rest);
        }}
        onClear={() => onFiltersChange({})}
      />
      {sort ? (
        <p className="grid-toolbar__sort">
          Sorted by <strong>{sort.column}</strong> {sort.direction === "asc" ? "ascending" : "descending"}{" "}
          <button type="button" className="button--inline-link" onClick={onClearSort}>
            Clear
          </button>
        </p>
      ) : null}
      <p className="grid-toolbar__status" role="status" aria-live="polite">
        {status}
      </p>
    </div>
  );
}

/** The filters can't be used (a value of the wrong type, or the server refused them). */
export function FilterProblem({ problem, onChange, onClear }: { problem: string; onChange: () => void; onClear: () => void }) {
  return (
    <div className="inline-error" role="alert">
      <p>These filters can’t be used: {problem}</p>
      <button type="button" className="button button--small" onClick={onChange}>
        Change filters
      </button>
      <button type="button" className="button button--small button--quiet" onClick={onClear}>
        Clear filters
      </button>
    </div>
  );
}
