// The owner's side of a workspace: its members, the agents that acted in it, its activity,
// and earlier versions of its pages. Each hook is a tRPC query or mutation; mutations
// refresh exactly the queries their change shows up in.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type RouterInputs, type RouterOutputs, useTRPC } from "../trpc";

export type Member = RouterOutputs["workspaces"]["members"]["list"][number];
export type Role = Member["role"];
export type WorkspaceAgent = RouterOutputs["workspaces"]["agents"][number];
export type ActivityPage = RouterOutputs["workspaces"]["activity"];
export type ActivityEvent = ActivityPage["events"][number];
export type ActorView = ActivityEvent["actor"];
export type Revision = RouterOutputs["pages"]["revision"];

/** After a change to a workspace's people or agents: its lists, its activity, itself. */
function useRefreshWorkspaces() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(trpc.workspaces.pathFilter());
}

// ---------- Members ----------

export function useMembers(slug: string, enabled: boolean) {
  const trpc = useTRPC();
  return useQuery(trpc.workspaces.members.list.queryOptions({ slug }, { enabled }));
}

export function useAddMember() {
  const trpc = useTRPC();
  const refresh = useRefreshWorkspaces();
  return useMutation(trpc.workspaces.members.add.mutationOptions({ onSuccess: refresh }));
}

export function useSetMemberRole() {
  const trpc = useTRPC();
  const refresh = useRefreshWorkspaces();
  return useMutation(trpc.workspaces.members.setRole.mutationOptions({ onSuccess: refresh }));
}

export function useRemoveMember() {
  const trpc = useTRPC();
  const refresh = useRefreshWorkspaces();
  return useMutation(trpc.workspaces.members.remove.mutationOptions({ onSuccess: refresh }));
}

// ---------- Agents that acted in a workspace ----------

export function useWorkspaceAgents(slug: string, enabled: boolean) {
  const trpc = useTRPC();
  return useQuery(trpc.workspaces.agents.queryOptions({ slug }, { enabled }));
}

/** Cut an agent off a workspace, or let it back in (owners). */
export function useSetAgentBlocked() {
  const trpc = useTRPC();
  const refresh = useRefreshWorkspaces();
  const block = useMutation(trpc.workspaces.blockAgent.mutationOptions({ onSuccess: refresh }));
  const unblock = useMutation(trpc.workspaces.unblockAgent.mutationOptions({ onSuccess: refresh }));
  type Input = RouterInputs["workspaces"]["blockAgent"];
  return {
    mutate: (input: Input & { blocked: boolean }, options?: { onSuccess?: () => void }) => {
      const { blocked, ...rest } = input;
      (blocked ? block : unblock).mutate(rest, options);
    },
    isPending: block.isPending || unblock.isPending,
    error: block.error ?? unblock.error,
    isError: block.isError || unblock.isError,
    reset: () => {
      block.reset();
      unblock.reset();
    },
  };
}

// ---------- Activity ----------

export function useActivity(slug: string, enabled: boolean) {
  const trpc = useTRPC();
  return useInfiniteQuery(trpc.workspaces.activity.infiniteQueryOptions({ slug }, { enabled, getNextPageParam: (last) => last.next_cursor ?? undefined }));
}

// ---------- Earlier versions of a page ----------

export function useRevision(slug: string, version: number | null) {
  const trpc = useTRPC();
  return useQuery(
    trpc.pages.revision.queryOptions(
      { slug, version: version ?? 1 },
      { enabled: version !== null, staleTime: Infinity }, // a revision never changes
    ),
  );
}

/** Restores an earlier version as a new version; a conflict fetches the newest page. */
export function useRestoreRevision() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.pages.restore.mutationOptions({
      onSuccess: async (page) => {
        queryClient.setQueryData(trpc.pages.get.queryKey({ slug: page.slug }), page);
        await Promise.all([
          queryClient.invalidateQueries(trpc.pages.list.pathFilter()),
          queryClient.invalidateQueries(trpc.pages.history.queryFilter({ slug: page.slug })),
          queryClient.invalidateQueries(trpc.workspaces.pathFilter()),
        ]);
      },
      onError: () => queryClient.invalidateQueries(trpc.pages.pathFilter()),
    }),
  );
}
