// The read cache (docs/ARCHITECTURE.md#state): rendered public artifacts and the access documents a request
// needs (a session's user, a token, a workspace, a slug's id) may be served from this
// process's memory for at most CACHE_TTL_MS. The process that makes a change drops its own
// entries at once; every other process sees it within the bound. Nothing else is cached,
// and CACHE_TTL_MS=0 makes every read exact. Memory is bounded: least recently used entries
// go first once CACHE_MAX_BYTES is reached.

interface Entry {
  value: unknown;
  bytes: number;
  until: number;
  tags: readonly string[];
}

export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byTag = new Map<string, Set<string>>();
  /** Loads under way; `stale` once a change dropped their key (or any tag) while they ran. */
  private readonly inflight = new Map<string, { promise: Promise<unknown>; stale: boolean }>();
  private bytes = 0;

  constructor(
    readonly ttlMs: number,
    readonly maxBytes: number,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0 && this.maxBytes > 0;
  }

  /** The cached value (null is a value: "known not to exist"), or undefined. */
  get<T>(key: string): T | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until <= Date.now()) {
      this.delete(key);
      return undefined;
    }
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value as T;
  }

  set(key: string, value: unknown, opts: { bytes?: number; tags?: readonly string[] } = {}): void {
    if (!this.enabled) return;
    const bytes = (opts.bytes ?? 0) + key.length + 200;
    if (bytes > this.maxBytes / 4) return; // one entry never crowds out the rest
    this.delete(key);
    const tags = opts.tags ?? [];
    this.entries.set(key, { value, bytes, until: Date.now() + this.ttlMs, tags });
    this.bytes += bytes;
    for (const t of tags) {
      let keys = this.byTag.get(t);
      if (!keys) this.byTag.set(t, (keys = new Set()));
      keys.add(key);
    }
    for (const [k] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(k);
    }
  }

  delete(key: string): void {
    this.forgetLoad(key);
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.bytes -= e.bytes;
    for (const t of e.tags) this.byTag.get(t)?.delete(key);
  }

  /** Drops every entry tagged `tag` (e.g. all of a workspace's artifacts). */
  deleteTag(tag: string): void {
    // Which key a load under way will be tagged with is known only when it ends: forget them all.
    for (const key of [...this.inflight.keys()]) this.forgetLoad(key);
    const keys = this.byTag.get(tag);
    if (!keys) return;
    this.byTag.delete(tag);
    for (const k of keys) this.delete(k);
  }

  clear(): void {
    for (const key of [...this.inflight.keys()]) this.forgetLoad(key);
    this.entries.clear();
    this.byTag.clear();
    this.bytes = 0;
  }

  /**
   * A load that began before a change may return what the change replaced: it is not stored
   * when it ends, and later callers start a load of their own rather than wait for it.
   */
  private forgetLoad(key: string): void {
    const load = this.inflight.get(key);
    if (!load) return;
    load.stale = true;
    this.inflight.delete(key);
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /**
   * Copies the caller checks itself against the database (a table's rows, labelled with the
   * table's rowsVersion, which every change bumps): exact, so kept until evicted rather than
   * for ttlMs. Off with the rest of the cache (CACHE_TTL_MS=0 or CACHE_MAX_BYTES=0).
   */
  getChecked<T>(key: string): T | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value as T;
  }

  setChecked(key: string, value: unknown, bytes: number): void {
    if (!this.enabled) return;
    this.set(key, value, { bytes });
    const e = this.entries.get(key);
    if (e) e.until = Number.POSITIVE_INFINITY;
  }

  /** Whether checked copies are kept (the exact view of a cache shares its owner's). */
  get keepsChecked(): boolean {
    return this.enabled;
  }

  /**
   * The value under `key`, loaded once by `load` when missing or stale: concurrent misses of
   * one key share one load, so a burst of requests costs one database read.
   */
  async through<T>(
    key: string,
    load: () => Promise<T>,
    opts: { bytes?: (v: T) => number; tags?: readonly string[] | ((v: T) => readonly string[]) } = {},
  ): Promise<T> {
    if (!this.enabled) return load();
    const hit = this.get<T>(key);
    if (hit !== undefined) return hit;
    const pending = this.inflight.get(key);
    if (pending) return pending.promise as Promise<T>;
    const record = { promise: Promise.resolve<unknown>(undefined), stale: false };
    const p = load()
      .then((v) => {
        if (!record.stale) this.set(key, v, { bytes: opts.bytes ? opts.bytes(v) : 1024, tags: typeof opts.tags === "function" ? opts.tags(v) : opts.tags });
        return v;
      })
      .finally(() => {
        if (this.inflight.get(key) === record) this.inflight.delete(key);
      });
    record.promise = p;
    this.inflight.set(key, record);
    return p;
  }
}

/**
 * The same cache for callers that must read exactly (the owner's own screens, right after
 * their own change, may be answered by another process): reads always go to the database,
 * while the entries this process drops after a change are still dropped from the real cache.
 */
export class ExactReads extends ReadCache {
  constructor(private readonly shared: ReadCache) {
    super(0, 0);
  }

  override delete(key: string): void {
    this.shared.delete(key);
  }

  override deleteTag(tag: string): void {
    this.shared.deleteTag(tag);
  }

  override clear(): void {
    this.shared.clear();
  }

  // Checked copies are exact, so exact readers share them.
  override getChecked<T>(key: string): T | undefined {
    return this.shared.getChecked<T>(key);
  }

  override setChecked(key: string, value: unknown, bytes: number): void {
    this.shared.setChecked(key, value, bytes);
  }

  override get keepsChecked(): boolean {
    return this.shared.enabled;
  }
}

/** A cache that keeps nothing, for callers without one. */
export const NO_CACHE = new ReadCache(0, 0);
