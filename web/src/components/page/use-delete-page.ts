import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { useTRPC } from "../../trpc";

/** Deletes a page, then goes back to its workspace with every list refreshed. */
export function useDeletePage(workspaceSlug: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation(
    trpc.pages.delete.mutationOptions({
      onSuccess: async ({ slug }) => {
        navigate(`/buckets/${workspaceSlug}`, { replace: true });
        queryClient.removeQueries({ queryKey: trpc.pages.get.queryKey({ slug }) });
        await Promise.all([queryClient.invalidateQueries(trpc.pages.pathFilter()), queryClient.invalidateQueries(trpc.workspaces.pathFilter())]);
      },
    }),
  );
}
