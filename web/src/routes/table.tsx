// /app/buckets/:slug/tables/:table — one data table as a grid: sort by a column, filter,
// load more, and for those who may write, add, edit and delete rows (each save says which
// version it builds on). Public workspaces show it read-only to visitors; viewers read too.
// Sort and filters live in the address, so a filtered view can be shared as a link.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { Link, useSearchParams } from "wouter";
import { VisibilityBadge } from "../components/badges";
import { PageError, PageLoading } from "../components/page-state";
import { DeleteRowDialog, type DeleteTarget } from "../components/table/delete-row-dialog";
import { FilterChips, FilterPanel } from "../components/table/filter-panel";
import { type HistoryTarget, RowHistoryDialog } from "../components/table/row-history";
import { TableGrid } from "../components/table/table-grid";
import { useRows, useTables } from "../components/table/use-table";
import { useDirectory } from "../components/workspace/use-directory";
import { describeError, isNotFound } from "../lib/errors";
import { plural } from "../lib/format";
import { useAnnouncer } from "../lib/use-announcer";
import { type FilterState, type GridState, activeFilters, gridStateOf, searchOf, serverFilterOf, serverProblems } from "../lib/table-cells";
import { useTRPC } from "../trpc";
import type { PublicPageProps } from "./app-routes";

export function TablePage({ user, params }: PublicPageProps) {
  const slug = params.slug ?? "";
  const tableSlug = params.table ?? "";
  const trpc = useTRPC();
  const workspace = useQuery(trpc.workspaces.get.queryOptions({ slug }));
  const { query: tablesQuery, tables } = useTables(slug);
  const [search, setSearch] = useSearchParams();
  const grid = useMemo(() => gridStateOf(search), [search]);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [adding, setAdding] = useState(search.get("add") === "1");
  const [history, setHistory] = useState<HistoryTarget | null>(null);
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  const [message, announce] = useAnnouncer();
  const addButton = useRef<HTMLButtonElement>(null);

  const ws = workspace.data;
  const isMember = Boolean(user && ws?.role);
  const directory = useDirectory(slug, user?.id ?? null, isMember);
  const listed = tables.find((t) => t.slug === tableSlug) ?? null;
  const columns = useMemo(() => listed?.columns ?? [], [listed]);
  const { filter, problems: filterProblems } = useMemo(() => serverFilterOf(columns, grid.filters), [columns, grid.filters]);
  const sort = grid.sort && columns.some((c) => c.name === grid.sort?.column) ? grid.sort : null;
  const filterOk = Object.keys(filterProblems).length === 0;
  const rows = useRows(slug, tableSlug, { filter, sort }, { enabled: listed !== null && filterOk, live: true });

  // "?add=1" (straight after creating a table) opens the new-row form once.
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

  if (workspace.isPending || tablesQuery.isPending) return <PageLoading label="Opening the table…" />;
  const loadError = workspace.error ?? tablesQuery.error;
  if (loadError || !ws) {
    if (isNotFound(loadError)) return <TableNotFound slug={slug} table={tableSlug} signedIn={user !== null} />;
    return (
      <PageError
        title="This table didn’t load"
        error={loadError}
        onRetry={() => void Promise.all([workspace.refetch(), tablesQuery.refetch()])}
      />
    );
  }
  if (!listed) return <TableNotFound slug={slug} table={tableSlug} signedIn={user !== null} />;

  const canWrite = Boolean(user) && ws.can_write;
  // The rows' own copy of the table is the freshest (columns, row count).
  const table = rows.data?.pages[0]?.table ?? listed;
  const allRows = rows.data?.pages.flatMap((p) => p.rows) ?? [];
  const active = activeFilters(table.columns, grid.filters);
  const filtered = active.length > 0;
  // A row added while filtering starts with the filtered values, so it shows up here.
  const newRowDefaults = Object.fromEntries(active.flatMap(([c, f]) => (f.eq ? [[c.name, f.eq]] : [])));
  const rowsProblem = rows.isError ? serverProblems(rows.error).find((p) => /^(filter|sort)/.test(p.path)) : undefined;
  const filterProblemText =
    Object.entries(filterProblems)
      .map(([name, p]) => `${name}: ${p}`)
      .join(" ") || (rowsProblem ? describeError(rows.error) : null);

  return (
    <div className="table-screen">
      <title>{`${table.name} · ${ws.name} · Atelier`}</title>
      <nav className="breadcrumb" aria-label="Breadcrumb">
        {user ? (
          <>
            <Link href="/">Workspaces</Link>
            <span aria-hidden="true">/</span>
          </>
        ) : null}
        <Link href={`/buckets/${slug}`}>{ws.name}</Link>
        <span aria-hidden="true">/</span>
        <Link href={`/buckets/${slug}?tab=tables`}>Tables</Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page">{table.name}</span>
      </nav>

      <header className="page-header page-header--row">
        <div className="page-header__main">
          <h1 className="page-header__title">{table.name}</h1>
          <p className="workspace-head__meta">
            <span className="mono">{table.slug}</span>
            <VisibilityBadge visibility={ws.visibility} />
            <span className="muted">
              {plural(table.row_count, "row")} · {plural(table.columns.length, "column")}
            </span>
          </p>
        </div>
        {canWrite ? (
          <div className="page-header__actions">
            <button ref={addButton} type="button" className="button button--primary" onClick={() => setAdding(true)} disabled={adding}>
              <span aria-hidden="true">+</span> Add row
            </button>
          </div>
        ) : null}
      </header>

      {!user ? (
        <p className="banner" role="note">
          You’re reading a public table. <Link href={`/sign-in?next=${encodeURIComponent(`/buckets/${slug}/tables/${tableSlug}`)}`}>Sign in</Link>{" "}
          if you’re a member and want to edit.
        </p>
      ) : !isMember ? (
        <p className="banner" role="note">
          This workspace is public, so you can read this table. Ask an owner to add you if you want to edit.
        </p>
      ) : !ws.can_write ? (
        <p className="banner" role="note">
          You’re a viewer here: you can read, sort and filter this table. Ask an owner to make you an editor to change it.
        </p>
      ) : null}

      <div className="grid-toolbar">
        <button
          type="button"
          className="button button--small"
          aria-expanded={filtersOpen}
          aria-controls="table-filters"
          onClick={() => setFiltersOpen((o) => !o)}
        >
          <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
            <path d="M2 3.5h12M4.5 8h7M7 12.5h2" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
          </svg>
          Filter{active.length > 0 ? ` (${active.length})` : ""}
        </button>
        <FilterChips
          columns={table.columns}
          filters={grid.filters}
          onRemove={(name) => {
            const { [name]: _gone, ...rest } = grid.filters;
            setFilters(rest);
          }}
          onClear={() => setFilters({})}
        />
        {sort ? (
          <p className="grid-toolbar__sort">
            Sorted by <strong>{sort.column}</strong> {sort.direction === "asc" ? "ascending" : "descending"}{" "}
            <button type="button" className="button--inline-link" onClick={() => setGrid({ ...grid, sort: null })}>
              Clear
            </button>
          </p>
        ) : null}
        <p className="grid-toolbar__status" role="status" aria-live="polite">
          {rows.isFetching && !rows.isFetchingNextPage && !rows.isPending ? "Updating…" : message}
        </p>
      </div>

      {filtersOpen ? (
        <div id="table-filters">
          <FilterPanel
            key={search.toString()}
            columns={table.columns}
            filters={grid.filters}
            serverProblem={filterProblemText}
            onApply={(next) => {
              setFilters(next);
              setFiltersOpen(false);
            }}
            onClose={() => setFiltersOpen(false)}
          />
        </div>
      ) : filterProblemText ? (
        <div className="inline-error" role="alert">
          <p>These filters can’t be used: {filterProblemText}</p>
          <button type="button" className="button button--small" onClick={() => setFiltersOpen(true)}>
            Change filters
          </button>
          <button type="button" className="button button--small button--quiet" onClick={() => setFilters({})}>
            Clear filters
          </button>
        </div>
      ) : null}

      {rows.isPending && filterOk ? (
        <div className="grid-skeleton" aria-busy="true" aria-label="Loading rows">
          {[0, 1, 2, 3, 4].map((i) => (
            <div key={i} className="grid-skeleton__row" aria-hidden="true" />
          ))}
        </div>
      ) : rows.isError && !rowsProblem ? (
        <div className="inline-error" role="alert">
          <p>The rows didn’t load. {describeError(rows.error)}</p>
          <button type="button" className="button button--small" onClick={() => void rows.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <TableGrid
          workspace={slug}
          collection={tableSlug}
          tableName={table.name}
          columns={table.columns}
          rows={allRows}
          sort={sort}
          onSort={(next) => setGrid({ ...grid, sort: next })}
          canWrite={canWrite}
          directory={directory}
          adding={adding}
          onAddingDone={() => {
            setAdding(false);
            window.setTimeout(() => {
              if (!document.activeElement || document.activeElement === document.body) addButton.current?.focus();
            }, 0);
          }}
          onStartAdding={() => setAdding(true)}
          newRowDefaults={newRowDefaults}
          onHistory={(row, name) => setHistory({ rowId: row.row_id, name })}
          onDelete={(row, name) => setDeleting({ row, name })}
          busy={rows.isFetching && !rows.isFetchingNextPage}
          filtered={filtered}
          onClearFilters={() => setFilters({})}
        />
      )}

      {rows.data && (allRows.length > 0 || rows.hasNextPage) ? (
        <div className="load-more">
          <p className="muted grid-count">
            {filtered
              ? `${plural(allRows.length, "row")} shown${rows.hasNextPage ? "; more match" : ""}`
              : `${allRows.length === table.row_count ? `All ${plural(allRows.length, "row")}` : `${allRows.length} of ${plural(table.row_count, "row")}`}`}
          </p>
          {rows.hasNextPage ? (
            <button type="button" className="button" onClick={() => void rows.fetchNextPage()} disabled={rows.isFetchingNextPage}>
              {rows.isFetchingNextPage ? "Loading…" : "Load more rows"}
            </button>
          ) : null}
          {rows.isFetchNextPageError ? (
            <p className="field__message field__message--error" role="alert">
              Couldn’t load more rows. {describeError(rows.error)}
            </p>
          ) : null}
        </div>
      ) : null}

      <RowHistoryDialog
        workspace={slug}
        collection={tableSlug}
        columns={table.columns}
        target={history}
        directory={directory}
        onClose={() => setHistory(null)}
      />
      <DeleteRowDialog
        workspace={slug}
        collection={tableSlug}
        columns={table.columns}
        target={deleting}
        directory={directory}
        onClose={() => setDeleting(null)}
        announce={announce}
      />
    </div>
  );
}

function TableNotFound({ slug, table, signedIn }: { slug: string; table: string; signedIn: boolean }) {
  return (
    <div className="not-found">
      <title>Not found · Atelier</title>
      <h1 className="page-header__title">This table isn’t here</h1>
      <p className="page-header__lead">
        There’s no table <span className="mono">{table}</span> in <span className="mono">{slug}</span> that you can open. It may be
        private, or the address may be mistyped.
      </p>
      {signedIn ? (
        <Link href={`/buckets/${slug}?tab=tables`} className="button button--primary">
          Back to the workspace’s tables
        </Link>
      ) : (
        <Link href={`/sign-in?next=${encodeURIComponent(`/buckets/${slug}/tables/${table}`)}`} className="button button--primary">
          Sign in to open it
        </Link>
      )}
    </div>
  );
}
