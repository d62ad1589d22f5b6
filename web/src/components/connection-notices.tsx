// What lib/connection.ts knows, shown once for every screen: a banner while Atelier can't be
// reached, and a dialog when the session ended while someone was signed in. The screen
// underneath stays as it was (an editor keeps its text; it is also kept in this browser).
import { useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { useLocation } from "wouter";
import { clearSessionLost, useConnection } from "../lib/connection";
import type { SignInNotice } from "../lib/session";
import { ME_QUERY_KEY } from "../trpc";
import { ModalDialog } from "./modal-dialog";
import "./connection-notices.css";

export function OfflineBanner() {
  const { offline, reason } = useConnection();
  const queryClient = useQueryClient();
  return (
    <div className="offline-banner" role="status" hidden={!offline}>
      {offline ? (
        <>
          <p>
            {reason === "browser" ? "You’re offline. What’s on screen stays; saving works again once you’re back online." : "Couldn’t reach Atelier. Retrying…"}
          </p>
          <button type="button" className="button button--small" onClick={() => void queryClient.refetchQueries({ type: "active" })}>
            Retry now
          </button>
        </>
      ) : null}
    </div>
  );
}

/** Signed out under their hands (the session expired, or ended from another device). */
export function SignedOutDialog({ email }: { email: string | null }) {
  const { sessionLost } = useConnection();
  const id = useId();
  const queryClient = useQueryClient();
  const [location, navigate] = useLocation();
  const open = sessionLost && email !== null;

  const signIn = () => {
    clearSessionLost();
    // Leaving the screen keeps an editor's unsaved text in this browser (use-stored-draft);
    // after signing in, the same address opens again and offers it back.
    void queryClient.resetQueries({ queryKey: ME_QUERY_KEY });
    // The address is filled in already (it is the same person, most likely), and the sign-in
    // comes back here.
    navigate(`/sign-in?next=${encodeURIComponent(location + window.location.search)}`, {
      state: { notice: "Your session ended. Sign in again to go back to where you were.", email: email ?? undefined } satisfies SignInNotice,
    });
  };

  return (
    <ModalDialog open={open} labelledBy={`${id}-title`} describedBy={`${id}-text`} onCancel={clearSessionLost}>
      <h2 id={`${id}-title`} className="dialog__title">
        You were signed out — sign in to save; your text is kept
      </h2>
      <p id={`${id}-text`} className="dialog__text">
        Your session ended (it expired, or you signed out on another device). Nothing you typed is lost: it stays on this screen and in this browser, and comes
        back after you sign in.
      </p>
      <div className="dialog__actions">
        <button type="button" className="button" onClick={clearSessionLost}>
          Not now
        </button>
        <button type="button" className="button button--primary" onClick={signIn} autoFocus>
          Sign in
        </button>
      </div>
    </ModalDialog>
  );
}
