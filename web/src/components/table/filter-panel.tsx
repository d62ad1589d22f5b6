// Filters, one control per column: "is" for every type, "contains" (part of the text, any
// case) for text and links, and for numbers and dates also "at least", "at most" and "between". Applied together (Enter or "Apply"); each active
// filter also shows as a chip that removes it (filter-chips.tsx).
import { type FormEvent, useId, useState } from "react";
import { type ColumnFilter, type FilterState, canContain } from "../../lib/table/grid-state";
import { parseInput } from "../../lib/table/type-value";
import { type Column } from "../../lib/table/types";
import { CellInput } from "./cells";
import "./filter-panel.css";

type Op = "any" | "has" | "eq" | "gte" | "lte" | "between";

interface Draft {
  op: Op;
  a: string;
  b: string;
}

const NO_FILTER: Draft = { op: "any", a: "", b: "" };

function draftOf(f: ColumnFilter | undefined): Draft {
  if (!f) return NO_FILTER;
  if (f.has) return { op: "has", a: f.has, b: "" };
  if (f.eq) return { op: "eq", a: f.eq, b: "" };
  if (f.gte && f.lte) return { op: "between", a: f.gte, b: f.lte };
  if (f.gte) return { op: "gte", a: f.gte, b: "" };
  if (f.lte) return { op: "lte", a: f.lte, b: "" };
  return NO_FILTER;
}

function filterOf(d: Draft): ColumnFilter | null {
  switch (d.op) {
    case "any":
      return null;
    case "has":
      return d.a.trim() === "" ? null : { has: d.a.trim() };
    case "eq":
      return d.a === "" ? null : { eq: d.a };
    case "gte":
      return d.a === "" ? null : { gte: d.a };
    case "lte":
      return d.a === "" ? null : { lte: d.a };
    case "between":
      return d.a === "" && d.b === "" ? null : { ...(d.a ? { gte: d.a } : {}), ...(d.b ? { lte: d.b } : {}) };
  }
}

const isRanged = (c: Column) => c.type === "number" || c.type === "date";

export function FilterPanel({
  columns,
  filters,
  serverProblem,
  onApply,
  onClose,
}: {
  columns: Column[];
  filters: FilterState;
  /** What the server said about the filters last time, if anything. */
  serverProblem: string | null;
  onApply: (filters: FilterState) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [drafts, setDrafts] = useState<Record<string, Draft>>(() => Object.fromEntries(columns.map((c) => [c.name, draftOf(filters[c.name])])));
  const [problems, setProblems] = useState<Record<string, string>>({});

  const set = (name: string, change: Partial<Draft>) => {
    setDrafts((prev) => ({ ...prev, [name]: { ...(prev[name] ?? NO_FILTER), ...change } }));
    setProblems(({ [name]: _gone, ...rest }) => rest);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: FilterState = {};
    const found: Record<string, string> = {};
    for (const col of columns) {
      const f = filterOf(drafts[col.name] ?? NO_FILTER);
      if (!f) continue;
      // Part of a text is any text: only whole values are checked against the column's type.
      for (const raw of [f.eq, f.gte, f.lte]) {
        if (raw === undefined) continue;
        const p = parseInput({ ...col, required: false }, raw);
        if (!p.ok) found[col.name] = p.problem;
      }
      next[col.name] = f;
    }
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    onApply(next);
  };

  return (
    <form
      className="filter-panel"
      onSubmit={submit}
      noValidate
      aria-labelledby={`${id}-title`}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <div className="filter-panel__head">
        <h2 id={`${id}-title`} className="section-title">
          Filter rows
        </h2>
        <p className="field__hint">
          Rows that match every filter show. “Contains” finds part of a text in any case; “is” matches the whole value; dates match the whole day.
        </p>
      </div>
      <div className="filter-panel__list">
        {columns.map((col, i) => (
          <FilterRow
            key={col.name}
            column={col}
            draft={drafts[col.name] ?? NO_FILTER}
            problem={problems[col.name]}
            id={`${id}-${i}`}
            onChange={(change) => set(col.name, change)}
          />
        ))}
      </div>
      <p className="field__error" role="alert">
        {serverProblem}
      </p>
      <div className="form-actions">
        <button type="button" className="button button--small" onClick={onClose}>
          Close
        </button>
        <button type="button" className="button button--small button--quiet" onClick={() => onApply({})}>
          Clear all
        </button>
        <button type="submit" className="button button--small button--primary">
          Apply filters
        </button>
      </div>
    </form>
  );
}

/** One column's filter: how ("is", "at least", …) and the value or values. */
function FilterRow({
  column: col,
  draft: d,
  problem,
  id,
  onChange,
}: {
  column: Column;
  draft: Draft;
  problem: string | undefined;
  /** Prefix of the ids of its parts. */
  id: string;
  onChange: (change: Partial<Draft>) => void;
}) {
  const ranged = isRanged(col);
  const needsValue = d.op !== "any";
  const inputLabel = (which: "a" | "b") => (d.op === "between" ? `${col.name} ${which === "a" ? "from" : "to"}` : `${col.name} value`);
  return (
    <div className="filter-row" role="group" aria-labelledby={`${id}-name`}>
      <span id={`${id}-name`} className="filter-row__name">
        {col.name}
      </span>
      <select className="select filter-row__op" aria-label={`How to filter ${col.name}`} value={d.op} onChange={(e) => onChange({ op: e.target.value as Op })}>
        <option value="any">Any</option>
        {canContain(col) ? <option value="has">contains</option> : null}
        <option value="eq">is</option>
        {ranged ? (
          <>
            <option value="gte">{col.type === "date" ? "on or after" : "at least"}</option>
            <option value="lte">{col.type === "date" ? "on or before" : "at most"}</option>
            <option value="between">between</option>
          </>
        ) : null}
      </select>
      {needsValue ? (
        <span className="filter-row__values">
          {col.type === "boolean" ? (
            <select className="select" aria-label={inputLabel("a")} value={d.a} onChange={(e) => onChange({ a: e.target.value })}>
              <option value="">Choose…</option>
              <option value="true">Yes</option>
              <option value="false">No</option>
            </select>
          ) : (
            <CellInput
              // Part of a link is typed as text.
              column={{ ...col, required: false, ...(d.op === "has" ? { type: "text" as const } : {}) }}
              value={d.a}
              onChange={(v) => onChange({ a: v })}
              id={`${id}-a`}
              label={inputLabel("a")}
              invalid={Boolean(problem)}
              describedBy={problem ? `${id}-p` : undefined}
            />
          )}
          {d.op === "between" ? (
            <>
              <span className="muted" aria-hidden="true">
                –
              </span>
              <CellInput
                column={{ ...col, required: false }}
                value={d.b}
                onChange={(v) => onChange({ b: v })}
                id={`${id}-b`}
                label={inputLabel("b")}
                invalid={Boolean(problem)}
                describedBy={problem ? `${id}-p` : undefined}
              />
            </>
          ) : null}
        </span>
      ) : null}
      {problem ? (
        <p id={`${id}-p`} className="cell-problem filter-row__problem">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
