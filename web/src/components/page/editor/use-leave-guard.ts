// Leaving with unsaved text asks first: an in-app link (caught before the router sees the
// click) as well as closing or reloading the tab (beforeunload, in use-stored-draft.ts).
import { useEffect, useRef } from "react";

export const LEAVE_QUESTION = "Leave this page? Your latest changes aren’t saved yet. (A copy stays in this browser.)";

export function useLeaveGuard(unsaved: boolean): void {
  const active = useRef(unsaved);
  active.current = unsaved;
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (!active.current || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      const to = new URL(link.href, window.location.href);
      if (to.origin !== window.location.origin) return;
      if (to.pathname === window.location.pathname && to.search === window.location.search) return;
      if (window.confirm(LEAVE_QUESTION)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    // Capture, on the document: before the router's own handler on the app's root.
    document.addEventListener("click", onClick, true);
    return () => document.removeEventListener("click", onClick, true);
  }, []);
}
