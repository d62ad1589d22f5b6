// Saving a page: each save says which version it builds on (expected_version). When someone
// else saved meanwhile, their version is fetched and shown beside the draft (ConflictPanel).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useReducer } from "react";
import { clearStoredDraft, type Draft, draftOf, isEmptyUpdate, updateInputFor } from "../../../lib/draft";
import { mergeDrafts } from "../../../lib/merge";
import { describeError, isNotFound, isVersionConflict } from "../../../lib/errors";
import { useTRPC } from "../../../trpc";
import { editorReducer, type PageView, startSession } from "./editor-session";

export function usePageSave(page: PageView) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [session, dispatch] = useReducer(editorReducer, page, startSession);
  const save = useMutation(trpc.pages.update.mutationOptions());

  const afterSave = async (saved: PageView) => {
    queryClient.setQueryData(trpc.pages.get.queryKey({ slug: saved.slug }), saved);
    await Promise.all([
      queryClient.invalidateQueries(trpc.pages.list.pathFilter()),
      queryClient.invalidateQueries(trpc.pages.history.queryFilter({ slug: saved.slug })),
      queryClient.invalidateQueries(trpc.workspaces.pathFilter()),
    ]);
  };

  /**
   * Someone saved meanwhile: fetch their version. When their change and the draft don't
   * overlap (other fields, other lines), both are merged and saved over theirs; otherwise
   * both are shown side by side for the person to choose.
   */
  const showConflict = async (over: PageView, next: Draft, resolving: boolean) => {
    try {
      const theirs = await queryClient.fetchQuery(trpc.pages.get.queryOptions({ slug: page.slug }, { staleTime: 0 }));
      save.reset();
      const merged = !resolving && theirs.version > over.version ? mergeDrafts(draftOf(over), next, draftOf(theirs)) : null;
      if (merged) {
        dispatch({ type: "merge", theirs, merged, from: next });
        send(theirs, merged, false);
        return;
      }
      dispatch({ type: "conflict", theirs });
    } catch (fetchErr) {
      dispatch({
        type: "conflict-failed",
        message: isNotFound(fetchErr)
          ? "This page was deleted meanwhile. Copy your text below to keep it."
          : `Someone changed this page meanwhile, and the newest version didn’t load. ${describeError(fetchErr)}`,
      });
    }
  };

  /** Sends `next` on top of `over`; on a version conflict, fetches the newest and shows both. */
  function send(over: PageView, next: Draft, resolving: boolean): void {
    const input = updateInputFor(over, next);
    if (isEmptyUpdate(input)) {
      // Nothing differs from the version it would go over: adopt that version.
      dispatch({ type: "adopt", over, next });
      clearStoredDraft(page.slug);
      return;
    }
    dispatch({ type: "sending" });
    save.mutate(input, {
      onSuccess: (saved) => {
        dispatch({ type: "saved", saved, sent: next });
        clearStoredDraft(page.slug);
        void afterSave(saved);
      },
      onError: (err) => {
        if (!isVersionConflict(err)) {
          if (resolving) dispatch({ type: "conflict-failed", message: describeError(err) });
          return;
        }
        void showConflict(over, next, resolving);
      },
    });
  }

  return { session, dispatch, save, send };
}
