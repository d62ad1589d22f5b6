// The ⌘K palette's results as one list the keyboard walks through, and where each leads.
import type { RecentItem } from "./recent";
import type { RouterOutputs } from "../trpc";

export type SearchResults = RouterOutputs["search"]["everything"];

export interface SearchOption {
  key: string;
  group: "Recent" | "Workspaces" | "Pages" | "Tables";
  title: string;
  /** Where it is: the workspace's name (for pages and tables) or the slug. */
  detail: string;
  href: string;
  /** For a page: the passage that matched, with the query's words marked. */
  snippet?: SnippetPiece[];
}

/** A piece of a snippet: plain, or one of the query's words (shown marked). */
export interface SnippetPiece {
  text: string;
  mark: boolean;
}

/** A snippet cut at its highlights ([start, end) offsets, in order) into plain and marked pieces. */
export function snippetPieces(snippet: { text: string; highlights: [number, number][] }): SnippetPiece[] {
  const out: SnippetPiece[] = [];
  let at = 0;
  for (const [start, end] of snippet.highlights) {
    if (start < at || end <= start || end > snippet.text.length) continue;
    if (start > at) out.push({ text: snippet.text.slice(at, start), mark: false });
    out.push({ text: snippet.text.slice(start, end), mark: true });
    at = end;
  }
  if (at < snippet.text.length) out.push({ text: snippet.text.slice(at), mark: false });
  return out;
}

export function searchOptions(results: SearchResults | undefined): SearchOption[] {
  if (!results) return [];
  return [
    ...results.workspaces.map((w): SearchOption => ({ key: `w:${w.slug}`, group: "Workspaces", title: w.name, detail: w.slug, href: `/buckets/${w.slug}` })),
    ...results.pages.map((p): SearchOption => ({
      key: `p:${p.slug}`,
      group: "Pages",
      title: p.title,
      detail: p.workspace_name,
      href: `/buckets/${p.workspace}/${p.slug}`,
      ...(p.snippet.text ? { snippet: snippetPieces(p.snippet) } : {}),
    })),
    ...results.tables.map((t): SearchOption => ({
      key: `t:${t.workspace}/${t.slug}`,
      group: "Tables",
      title: t.name,
      detail: t.workspace_name,
      href: `/buckets/${t.workspace}/tables/${t.slug}`,
    })),
  ];
}

/** The option after (or before) `index`, wrapping around; -1 when there are none. */
export function moveActive(index: number, count: number, step: 1 | -1): number {
  if (count === 0) return -1;
  if (index < 0) return step === 1 ? 0 : count - 1;
  return (index + step + count) % count;
}

/** ⌘K on a Mac, Ctrl-K elsewhere (either works everywhere). */
export function isPaletteShortcut(event: Pick<KeyboardEvent, "key" | "metaKey" | "ctrlKey" | "altKey" | "shiftKey">): boolean {
  return (event.metaKey || event.ctrlKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "k";
}

/** Before anything is typed: what was opened lately, newest first. */
export function recentOptions(items: RecentItem[]): SearchOption[] {
  return items.map((r) => ({ key: `r:${r.href}`, group: "Recent", title: r.title, detail: r.where || "Workspace", href: r.href }));
}
