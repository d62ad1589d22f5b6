// Unsaved work is kept in this browser: while typing (after a pause), when the tab closes
// (which also asks first), and when the person leaves the editor inside the app. Opening the
// editor again offers it back.
import { useEffect, useRef, useState } from "react";
import { clearStoredDraft, type Draft, loadStoredDraft, type StoredDraft, sameDraft, storeDraft, storedAsDraft } from "../../../lib/draft";

export function useStoredDraft(slug: string, opened: Draft, now: { dirty: boolean; draft: Draft; baseVersion: number; savedVersion: number | null }) {
  const { dirty, draft, baseVersion, savedVersion } = now;
  const [offer, setOffer] = useState<StoredDraft | null>(() => {
    const stored = loadStoredDraft(slug);
    return stored && !sameDraft(storedAsDraft(stored, opened), opened) ? stored : null;
  });
  // Once a save went through, an offer of older unsaved work is out of date: it goes (the
  // copy it offered was replaced by the save), so no stale "unsaved changes" note stays up.
  useEffect(() => {
    if (savedVersion !== null) setOffer(null);
  }, [savedVersion]);

  useEffect(() => {
    if (!dirty) return undefined;
    const timer = window.setTimeout(() => storeDraft(slug, draft, baseVersion), 600);
    const beforeUnload = (event: BeforeUnloadEvent) => {
      storeDraft(slug, draft, baseVersion);
      event.preventDefault();
    };
    window.addEventListener("beforeunload", beforeUnload);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener("beforeunload", beforeUnload);
    };
  }, [dirty, draft, baseVersion, slug]);

  // Leaving the editor inside the app (a link, the back button) keeps unsaved work too.
  const unsaved = useRef(now);
  unsaved.current = now;
  useEffect(
    () => () => {
      const { dirty: wasDirty, draft: last, baseVersion: lastBase } = unsaved.current;
      if (wasDirty) storeDraft(slug, last, lastBase);
    },
    [slug],
  );

  /** "Done" or "Cancel": asks first when there are unsaved changes. False when the person stays. */
  const leave = (): boolean => {
    if (dirty && !window.confirm("Leave the editor? Your changes aren’t saved. (A copy stays in this browser.)")) return false;
    unsaved.current = { ...unsaved.current, dirty: false };
    if (dirty) storeDraft(slug, draft, baseVersion);
    else clearStoredDraft(slug);
    return true;
  };

  return {
    offer,
    /** The offer was taken: the caller restores it into the draft. */
    acceptOffer: () => setOffer(null),
    discardOffer: () => {
      clearStoredDraft(slug);
      setOffer(null);
    },
    leave,
  };
}
