import { Fragment } from "react";
import { Link } from "wouter";
import type { TableViewSpec } from "../../lib/table/table-view-specs";
import { useTables } from "../table/use-table";
import "./live-tables-note.css";

/** Says that a page shows live tables, and links each one to its grid. */
export function LiveTablesNote({ workspace, specs }: { workspace: string; specs: TableViewSpec[] }) {
  const { tables } = useTables(workspace, specs.length > 0);
  if (specs.length === 0) return null;
  const seen = [...new Set(specs.map((s) => s.collection))];
  return (
    <div className="live-tables" role="note">
      <span className="live-tables__icon" aria-hidden="true">
        <svg width="16" height="16" viewBox="0 0 16 16" focusable="false">
          <rect x="1.75" y="2.75" width="12.5" height="10.5" rx="1.75" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path d="M1.75 6.25h12.5M1.75 9.75h12.5M6 6.25v7" stroke="currentColor" strokeWidth="1.3" />
        </svg>
      </span>
      <p>
        <strong>Includes {seen.length === 1 ? "a live table" : `${seen.length} live tables`}:</strong>{" "}
        {seen.map((slug, i) => {
          const name = tables.find((t) => t.slug === slug)?.name;
          return (
            <Fragment key={slug}>
              {i > 0 ? ", " : null}
              {name ? <Link href={`/buckets/${workspace}/tables/${slug}`}>{name}</Link> : <span className="mono">{slug}</span>}
            </Fragment>
          );
        })}
        . The published page shows {seen.length === 1 ? "it" : "them"} under the text and updates when rows change.
      </p>
    </div>
  );
}
