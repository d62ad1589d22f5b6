// A grid's sort and filters, kept in the address, and as rows.list takes them.
import { cellText, isDateOnly } from "./show-value";
import { parseInput } from "./type-value";
import type { Cell, Column, ServerFilter } from "./types";

export interface SortState {
  column: string;
  direction: "asc" | "desc";
}

export interface ColumnFilter {
  eq?: string;
  gte?: string;
  lte?: string;
  /** Text that holds this, in any case (text and link columns). */
  has?: string;
}

export type FilterState = Record<string, ColumnFilter>;

export interface GridState {
  sort: SortState | null;
  filters: FilterState;
}

const FILTER_OPS = ["eq", "gte", "lte", "has"] as const;

export function gridStateOf(search: URLSearchParams): GridState {
  const column = search.get("sort");
  const sort: SortState | null = column ? { column, direction: search.get("dir") === "desc" ? "desc" : "asc" } : null;
  const filters: FilterState = {};
  for (const [key, value] of search) {
    const dot = key.indexOf(".");
    const op = key.slice(0, dot) as (typeof FILTER_OPS)[number];
    if (dot < 1 || !FILTER_OPS.includes(op) || value === "") continue;
    const name = key.slice(dot + 1);
    filters[name] = { ...filters[name], [op]: value };
  }
  return { sort, filters };
}

/** The address for a grid state; other parameters (a dialog, a flag) are kept. */
export function searchOf(prev: URLSearchParams, state: GridState): URLSearchParams {
  const next = new URLSearchParams();
  for (const [key, value] of prev) {
    if (key === "sort" || key === "dir" || FILTER_OPS.some((op) => key.startsWith(`${op}.`))) continue;
    next.append(key, value);
  }
  if (state.sort) {
    next.set("sort", state.sort.column);
    next.set("dir", state.sort.direction);
  }
  for (const [name, f] of Object.entries(state.filters)) {
    for (const op of FILTER_OPS) {
      const v = f[op];
      if (v !== undefined && v !== "") next.set(`${op}.${name}`, v);
    }
  }
  return next;
}

/** Clicking a header: ascending, then descending, then back to the table's own order. */
export function nextSort(current: SortState | null, column: string): SortState | null {
  if (current?.column !== column) return { column, direction: "asc" };
  return current.direction === "asc" ? { column, direction: "desc" } : null;
}

export function activeFilters(columns: Column[], filters: FilterState): [Column, ColumnFilter][] {
  return columns.flatMap((c): [Column, ColumnFilter][] => {
    const f = filters[c.name];
    return f && (f.eq || f.gte || f.lte || (f.has && canContain(c))) ? [[c, f]] : [];
  });
}

/** Whether a column can be filtered by part of its text (the server's `contains`). */
export function canContain(col: Pick<Column, "type">): boolean {
  return col.type === "text" || col.type === "url";
}

/** The filters as rows.list takes them, typed by column, or what is wrong with each. */
export function serverFilterOf(columns: Column[], filters: FilterState): { filter: ServerFilter | undefined; problems: Record<string, string> } {
  const filter: ServerFilter = {};
  const problems: Record<string, string> = {};
  for (const [col, f] of activeFilters(columns, filters)) {
    const parse = (raw: string) => parseInput({ ...col, required: false, type: col.type }, raw);
    const wholeDayEnd = (d: string) => (col.type === "date" && isDateOnly(d) ? `${d}T23:59:59.999Z` : d);
    if (f.has && canContain(col)) {
      filter[col.name] = { contains: f.has };
      continue;
    }
    if (f.eq) {
      const p = parse(f.eq);
      if (!p.ok) problems[col.name] = p.problem;
      // A date matches the whole day, whether the cells hold dates or moments.
      else if (col.type === "date" && typeof p.value === "string" && isDateOnly(p.value)) filter[col.name] = { gte: p.value, lte: wholeDayEnd(p.value) };
      else filter[col.name] = p.value;
      continue;
    }
    const range: { gte?: Cell; lte?: Cell } = {};
    for (const op of ["gte", "lte"] as const) {
      const raw = f[op];
      if (!raw) continue;
      const p = parse(raw);
      if (!p.ok) problems[col.name] = p.problem;
      else range[op] = op === "lte" && typeof p.value === "string" ? wholeDayEnd(p.value) : p.value;
    }
    if (!problems[col.name]) filter[col.name] = range;
  }
  return { filter: Object.keys(filter).length > 0 ? filter : undefined, problems };
}

/** "score ≥ 3", "due from 1 Nov 2026 to 30 Nov 2026", "done is Yes". */
export function filterSummary(col: Column, f: ColumnFilter): string {
  const show = (raw: string) => {
    const p = parseInput({ ...col, required: false }, raw);
    return p.ok ? cellText(col, p.value) : raw;
  };
  if (f.has) return `${col.name} contains “${f.has}”`;
  if (f.eq) return `${col.name} is ${show(f.eq)}`;
  if (f.gte && f.lte) return `${col.name} from ${show(f.gte)} to ${show(f.lte)}`;
  if (f.gte) return `${col.name} ${col.type === "date" ? "from" : "≥"} ${show(f.gte)}`;
  if (f.lte) return `${col.name} ${col.type === "date" ? "until" : "≤"} ${show(f.lte)}`;
  return col.name;
}
