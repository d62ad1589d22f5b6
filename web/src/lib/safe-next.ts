// Where sign-in goes afterwards (`/app/sign-in?next=…`): a path on this origin, never an
// address elsewhere. Paths are the app's own (`/buckets/notes`, under /app), or a published
// page's address (`/a/{slug}`, `/artifacts/{id}`: its not-found page links here), which is
// outside the app and opened as a whole page.

const ORIGIN = "https://atelier.invalid";

/** Published addresses outside the app that sign-in returns to. */
const SITE_PATH = /^\/(?:a|artifacts)\/[^/]/;

/**
 * The path to go to after signing in, or "/" (the app's home). Anything that would leave
 * this origin is refused: "//evil", "https://…", "/\\evil", "/\t/evil" (browsers drop tabs
 * and newlines from addresses), and control characters anywhere.
 */
export function safeNext(raw: string | null): string {
  // eslint-disable-next-line no-control-regex
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\") || /[\u0000-\u001f\u007f]/.test(raw)) return "/";
  let url: URL;
  try {
    url = new URL(raw, ORIGIN);
  } catch {
    return "/";
  }
  if (url.origin !== ORIGIN) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Whether a safe `next` is a published page's address (opened as a whole page, not inside the app). */
export function isSitePath(next: string): boolean {
  return SITE_PATH.test(next);
}

/** Goes to a safe `next`: inside the app with its router, or to a published page with a page load. */
export function goToNext(next: string, navigate: (to: string, options: { replace: boolean }) => void): void {
  if (isSitePath(next)) window.location.replace(next);
  else navigate(next, { replace: true });
}

/** The sign-in screen, coming back to `path` (inside the app) afterwards. */
export function signInHref(path: string): string {
  return `/sign-in?next=${encodeURIComponent(path)}`;
}
