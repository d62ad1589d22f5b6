// A page made with one-click "New page" sits at a placeholder address until its first save
// with a real title; then it takes the address made from that title (lib/untitled.ts), with a
// short suffix when that one is taken. The editor stays open (the screen is the same page).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useLocation } from "wouter";
import { isConflict } from "../../../lib/errors";
import { addressFromTitle, isPlaceholderSlug } from "../../../lib/untitled";
import { useTRPC } from "../../../trpc";
import type { PageView } from "./editor-session";

export function useAddressFromTitle(workspace: string, base: PageView, onMoved: (slug: string) => void): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const move = useMutation(trpc.pages.move.mutationOptions());
  const [attempt, setAttempt] = useState(0);
  const next = isPlaceholderSlug(base.slug) && attempt < 4 ? addressFromTitle(base.title, attempt) : null;

  useEffect(() => {
    if (!next || move.isPending) return;
    const from = base.slug;
    move.mutate(
      { slug: from, new_slug: next },
      {
        onSuccess: (moved) => {
          queryClient.setQueryData(trpc.pages.get.queryKey({ slug: moved.slug }), moved);
          onMoved(moved.slug);
          navigate(`/buckets/${workspace}/${moved.slug}?edit=1`, { replace: true, state: { keepFocus: true } });
          queryClient.removeQueries({ queryKey: trpc.pages.get.queryKey({ slug: from }) });
          void Promise.all([queryClient.invalidateQueries(trpc.pages.list.pathFilter()), queryClient.invalidateQueries(trpc.search.pathFilter())]);
        },
        onError: (err) => {
          if (isConflict(err)) setAttempt((a) => a + 1);
        },
      },
    );
    // One try per address; the mutation's own state is not a reason to try again.
  }, [next, base.slug]);
}
