// /app/buckets/:slug/tables/:table — one data table as a grid: sort by a column, filter,
// load more, and for those who may write, add, edit and delete rows (each save says which
// version it builds on). Public workspaces show it read-only to visitors; viewers read too.
// Sort and filters live in the address, so a filtered view can be shared as a link.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { VisibilityBadge } from "../components/badges";
import { CommentsPanel } from "../components/comments/comments-panel";
import { useFocusLinkedThread } from "../components/comments/page-comments";
import { Breadcrumb } from "../components/breadcrumb";
import { LoadError } from "../components/load-error";
import { NotFound } from "../components/not-found";
import { PageError, PageSkeleton } from "../components/page-state";
import { ReadOnlyBanner } from "../components/read-only-banner";
import { ShareButton } from "../components/share/share-menu";
import { DeleteRowDialog, type DeleteTarget } from "../components/table/delete-row-dialog";
import { FilterPanel } from "../components/table/filter-panel";
import { FilterProblem, GridToolbar } from "../components/table/grid-toolbar";
import { type HistoryTarget, RowHistoryDialog } from "../components/table/row-history";
import { RowsFooter } from "../components/table/rows-footer";
import { TableGrid } from "../components/table/table-grid";
import { TableSettings } from "../components/table/table-settings";
import { useGridSearch } from "../components/table/use-grid-search";
import { useRows, useTables } from "../components/table/use-table";
import { useDirectory } from "../components/workspace/use-directory";
import { describeError, isNotFound } from "../lib/errors";
import { plural } from "../lib/format";
import { signInHref } from "../lib/safe-next";
import { activeFilters, serverFilterOf } from "../lib/table/grid-state";
import { rowLabel } from "../lib/table/row-conflicts";
import { serverProblems } from "../lib/table/server-problems";
import { useAnnouncer } from "../lib/use-announcer";
import { useTRPC } from "../trpc";
import type { PublicScreenProps } from "./app-routes";
import "./table.css";

export function TableScreen({ user, params }: PublicScreenProps) {
  const slug = params.slug ?? "";
  const tableSlug = params.table ?? "";
  const trpc = useTRPC();
  const workspace = useQuery(trpc.workspaces.get.queryOptions({ slug }));
  const { query: tablesQuery, tables } = useTables(slug);
  const { search, setSearch, grid, setGrid, setFilters, addOnOpen } = useGridSearch();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [adding, setAdding] = useState(addOnOpen);
  const [history, setHistory] = useState<HistoryTarget | null>(null);
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
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
  // Comments on a row (members only, docs/comments.md#who-sees-and-writes-them): the row in `?comments=<row id>`.
  const commentsRow = search.get("comments");
  const rowCounts = useQuery(
    trpc.comments.rowCounts.queryOptions({ workspace: slug, table: tableSlug }, { enabled: isMember && listed !== null, retry: false }),
  );
  const setCommentsRow = (rowId: string | null) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (rowId) next.set("comments", rowId);
        else next.delete("comments");
        return next;
      },
      { replace: true },
    );

  if (workspace.isPending || tablesQuery.isPending) return <PageSkeleton kind="table" label="Opening the table…" />;
  const loadError = workspace.error ?? tablesQuery.error;
  if (loadError || !ws) {
    if (isNotFound(loadError)) return <TableNotFound slug={slug} table={tableSlug} signedIn={user !== null} />;
    return <PageError title="This table didn’t load" error={loadError} onRetry={() => void Promise.all([workspace.refetch(), tablesQuery.refetch()])} />;
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
      <Breadcrumb
        trail={[
          ...(user ? [{ href: "/", label: "Workspaces" }] : []),
          { href: `/buckets/${slug}`, label: ws.name },
          { href: `/buckets/${slug}?tab=tables`, label: "Tables" },
        ]}
        current={table.name}
      />

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
        <div className="page-header__actions">
          <ShareButton workspace={ws} signedIn={user !== null} target={{ kind: "table", slug: table.slug, title: table.name }} />
          {canWrite ? (
            <>
              <button type="button" className="button" onClick={() => setSettingsOpen((o) => !o)} aria-expanded={settingsOpen} aria-controls="table-settings">
                Table settings
              </button>
              <button ref={addButton} type="button" className="button button--primary" onClick={() => setAdding(true)} disabled={adding}>
                <span aria-hidden="true">+</span> Add row
              </button>
            </>
          ) : null}
        </div>
      </header>

      {user && isMember && !ws.can_write ? (
        <p className="banner" role="note">
          You’re a viewer here: you can read, sort and filter this table. Ask an owner to make you an editor to change it.
        </p>
      ) : (
        <ReadOnlyBanner signedIn={user !== null} isMember={isMember} what="table" path={`/buckets/${slug}/tables/${tableSlug}`} />
      )}

      {canWrite && settingsOpen ? (
        <div id="table-settings">
          <TableSettings workspace={slug} table={table} onClose={() => setSettingsOpen(false)} />
        </div>
      ) : null}

      <GridToolbar
        columns={table.columns}
        filters={grid.filters}
        activeCount={active.length}
        filtersOpen={filtersOpen}
        onToggleFilters={() => setFiltersOpen((o) => !o)}
        onFiltersChange={setFilters}
        sort={sort}
        onClearSort={() => setGrid({ ...grid, sort: null })}
        status={rows.isFetching && !rows.isFetchingNextPage && !rows.isPending ? "Updating…" : message}
      />

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
        <FilterProblem problem={filterProblemText} onChange={() => setFiltersOpen(true)} onClear={() => setFilters({})} />
      ) : null}

      {rows.isPending && filterOk ? (
        <div className="grid-skeleton" aria-busy="true" aria-label="Loading rows">
          {[0, 1, 2, 3, 4].map((i) => (
            <div key={i} className="grid-skeleton__row" aria-hidden="true" />
          ))}
        </div>
      ) : rows.isError && !rowsProblem ? (
        <LoadError what="The rows" error={rows.error} onRetry={() => void rows.refetch()} />
      ) : (
        <TableGrid
          workspace={slug}
          collection={tableSlug}
          table={table}
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
          commentCounts={isMember ? (rowCounts.data?.rows ?? {}) : null}
          onComments={(row) => setCommentsRow(row.row_id)}
          busy={rows.isFetching && !rows.isFetchingNextPage}
          filtered={filtered}
          onClearFilters={() => setFilters({})}
        />
      )}

      {rows.data && (allRows.length > 0 || rows.hasNextPage) ? (
        <RowsFooter
          shown={allRows.length}
          total={table.row_count}
          filtered={filtered}
          hasMore={rows.hasNextPage}
          loadingMore={rows.isFetchingNextPage}
          onLoadMore={() => void rows.fetchNextPage()}
          loadMoreFailed={rows.isFetchNextPageError}
          error={rows.error}
        />
      ) : null}

      {isMember && commentsRow ? (
        <RowComments
          workspace={slug}
          table={tableSlug}
          rowId={commentsRow}
          name={rowLabel(table.columns, allRows.find((r) => r.row_id === commentsRow)?.values ?? {}, "this row")}
          directory={directory}
          onClose={() => {
            setCommentsRow(null);
            window.setTimeout(() => document.querySelector<HTMLElement>(`[data-row-id="${CSS.escape(commentsRow)}"] [data-action="comments"]`)?.focus(), 0);
          }}
        />
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

/** A row's comment threads in a side sheet over the grid (a sheet from below on phones); Escape closes it. */
function RowComments({
  workspace,
  table,
  rowId,
  name,
  directory,
  onClose,
}: {
  workspace: string;
  table: string;
  rowId: string;
  name: string;
  directory: ReturnType<typeof useDirectory>;
  onClose: () => void;
}) {
  const [active, setActive] = useState<string | null>(null);
  const sheet = useRef<HTMLDivElement>(null);
  const trpc = useTRPC();
  const threads = useQuery(trpc.comments.list.queryOptions({ workspace, table, row_id: rowId, include_resolved: true }));
  useEffect(() => {
    if (!window.location.hash) sheet.current?.querySelector<HTMLElement>("textarea")?.focus();
  }, [rowId]);
  useFocusLinkedThread(threads.isSuccess, (id) => {
    setActive(id);
    document.querySelector<HTMLElement>(`[data-thread="${CSS.escape(id)}"]`)?.focus();
  });
  return (
    <div
      ref={sheet}
      className="row-comments-sheet"
      onKeyDown={(e) => {
        if (e.key === "Escape" && !e.defaultPrevented) onClose();
      }}
    >
      <CommentsPanel
        target={{ kind: "row", workspace, table, rowId, name }}
        directory={directory}
        active={active}
        onFocusThread={setActive}
        onClose={onClose}
      />
    </div>
  );
}

function TableNotFound({ slug, table, signedIn }: { slug: string; table: string; signedIn: boolean }) {
  return (
    <NotFound
      title="This table isn’t here"
      action={
        signedIn
          ? { href: `/buckets/${slug}?tab=tables`, label: "Back to the workspace’s tables" }
          : { href: signInHref(`/buckets/${slug}/tables/${table}`), label: "Sign in to open it" }
      }
    >
      There’s no table <span className="mono">{table}</span> in <span className="mono">{slug}</span> that you can open. It may be private, or the address may be
      mistyped.
    </NotFound>
  );
}
