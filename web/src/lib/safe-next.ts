/** Where to go after signing in: only paths inside the app, never another origin ("//evil", "https://…", "/\\evil"). */
export function safeNext(raw: string | null): string {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\")) return "/";
  return raw;
}

/** The sign-in screen, coming back to `path` (inside the app) afterwards. */
export function signInHref(path: string): string {
  return `/sign-in?next=${encodeURIComponent(path)}`;
}
