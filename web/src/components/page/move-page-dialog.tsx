// Changing a page's address (/a/{slug}): the old address keeps redirecting to the new one
// for 30 days (SLUG_REDIRECT_DAYS on the server), which the dialog says before it happens.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useLocation } from "wouter";
import { describeError, fieldIssue, isConflict } from "../../lib/errors";
import { slugProblem } from "../../lib/slug";
import { useTRPC } from "../../trpc";
import { FormDialog } from "../modal-dialog";
import { SlugField } from "../slug-field";

export function MovePageDialog({ open, workspace, slug, onClose }: { open: boolean; workspace: string; slug: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [next, setNext] = useState(slug);
  const [showProblem, setShowProblem] = useState(false);
  const move = useMutation(
    trpc.pages.move.mutationOptions({
      onSuccess: async (page) => {
        queryClient.setQueryData(trpc.pages.get.queryKey({ slug: page.slug }), page);
        onClose();
        navigate(`/buckets/${workspace}/${page.slug}`, { replace: true });
        queryClient.removeQueries({ queryKey: trpc.pages.get.queryKey({ slug }) });
        await Promise.all([queryClient.invalidateQueries(trpc.pages.pathFilter()), queryClient.invalidateQueries(trpc.workspaces.pathFilter())]);
      },
    }),
  );
  const local = slugProblem(next);
  const server = move.error
    ? isConflict(move.error)
      ? `The address /a/${next} is taken by another page (or still redirects to one). Choose another.`
      : fieldIssue(move.error, "new_slug")
    : null;
  const error = (showProblem ? local : null) ?? server;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShowProblem(true);
    if (local || next === slug) return;
    move.mutate({ slug, new_slug: next });
  };
  return (
    <FormDialog
      open={open}
      onOpen={() => {
        setNext(slug);
        setShowProblem(false);
        move.reset();
      }}
      onClose={onClose}
      busy={move.isPending}
      title="Change the page’s address"
      className="dialog"
      onSubmit={submit}
      error={move.error && !server ? describeError(move.error) : null}
      submitLabel="Change address"
    >
      <SlugField
        label="New address"
        prefix="/a/"
        hint={
          <>
            Lower-case letters, digits and hyphens. The old address <span className="mono">/a/{slug}</span> keeps sending readers here for 30 days; after that
            it stops working and another page may take it.
          </>
        }
        value={next}
        onChange={(v) => {
          setNext(v);
          if (move.isError) move.reset();
        }}
        error={error}
      />
    </FormDialog>
  );
}
