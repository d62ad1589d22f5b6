// The one place that knows whether Atelier can be reached and whether the session is still
// there. The tRPC client's fetch (trpc.ts) reports every answer and every failed request; the
// query client reports a session that ended while someone was signed in. The app shell shows
// what this says (connection-notices.tsx): an offline banner, and a dialog instead of a
// silent swap to the public view.
import { useSyncExternalStore } from "react";

export interface ConnectionState {
  /** The browser says it is offline, or the last request got no answer at all. */
  offline: boolean;
  /** Why: the browser's own flag, or a request that failed on the way. */
  reason: "browser" | "unreachable" | null;
  /** A request was refused for want of a session while the app had someone signed in. */
  sessionLost: boolean;
}

let state: ConnectionState = { offline: false, reason: null, sessionLost: false };
const listeners = new Set<() => void>();

function set(next: Partial<ConnectionState>): void {
  const merged = { ...state, ...next };
  if (merged.offline === state.offline && merged.reason === state.reason && merged.sessionLost === state.sessionLost) return;
  state = merged;
  for (const l of listeners) l();
}

export function connectionState(): ConnectionState {
  return state;
}

/** A request got an answer (any status): the server is reachable. */
export function reportAnswer(): void {
  if (state.offline && !browserOffline()) set({ offline: false, reason: null });
}

/** A request got no answer (offline, DNS, a dropped connection, the proxy down). */
export function reportNoAnswer(): void {
  set({ offline: true, reason: browserOffline() ? "browser" : "unreachable" });
}

export function reportSessionLost(): void {
  set({ sessionLost: true });
}

export function clearSessionLost(): void {
  set({ sessionLost: false });
}

function browserOffline(): boolean {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}

let watching = false;

/** Follows the browser's online/offline events (once per page). */
export function watchBrowserConnection(onBackOnline: () => void): void {
  if (watching || typeof window === "undefined") return;
  watching = true;
  if (browserOffline()) set({ offline: true, reason: "browser" });
  window.addEventListener("offline", () => set({ offline: true, reason: "browser" }));
  window.addEventListener("online", () => {
    set({ offline: false, reason: null });
    onBackOnline();
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useConnection(): ConnectionState {
  return useSyncExternalStore(subscribe, connectionState, connectionState);
}

/**
 * How long to wait before retry `attempt` (0-based) of a query: 1 s, 2 s, 4 s … capped at
 * 30 s, with some jitter so many tabs don't come back at the same instant.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(1000 * 2 ** attempt, 30_000);
  return Math.round(base * (0.75 + random() * 0.5));
}
