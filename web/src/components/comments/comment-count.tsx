// Open comment threads on each page, for the workspace's page list: members only (the
// server answers nobody else), so the query runs only for them.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../trpc";

export function useOpenCommentCounts(workspace: string): Record<string, number> {
  const trpc = useTRPC();
  const ws = useQuery(trpc.workspaces.get.queryOptions({ slug: workspace }));
  const counts = useQuery(trpc.comments.counts.queryOptions({ workspace }, { enabled: Boolean(ws.data?.role), retry: false }));
  return counts.data?.pages ?? {};
}

export function CommentCount({ n }: { n: number | undefined }) {
  if (!n) return null;
  return (
    <>
      <span aria-hidden="true">·</span>
      <span>
        {n} open {n === 1 ? "comment" : "comments"}
      </span>
    </>
  );
}
