/** Where to go after signing in: only paths inside the app, never another origin ("//evil", "https://…", "/\\evil"). */
export function safeNext(raw: string | null): string {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\")) return "/";
  return raw;
}
