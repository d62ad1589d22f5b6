// Who is signed in, derived from the one `me.get` query: a 401 means "signed out", not an error.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useLocation } from "wouter";
import { type RouterOutputs, useTRPC } from "../trpc";
import { clearSessionLost } from "./connection";
import { isUnauthorized } from "./errors";

export type SignedInUser = RouterOutputs["me"]["get"];

export type Session =
  { status: "loading" } | { status: "signed-out" } | { status: "signed-in"; user: SignedInUser } | { status: "error"; error: unknown; retry: () => void };

export function useSession(): Session {
  const trpc = useTRPC();
  const me = useQuery(trpc.me.get.queryOptions(undefined, { staleTime: 60_000 }));
  const { refetch } = me;
  const retry = useCallback(() => void refetch(), [refetch]);
  // A failed background refresh keeps the last answer: a blip should not sign anyone out, and
  // a session that ended under someone's hands raises the "signed out" dialog (trpc.ts) rather
  // than swapping the screen (and the editor with their text) for the public view.
  if (me.data) return { status: "signed-in", user: me.data };
  if (me.error && isUnauthorized(me.error)) return { status: "signed-out" };
  if (me.error) return { status: "error", error: me.error, retry };
  return { status: "loading" };
}

/** What the sign-in screen says after a sign-out; passed in the history entry's state. */
export interface SignInNotice {
  notice?: string;
  /** The address to fill in (signed out by an expired session: the same person, most likely). Kept out of the URL. */
  email?: string;
}

/**
 * Sign out (this browser) or everywhere (every session of the account). Afterwards every
 * cached answer is dropped, so nothing of the previous account stays on screen, and the
 * app goes home, which shows the sign-in screen.
 */
export function useSignOut() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const leave = (notice: string) => {
    clearSessionLost();
    void queryClient.resetQueries();
    navigate("/", { replace: true, state: { notice } satisfies SignInNotice });
  };
  // A 401 means the session had already ended (elsewhere, or it expired): the goal is met.
  const alreadyOut = (err: unknown) => {
    if (isUnauthorized(err)) leave("You’re signed out.");
  };
  const here = useMutation(trpc.auth.signOut.mutationOptions({ onSuccess: () => leave("You’re signed out."), onError: alreadyOut }));
  const everywhere = useMutation(
    trpc.auth.signOutEverywhere.mutationOptions({
      onSuccess: ({ sessionsEnded }) =>
        leave(sessionsEnded > 1 ? `You’re signed out everywhere: ${sessionsEnded} sessions ended.` : "You’re signed out everywhere."),
      onError: alreadyOut,
    }),
  );
  return { here, everywhere, pending: here.isPending || everywhere.isPending };
}
