// The queries and mutations of a data table, with the cache kept right: a change to a row
// refreshes that table's row lists (every sort and filter), the workspace's table list (row
// counts), the row's history and the workspace itself (usage, activity).
import { keepPreviousData, type InfiniteData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import type { SortState } from "../../lib/table/grid-state";
import type { Row, ServerFilter, TableInfo } from "../../lib/table/types";
import { type RouterOutputs, useTRPC, useTRPCClient } from "../../trpc";

export const ROWS_PAGE_SIZE = 50;

type RowsPage = RouterOutputs["rows"]["list"];

/** The workspace's data tables (not its page collections), by name. */
export function useTables(workspace: string, enabled = true) {
  const trpc = useTRPC();
  const query = useQuery(trpc.collections.list.queryOptions({ workspace }, { enabled }));
  const tables = useMemo(() => (query.data ?? []).filter((c): c is TableInfo => c.kind === "table").sort((a, b) => a.name.localeCompare(b.name)), [query.data]);
  return { query, tables };
}

export function useRows(
  workspace: string,
  collection: string,
  view: { filter: ServerFilter | undefined; sort: SortState | null },
  options: { enabled: boolean; live: boolean },
) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input = {
    workspace,
    collection,
    limit: ROWS_PAGE_SIZE,
    ...(view.filter ? { filter: view.filter } : {}),
    ...(view.sort ? { sort: view.sort } : {}),
  };
  // tRPC's own infinite-query helper also sends `direction`, which rows.list's strict input
  // refuses; so the pages are fetched here, under the key that helper would use (so
  // `infiniteQueryFilter` still finds them for refreshes).
  return useInfiniteQuery({
    queryKey: trpc.rows.list.infiniteQueryKey(input),
    queryFn: ({ pageParam, signal }) => client.rows.list.query(pageParam ? { ...input, cursor: pageParam } : input, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last: RowsPage) => last.next_cursor ?? undefined,
    enabled: options.enabled,
    // Another sort or filter keeps the rows on screen until the new ones arrive.
    placeholderData: keepPreviousData,
    // Agents write here too: look again every half minute while the table is open.
    refetchInterval: options.live ? 30_000 : false,
  });
}

/** After a write to a table: everything that shows it. */
export function useRefreshTable(workspace: string, collection: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return (rowId?: string) =>
    Promise.all([
      queryClient.invalidateQueries(trpc.rows.list.infiniteQueryFilter({ workspace, collection })),
      queryClient.invalidateQueries(trpc.collections.list.queryFilter({ workspace })),
      queryClient.invalidateQueries(trpc.workspaces.pathFilter()),
      rowId ? queryClient.invalidateQueries(trpc.rows.history.queryFilter({ workspace, collection, row_id: rowId })) : Promise.resolve(),
    ]);
}

/**
 * Puts a saved row into every cached list of its table at once (no flash of the old
 * values), or takes a deleted one out; the refresh that follows re-sorts and re-filters.
 */
export function usePatchRows(workspace: string, collection: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return (rowId: string, next: Row | null) =>
    queryClient.setQueriesData<InfiniteData<RowsPage>>(trpc.rows.list.infiniteQueryFilter({ workspace, collection }), (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              rows: next ? page.rows.map((r) => (r.row_id === rowId ? next : r)) : page.rows.filter((r) => r.row_id !== rowId),
            })),
          }
        : data,
    );
}

/** The newest version of a row, from its history (there is no single-row read). */
export function useFetchNewest(workspace: string, collection: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async (rowId: string) => {
    const history = await queryClient.fetchQuery(trpc.rows.history.queryOptions({ workspace, collection, row_id: rowId }, { staleTime: 0 }));
    return history[0] ?? null;
  };
}

export function useUpdateRow() {
  const trpc = useTRPC();
  return useMutation(trpc.rows.update.mutationOptions());
}

export function useInsertRows() {
  const trpc = useTRPC();
  return useMutation(trpc.rows.insert.mutationOptions());
}

export function useDeleteRow() {
  const trpc = useTRPC();
  return useMutation(trpc.rows.delete.mutationOptions());
}
