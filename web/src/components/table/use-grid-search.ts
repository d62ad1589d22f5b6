// The grid's sort and filters live in the address (?sort=…&f.…), so a filtered view can be
// shared as a link and survives a reload. "?add=1" (straight after creating a table) asks
// for the new-row form once, and is then taken out of the address.
import { useEffect, useMemo, useState } from "react";
import { useSearchParams } from "wouter";
import { type FilterState, type GridState, gridStateOf, searchOf } from "../../lib/table/grid-state";

export function useGridSearch() {
  const [search, setSearch] = useSearchParams();
  const grid = useMemo(() => gridStateOf(search), [search]);
  const [addOnOpen] = useState(() => search.get("add") === "1");

  useEffect(() => {
    if (search.get("add") === "1") {
      setSearch(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.delete("add");
          return next;
        },
        { replace: true },
      );
    }
  }, []);

  const setGrid = (next: GridState) => setSearch((prev) => searchOf(prev, next), { replace: true });
  const setFilters = (filters: FilterState) => setGrid({ ...grid, filters });
  return { search, setSearch, grid, setGrid, setFilters, addOnOpen };
}
