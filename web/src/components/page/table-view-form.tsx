import { type KeyboardEvent, useId, useState } from "react";
import { type TableViewSpec, canonicalSpec } from "../../lib/table/table-view-specs";
import { type TableInfo } from "../../lib/table/types";
import "./table-view-form.css";

/**
 * Which table, which columns, which order, how many rows. Not a <form> (it sits inside the
 * editor's form): Enter applies it and Escape closes it, without saving the page.
 */
export function TableViewForm({
  tables,
  spec,
  onCancel,
  onDone,
}: {
  tables: TableInfo[];
  spec: TableViewSpec | null;
  onCancel: () => void;
  onDone: (spec: TableViewSpec) => void;
}) {
  const id = useId();
  const [collection, setCollection] = useState(spec?.collection ?? tables[0]?.slug ?? "");
  const table = tables.find((t) => t.slug === collection) ?? null;
  const [columns, setColumns] = useState<string[] | null>(spec?.columns && spec.columns.length > 0 ? spec.columns : null);
  const [sortColumn, setSortColumn] = useState(spec?.sort?.column ?? "");
  const [direction, setDirection] = useState<"asc" | "desc">(spec?.sort?.direction ?? "asc");
  const [limit, setLimit] = useState(spec?.limit ? String(spec.limit) : "");
  const [problem, setProblem] = useState<string | null>(null);

  const chosen = columns ?? table?.columns.map((c) => c.name) ?? [];
  const toggle = (name: string, on: boolean) => {
    const all = table?.columns.map((c) => c.name) ?? [];
    const next = all.filter((n) => (n === name ? on : chosen.includes(n)));
    setColumns(next.length === all.length ? null : next);
    setProblem(null);
  };

  const apply = () => {
    if (!table) {
      setProblem("Choose a table.");
      return;
    }
    if (columns !== null && columns.length === 0) {
      setProblem("Show at least one column.");
      return;
    }
    const n = limit.trim() === "" ? undefined : Number(limit);
    if (n !== undefined && (!Number.isInteger(n) || n < 1 || n > 500)) {
      setProblem("Rows to show: a whole number from 1 to 500, or empty for all (up to 500).");
      return;
    }
    onDone(
      canonicalSpec({
        collection: table.slug,
        ...(columns ? { columns } : {}),
        ...(sortColumn ? { sort: { column: sortColumn, direction } } : {}),
        ...(n !== undefined ? { limit: n } : {}),
      }),
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    } else if (event.key === "Enter" && (target.tagName === "INPUT" || target.tagName === "SELECT")) {
      event.preventDefault();
      apply();
    }
  };

  return (
    <div className="table-view-form" role="group" aria-labelledby={`${id}-legend`} onKeyDown={onKeyDown}>
      <p id={`${id}-legend`} className="table-view-form__title">
        {spec ? "Change this table view" : "Add a table to the page"}
      </p>
      <div className="table-view-form__grid">
        <div className="field">
          <label className="field__label field__label--small" htmlFor={`${id}-t`}>
            Table
          </label>
          <select
            id={`${id}-t`}
            className="select select--field"
            value={collection}
            autoFocus
            onChange={(e) => {
              setCollection(e.target.value);
              setColumns(null);
              setSortColumn("");
              setProblem(null);
            }}
          >
            {tables.map((t) => (
              <option key={t.slug} value={t.slug}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label field__label--small" htmlFor={`${id}-s`}>
            Order
          </label>
          <div className="inline-fields">
            <select id={`${id}-s`} className="select select--field" value={sortColumn} onChange={(e) => setSortColumn(e.target.value)}>
              <option value="">The table’s own order</option>
              {table?.columns.map((c) => (
                <option key={c.name} value={c.name}>
                  By {c.name}
                </option>
              ))}
            </select>
            {sortColumn ? (
              <select
                className="select select--field"
                aria-label="Direction"
                value={direction}
                onChange={(e) => setDirection(e.target.value === "desc" ? "desc" : "asc")}
              >
                <option value="asc">Ascending</option>
                <option value="desc">Descending</option>
              </select>
            ) : null}
          </div>
        </div>
        <div className="field">
          <label className="field__label field__label--small" htmlFor={`${id}-l`}>
            Rows to show <span className="field__optional">(optional, up to 500)</span>
          </label>
          <input
            id={`${id}-l`}
            className="field__input field__input--small table-view-form__limit"
            inputMode="numeric"
            value={limit}
            placeholder="All"
            onChange={(e) => {
              setLimit(e.target.value);
              setProblem(null);
            }}
          />
        </div>
      </div>
      {table ? (
        <fieldset className="table-view-form__columns">
          <legend className="field__label field__label--small">Columns to show</legend>
          <div className="table-view-form__checks">
            {table.columns.map((c) => (
              <label key={c.name} className="choice choice--compact">
                <input type="checkbox" checked={chosen.includes(c.name)} onChange={(e) => toggle(c.name, e.target.checked)} />
                <span>{c.name}</span>
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      {problem ? (
        <p className="field__message field__message--error" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="callout__actions">
        <button type="button" className="button button--small button--primary" onClick={apply}>
          {spec ? "Apply" : "Add to the page"}
        </button>
        <button type="button" className="button button--small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
