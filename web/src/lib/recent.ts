// Recently opened workspaces, pages and tables, kept in this browser (newest first, at most
// 8), for the sidebar and for ⌘K before anything is typed. Only titles and app paths are
// kept, never content.
import { useSyncExternalStore } from "react";

export interface RecentItem {
  kind: "workspace" | "page" | "table";
  /** The app path, e.g. /buckets/notes/trip. */
  href: string;
  title: string;
  /** The workspace's name, for pages and tables. */
  where: string;
}

const KEY = "atelier:recent";
const MAX = 8;
const listeners = new Set<() => void>();
let cache: { raw: string | null; items: RecentItem[] } = { raw: null, items: [] };

function read(): string | null {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function recentItems(): RecentItem[] {
  const raw = typeof window === "undefined" ? null : read();
  if (raw === cache.raw) return cache.items;
  let items: RecentItem[] = [];
  try {
    const parsed = raw ? (JSON.parse(raw) as unknown) : [];
    if (Array.isArray(parsed)) {
      items = parsed.filter(
        (i): i is RecentItem =>
          typeof i === "object" &&
          i !== null &&
          ["workspace", "page", "table"].includes((i as RecentItem).kind) &&
          typeof (i as RecentItem).href === "string" &&
          (i as RecentItem).href.startsWith("/buckets/") &&
          typeof (i as RecentItem).title === "string" &&
          typeof (i as RecentItem).where === "string",
      );
    }
  } catch {
    items = [];
  }
  cache = { raw, items };
  return items;
}

/** Puts the item first (once). */
export function recordRecent(item: RecentItem): void {
  const now = recentItems();
  if (now[0]?.href === item.href && now[0].title === item.title && now[0].where === item.where) return;
  const next = [item, ...now.filter((i) => i.href !== item.href)].slice(0, MAX);
  try {
    window.localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    return;
  }
  for (const l of listeners) l();
}

/** Forgets an address that is gone (a deleted page, one that moved). */
export function forgetRecent(href: string): void {
  const now = recentItems();
  if (!now.some((i) => i.href === href)) return;
  try {
    window.localStorage.setItem(KEY, JSON.stringify(now.filter((i) => i.href !== href)));
  } catch {
    return;
  }
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

export function useRecent(): RecentItem[] {
  return useSyncExternalStore(subscribe, recentItems, () => []);
}
