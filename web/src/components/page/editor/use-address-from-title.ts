// A page made with one-click "New page" sits at a placeholder address until its first save
// with a real title; then it takes the address made from that title (lib/untitled.ts), with a
// short suffix when that one is taken. The editor stays open (the screen is the same page).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useLocation } from "wouter";
import { isConflict } from "../../../lib/errors";
import { addressFromTitle, isPlaceholderSlug } from "../../../lib/untitled";
import { useTRPC } from "../../../trpc";
import type { PageView } from "./editor-session";

export function useAddressFromTitle(workspace: string, base: PageView, onMoved: (slug: string) => void): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const onMovedRef = useRef(onMoved);
  onMovedRef.current = onMoved;
  // The follow-up lives on the mutation, not on mutate(): if the old address's page query
  // answers 404 while the move is on its way (a refetch under load), the page screen shows
  // "not found" and unmounts this editor, and mutate()'s own callbacks would then never run,
  // leaving the person on a dead address. These run anyway, and go to the new one.
  const move = useMutation(
    trpc.pages.move.mutationOptions({
      onSuccess: (moved, { slug: from }) => {
        queryClient.setQueryData(trpc.pages.get.queryKey({ slug: moved.slug }), moved);
        onMovedRef.current(moved.slug);
        navigate(`/buckets/${workspace}/${moved.slug}?edit=1`, { replace: true, state: { keepFocus: true } });
        queryClient.removeQueries({ queryKey: trpc.pages.get.queryKey({ slug: from }) });
        void Promise.all([queryClient.invalidateQueries(trpc.pages.list.pathFilter()), queryClient.invalidateQueries(trpc.search.pathFilter())]);
      },
      onError: (err) => {
        if (isConflict(err)) setAttempt((a) => a + 1);
      },
    }),
  );
  const [attempt, setAttempt] = useState(0);
  const next = isPlaceholderSlug(base.slug) && attempt < 4 ? addressFromTitle(base.title, attempt) : null;

  useEffect(() => {
    if (!next || move.isPending) return;
    // No refetch of the old address may land while it moves (it would answer 404).
    void queryClient.cancelQueries({ queryKey: trpc.pages.get.queryKey({ slug: base.slug }) });
    move.mutate({ slug: base.slug, new_slug: next });
    // One try per address; the mutation's own state is not a reason to try again.
  }, [next, base.slug]);
}
