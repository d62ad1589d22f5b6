// How the row editors behave at the keyboard: Enter saves and Escape cancels from any input
// of the row, the focus goes to the column that needs attention, and leaving the page with
// unsaved values asks first.
import { type KeyboardEvent, useEffect } from "react";

/** Enter saves and Escape cancels, from any input of the row (not from its buttons). */
export function editKeys(save: () => void, cancel: (() => void) | null) {
  return (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    if (event.key === "Escape" && cancel) {
      event.preventDefault();
      event.stopPropagation();
      cancel();
      return;
    }
    if (event.key === "Enter" && !event.shiftKey && !event.altKey && (target.tagName === "INPUT" || target.tagName === "SELECT")) {
      event.preventDefault();
      save();
    }
  };
}

/** Focuses (and selects) the input of `column` in the editor, or its first input. */
export function focusColumn(container: HTMLElement | null, column: string | undefined) {
  const inputs = container?.querySelectorAll<HTMLElement>("[data-column]");
  if (!inputs || inputs.length === 0) return;
  const target = [...inputs].find((el) => el.dataset.column === column) ?? inputs[0];
  if (container?.classList.contains("row-form")) {
    // The stacked form stays put at the left of the grid: only bring it into view vertically,
    // rather than letting the focus scroll the grid sideways.
    target?.focus({ preventScroll: true });
    const r = target?.getBoundingClientRect();
    if (r && (r.top < 64 || r.bottom > window.innerHeight)) window.scrollBy({ top: r.top - window.innerHeight / 3 });
  } else target?.focus();
  if (target instanceof HTMLInputElement && target.type !== "checkbox" && target.type !== "date" && target.type !== "datetime-local") {
    target.select();
  }
}

/** Leaving the page (closing the tab, reloading) asks first while there are unsaved values. */
export function useWarnBeforeLeaving(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return undefined;
    const beforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", beforeUnload);
    return () => window.removeEventListener("beforeunload", beforeUnload);
  }, [dirty]);
}
