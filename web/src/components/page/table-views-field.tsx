// The live tables of a page (table_view parts): which tables of the workspace it shows,
// which columns, in what order, how many rows. The published page renders them on the
// server and is kept current as their rows change. Changes here are part of the editor's
// draft: "Save" publishes them with the rest.
import { type KeyboardEvent, useId, useState } from "react";
import { Link } from "wouter";
import { describeError } from "../../lib/errors";
import { type TableInfo, type TableViewSpec, canonicalSpec } from "../../lib/table-cells";
import { useTables } from "../table/use-table";

const MAX_VIEWS = 10;

/** "All columns · sorted by pages, descending · first 20 rows" */
export function specSummary(spec: TableViewSpec): string {
  const parts = [
    spec.columns && spec.columns.length > 0 ? `Columns: ${spec.columns.join(", ")}` : "All columns",
    spec.sort ? `sorted by ${spec.sort.column}, ${spec.sort.direction === "asc" ? "ascending" : "descending"}` : "in the table’s order",
    spec.limit ? `first ${spec.limit} ${spec.limit === 1 ? "row" : "rows"}` : "up to 500 rows",
  ];
  return parts.join(" · ");
}

export function TableViewsField({
  workspace,
  value,
  onChange,
  disabled,
}: {
  workspace: string;
  value: TableViewSpec[];
  onChange: (specs: TableViewSpec[]) => void;
  disabled: boolean;
}) {
  const id = useId();
  const { query, tables } = useTables(workspace);
  const [open, setOpen] = useState<number | "new" | null>(null);
  const nameOf = (slug: string) => tables.find((t) => t.slug === slug)?.name ?? slug;

  return (
    <section className="table-views" aria-labelledby={`${id}-title`}>
      <div className="table-views__head">
        <h3 id={`${id}-title`} className="table-views__title">
          Live tables on this page
        </h3>
        <p className="field__hint">
          Shown under the text of the published page, and kept current as their rows change. Saving the page publishes changes here.
        </p>
      </div>
      {value.length === 0 ? <p className="muted table-views__none">No tables on this page.</p> : null}
      {value.length > 0 ? (
        <ol className="table-views__list">
          {value.map((spec, i) => {
            const known = tables.some((t) => t.slug === spec.collection);
            return (
              <li key={`${spec.collection}-${i}`} className="table-view-item">
                <div className="table-view-item__main">
                  <p className="table-view-item__name">
                    <Link href={`/buckets/${workspace}/tables/${spec.collection}`}>{nameOf(spec.collection)}</Link>{" "}
                    <span className="mono muted">{spec.collection}</span>
                  </p>
                  <p className="table-view-item__spec">{specSummary(spec)}</p>
                  {query.isSuccess && !known ? (
                    <p className="field__message field__message--error">
                      This table isn’t in the workspace any more; the page says so where it was. Remove it, or choose another table.
                    </p>
                  ) : null}
                </div>
                <div className="table-view-item__actions">
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => setOpen(open === i ? null : i)}
                    aria-expanded={open === i}
                    disabled={disabled}
                  >
                    Change<span className="sr-only"> the view of {nameOf(spec.collection)}</span>
                  </button>
                  <button
                    type="button"
                    className="button button--small button--quiet-danger"
                    onClick={() => {
                      onChange(value.filter((_, j) => j !== i));
                      setOpen(null);
                    }}
                    disabled={disabled}
                  >
                    Remove<span className="sr-only"> {nameOf(spec.collection)} from the page</span>
                  </button>
                </div>
                {open === i ? (
                  <TableViewForm
                    tables={tables}
                    spec={spec}
                    onCancel={() => setOpen(null)}
                    onDone={(next) => {
                      onChange(value.map((s, j) => (j === i ? next : s)));
                      setOpen(null);
                    }}
                  />
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : null}
      {open === "new" ? (
        <TableViewForm
          tables={tables}
          spec={null}
          onCancel={() => setOpen(null)}
          onDone={(next) => {
            onChange([...value, next]);
            setOpen(null);
          }}
        />
      ) : query.isError ? (
        <p className="field__message field__message--error">The workspace’s tables didn’t load. {describeError(query.error)}</p>
      ) : query.isSuccess && tables.length === 0 ? (
        <p className="field__hint">
          This workspace has no tables yet. <Link href={`/buckets/${workspace}?tab=tables`}>Create one</Link> (or let an agent), then
          show it here.
        </p>
      ) : (
        <button
          type="button"
          className="button button--small table-views__add"
          onClick={() => setOpen("new")}
          disabled={disabled || value.length >= MAX_VIEWS || !query.isSuccess}
          title={value.length >= MAX_VIEWS ? `A page shows at most ${MAX_VIEWS} tables` : undefined}
        >
          <span aria-hidden="true">+</span> Add a table
        </button>
      )}
    </section>
  );
}

/**
 * Which table, which columns, which order, how many rows. Not a <form> (it sits inside the
 * editor's form): Enter applies it and Escape closes it, without saving the page.
 */
function TableViewForm({
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
