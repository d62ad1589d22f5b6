// The app's live updates (docs/events.md#live-streams): one EventSource per signed-in tab on
// /api/events. Each change makes what is on screen fetch again (the workspace list, a page,
// a table grid, activity), so they update in place; an open editor's newer-version notice
// (who saved, and which version) comes from the same refetch, before the person saves. The
// stream carries ids and versions only; what changed is read through the API as ever, with
// the reader's access checked then. The browser reconnects by itself with its last id.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { ME_QUERY_KEY } from "../trpc";

/** Changes that come close together make one refetch. */
const SETTLE_MS = 150;

export function useLiveUpdates(enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource !== "function") return;
    const source = new EventSource("/api/events");
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        // Everything on screen but who is signed in (that is the session's own question).
        void client.invalidateQueries({ predicate: (q) => !(Array.isArray(q.queryKey[0]) && q.queryKey[0][0] === ME_QUERY_KEY[0][0]) });
      }, SETTLE_MS);
    };
    source.addEventListener("change", refresh);
    // Missed changes that are no longer kept: read the current state again.
    source.addEventListener("resync", refresh);
    // The session ended: `me.get` finds out and the app shows it.
    source.addEventListener("signed_out", () => {
      source.close();
      void client.invalidateQueries({ queryKey: ME_QUERY_KEY });
    });
    return () => {
      if (timer) clearTimeout(timer);
      source.close();
    };
  }, [enabled, client]);
}
