// Every process follows the signal order (feed.ts) by position: it reads the next signals by
// `_id` every CHANGES_POLL_MS (at once again while there are more), drops the cache entries
// each one makes stale, then hands it to this process's subscribers (SSE streams, MCP
// resource subscriptions). So a change made anywhere is seen here within about one poll
// interval plus a read, well inside CACHE_TTL_MS (docs/performance.md, "The change feed").
// A follower that fell behind what is kept (a process paused for long) clears its whole
// cache and tells its subscribers to resync.
import type { ChangeSignalDoc } from "../../db/index";
import { forgetArtifacts } from "../artifacts";
import type { StoreDeps } from "../deps";
import { forgetPage } from "../pages/page-store";
import { forgetTokenById } from "../tokens";
import { forgetWorkspaceById } from "../workspaces";
import { readSignals, signalHead } from "./feed";

export type FollowedSignal = ChangeSignalDoc | { kind: "resync" };
export type SignalListener = (s: FollowedSignal) => void;

const BATCH = 200;

/** Drops what a signal makes stale from this process's cache. */
export function dropStale(deps: Pick<StoreDeps, "cache">, s: ChangeSignalDoc): void {
  if (s.kind === "token") forgetTokenById(deps, s.id);
  if (s.kind !== "workspace") return;
  // The workspace document (members, roles, visibility) and its public artifacts.
  forgetWorkspaceById(deps, s.id);
  forgetArtifacts(deps, s.id);
  if (s.target?.kind === "page") forgetPage(deps, s.target.id);
}

export class ChangeFollower {
  private position: number | null = null;
  private readonly listeners = new Set<SignalListener>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly deps: StoreDeps,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Starts following from the newest signal (what came before is already in the database). */
  async start(): Promise<this> {
    this.position = (await signalHead(this.deps)).seq;
    this.schedule(0);
    return this;
  }

  /** Adds a subscriber; returns the function that removes it. */
  subscribe(fn: SignalListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  get subscribers(): number {
    return this.listeners.size;
  }

  /**
   * Reads what is new now (tests call it to skip the wait). A read already under way may have
   * begun before the change the caller waits for, so a fresh one follows it.
   */
  poll(): Promise<void> {
    if (this.running) return this.running.then(() => this.poll());
    this.running = this.readOnce().finally(() => (this.running = null));
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.poll().catch((err: unknown) => this.onError(err));
    }, ms);
    this.timer.unref();
  }

  private async readOnce(): Promise<void> {
    let more = false;
    try {
      if (this.position === null) this.position = (await signalHead(this.deps)).seq;
      const r = await readSignals(this.deps, this.position, BATCH);
      if (r.behind) {
        this.deps.cache.clear();
        this.position = r.next;
        this.emit({ kind: "resync" });
        return;
      }
      for (const s of r.signals) {
        dropStale(this.deps, s);
        this.emit(s);
      }
      this.position = r.next;
      more = r.signals.length === BATCH;
    } finally {
      this.schedule(more ? 0 : this.deps.config.CHANGES_POLL_MS);
    }
  }

  private emit(s: FollowedSignal): void {
    for (const fn of this.listeners) {
      try {
        fn(s);
      } catch (err) {
        this.onError(err);
      }
    }
  }
}
