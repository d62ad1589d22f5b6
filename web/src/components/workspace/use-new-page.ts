// "New page" in one click: the page is made at once and opened in the editor (lib/untitled.ts).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { isConflict } from "../../lib/errors";
import { placeholderSlug, UNTITLED } from "../../lib/untitled";
import { useTRPC } from "../../trpc";

export function useNewPage(workspace: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const create = useMutation(trpc.pages.create.mutationOptions());
  const start = (attempt = 0) =>
    create.mutate(
      { workspace, slug: placeholderSlug(), title: UNTITLED, body_markdown: "" },
      {
        onSuccess: (page) => {
          queryClient.setQueryData(trpc.pages.get.queryKey({ slug: page.slug }), page);
          navigate(`/buckets/${workspace}/${page.slug}?edit=1&new=1`);
          void Promise.all([queryClient.invalidateQueries(trpc.pages.list.pathFilter()), queryClient.invalidateQueries(trpc.workspaces.pathFilter())]);
        },
        // A placeholder taken already (one chance in 36^8): another one.
        onError: (err) => {
          if (isConflict(err) && attempt < 2) start(attempt + 1);
        },
      },
    );
  return { start: () => start(0), pending: create.isPending, error: create.error };
}
