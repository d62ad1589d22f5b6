import { Link } from "wouter";
import { plural } from "../../lib/format";
import { typeLabel } from "../../lib/table/types";
import { useTables } from "../table/use-table";
import { LoadError } from "../load-error";
import { EmptyState } from "../empty-state";
import "./panels.css";

/** The workspace's data tables, each a link to its grid ("New table" is in the header). */
export function TablesPanel({ slug, canWrite, onNewTable }: { slug: string; canWrite: boolean; onNewTable: () => void }) {
  const { query, tables } = useTables(slug);

  if (query.isPending) {
    return (
      <ul className="page-list" aria-busy="true" aria-label="Loading tables">
        {[0, 1, 2].map((i) => (
          <li key={i} className="page-row page-row--skeleton" aria-hidden="true" />
        ))}
      </ul>
    );
  }
  if (query.isError) {
    return <LoadError what="The tables" error={query.error} onRetry={() => void query.refetch()} />;
  }

  if (tables.length === 0) {
    return (
      <EmptyState title="No tables yet" heading action={canWrite ? { label: "Create the first table", onClick: onNewTable } : null}>
        {canWrite
          ? "A table keeps rows of typed values (text, numbers, dates, links, choices) that people and agents update, and pages can show it live."
          : "Nothing has been put in a table here yet."}
      </EmptyState>
    );
  }

  return (
    <div className="pages-panel">
      <ul className="page-list" aria-label="Tables">
        {tables.map((t) => (
          <li key={t.id} className="page-row">
            <Link href={`/buckets/${slug}/tables/${t.slug}`} className="page-row__link">
              <span className="page-row__title">{t.name}</span>
              <span className="page-row__slug">{t.slug}</span>
            </Link>
            <p className="page-row__meta">
              <span>{plural(t.row_count, "row")}</span>
              <span aria-hidden="true">·</span>
              <span className="table-columns-summary">
                {t.columns
                  .slice(0, 5)
                  .map((c) => `${c.name} (${typeLabel(c.type).toLowerCase()})`)
                  .join(", ")}
                {t.columns.length > 5 ? `, and ${t.columns.length - 5} more` : ""}
              </span>
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}
