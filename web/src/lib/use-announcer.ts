import { useCallback, useEffect, useRef, useState } from "react";

/**
 * A short message for a live region ("Saved", "Row added") that clears itself after a
 * while, so an old message neither lingers on screen nor gets read again.
 */
export function useAnnouncer(clearAfterMs = 6000): [string, (message: string) => void] {
  const [message, setMessage] = useState("");
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const announce = useCallback(
    (next: string) => {
      window.clearTimeout(timer.current);
      setMessage(next);
      timer.current = window.setTimeout(() => setMessage(""), clearAfterMs);
    },
    [clearAfterMs],
  );
  return [message, announce];
}
