// The live tables of a page (table_view parts): which tables of the workspace it shows,
// which columns, in what order, how many rows. The published page renders them on the
// server and is kept current as their rows change. Changes here are part of the editor's
// draft: "Save" publishes them with the rest.
import { useId, useState } from "react";
import { Link } from "wouter";
import { describeError } from "../../lib/errors";
import type { TableViewSpec } from "../../lib/table/table-view-specs";
import { useTables } from "../table/use-table";
import { TableViewForm } from "./table-view-form";
import "./table-views-field.css";

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
  // A table shows once per page (the server refuses a second view): the picker offers only
  // tables not already on it, besides the one being changed.
  const offered = (except: number | null) => tables.filter((t) => !value.some((v, j) => j !== except && v.collection === t.slug));
  const allShown = query.isSuccess && tables.length > 0 && offered(null).length === 0;

  return (
    <section className="table-views" aria-labelledby={`${id}-title`}>
      <div className="table-views__head">
        <h2 id={`${id}-title`} className="table-views__title">
          Live tables on this page
        </h2>
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
                  {value.findIndex((v) => v.collection === spec.collection) < i ? (
                    <p className="field__message field__message--error">
                      This table is already on the page above; a table shows once per page. Remove this one.
                    </p>
                  ) : null}
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
                    tables={offered(i)}
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
          tables={offered(null)}
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
          This workspace has no tables yet. <Link href={`/buckets/${workspace}?tab=tables`}>Create one</Link> (or let an agent), then show it here.
        </p>
      ) : allShown ? (
        <p className="field__hint">Every table of this workspace is on this page.</p>
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
