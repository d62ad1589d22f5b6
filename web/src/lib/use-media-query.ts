import { useSyncExternalStore } from "react";

/** Whether a CSS media query matches now, kept current as the window changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Phones and narrow windows: forms stack, one field a line. Matches the 40rem breakpoint of the grid and form styles (table-grid.css, field.css). */
export const NARROW = "(max-width: 39.99rem)";
