// `pnpm bench live`: how fast a change reaches the live streams (docs/events.md#live-streams),
// and what idle streams cost. The server runs as production does (its own process); the
// changes are made by THIS process through the shared domain, so each one reaches the
// server only through the change feed, as a change made by another server or sidecar does.
//   latency: N subscribers on /api/events/page; each round updates the page once and times,
//            per subscriber, from just before the write to its `change` event (write included)
//   memory:  the server's RSS before and after M more idle streams, per 1,000 streams
import path from "node:path";
import { NO_CACHE } from "@atelier/shared/domain/cache";
import { createPage } from "@atelier/shared/domain/pages/create-page";
import { updatePage } from "@atelier/shared/domain/pages/update-page";
import { createWorkspaceFor, setVisibility } from "@atelier/shared/domain/workspaces";
import { freePort } from "@atelier/shared/devtools/embedded-db";
import { configFor, ensureServerBuild, serverEnv, startDatabase, startServer, type ServerBuild } from "./lib/atelier";
import { makeWorkDir, onCleanup } from "./lib/cleanup";
import { fixed, table } from "./lib/format";
import { rssMbOf } from "./lib/measure";
import { seedAgent } from "./lib/mcp";

export interface LiveOptions {
  subscribers: number;
  idle: number;
  rounds: number;
  serverBuild: ServerBuild;
  log: (line: string) => void;
}

export interface LiveResult {
  subscribers: number;
  rounds: number;
  samples: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  pollMs: number;
  idleStreams: number;
  rssBeforeMb: number | null;
  rssAfterMb: number | null;
  kbPerStream: number | null;
}

/** One stream: counts its events and wakes whoever waits for the next of a kind. */
class Stream {
  private buf = "";
  private waiting: { event: string; resolve: (at: number) => void }[] = [];
  private readonly ctl = new AbortController();
  readonly opened: Promise<void>;

  constructor(url: string) {
    this.opened = (async () => {
      const res = await fetch(url, { headers: { accept: "text/event-stream" }, signal: this.ctl.signal });
      if (!res.ok || !res.body) throw new Error(`${url}: ${res.status}`);
      const body = res.body;
      const ready = new Promise<void>((resolve) => this.waiting.push({ event: "ready", resolve: () => resolve() }));
      void (async () => {
        const decoder = new TextDecoder();
        try {
          for await (const chunk of body) {
            this.buf += decoder.decode(chunk, { stream: true });
            let at: number;
            while ((at = this.buf.indexOf("\n\n")) >= 0) {
              const block = this.buf.slice(0, at);
              this.buf = this.buf.slice(at + 2);
              const event = /^event: (.*)$/m.exec(block)?.[1];
              if (!event) continue;
              const t = performance.now();
              this.waiting = this.waiting.filter((w) => (w.event === event ? (w.resolve(t), false) : true));
            }
          }
        } catch {
          // closed
        }
      })();
      await ready;
    })();
  }

  next(event: string): Promise<number> {
    return new Promise((resolve) => this.waiting.push({ event, resolve }));
  }

  close(): void {
    this.ctl.abort();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function liveBench(opts: LiveOptions): Promise<LiveResult> {
  const { log } = opts;
  const dir = makeWorkDir(log);
  if (opts.serverBuild === "dist") ensureServerBuild(log, "server");
  const db = await startDatabase(dir, log);
  const port = await freePort();
  const env = serverEnv({ db, port, dataDir: path.join(dir, "server-data"), logLevel: "warn" });
  const config = configFor(env);
  const deps = { database: db.database, config, cache: NO_CACHE };
  const { user } = await seedAgent(db.database, config);
  const owner = { kind: "user" as const, user };
  await createWorkspaceFor(deps, owner, { slug: "live-bench", name: "Live bench" });
  await setVisibility(deps, owner, "live-bench", "public");
  await createPage(deps, owner, { workspace: "live-bench", slug: "live-page", title: "Live", body_markdown: "v1" });
  const server = await startServer({ env, logFile: path.join(dir, "server.log"), name: "server", build: opts.serverBuild });
  onCleanup("server", () => server.stop());
  const url = `${env.BASE_URL}/api/events/page?a=live-page`;

  const streams = Array.from({ length: opts.subscribers }, () => new Stream(url));
  onCleanup("streams", () => streams.forEach((s) => s.close()));
  await Promise.all(streams.map((s) => s.opened));
  log(`${streams.length} subscribers ready`);
  const samples: number[] = [];
  let version = 1;
  for (let r = 0; r < opts.rounds; r++) {
    const arrivals = streams.map((s) => s.next("change"));
    const t0 = performance.now();
    await updatePage(deps, owner, { slug: "live-page", body_markdown: `v${version + 1}`, expected_version: version });
    version++;
    for (const t of await Promise.all(arrivals)) samples.push(t - t0);
  }
  samples.sort((a, b) => a - b);

  const rssBeforeMb = rssMbOf(server.pid);
  const idle = Array.from({ length: opts.idle }, () => new Stream(url));
  onCleanup("idle streams", () => idle.forEach((s) => s.close()));
  await Promise.all(idle.map((s) => s.opened));
  const rssAfterMb = rssMbOf(server.pid);
  log(`${idle.length} idle streams open`);
  idle.forEach((s) => s.close());
  streams.forEach((s) => s.close());
  return {
    subscribers: opts.subscribers,
    rounds: opts.rounds,
    samples: samples.length,
    p50Ms: percentile(samples, 50),
    p95Ms: percentile(samples, 95),
    maxMs: samples[samples.length - 1] ?? 0,
    pollMs: config.CHANGES_POLL_MS,
    idleStreams: opts.idle,
    rssBeforeMb,
    rssAfterMb,
    kbPerStream: rssBeforeMb !== null && rssAfterMb !== null ? ((rssAfterMb - rssBeforeMb) * 1024) / opts.idle : null,
  };
}

export function formatLive(r: LiveResult): string {
  return [
    `Live streams: a change made in another process, to ${r.subscribers} subscribers (${r.rounds} changes, ${r.samples} deliveries; CHANGES_POLL_MS ${r.pollMs})`,
    table(["p50 ms", "p95 ms", "max ms"], [[fixed(r.p50Ms, 1), fixed(r.p95Ms, 1), fixed(r.maxMs, 1)]]),
    `Idle streams: ${r.idleStreams} more; server RSS ${fixed(r.rssBeforeMb ?? undefined, 1)} → ${fixed(r.rssAfterMb ?? undefined, 1)} MB; ${fixed(r.kbPerStream ?? undefined, 1)} KB per stream (${fixed(r.kbPerStream === null ? undefined : (r.kbPerStream / 1024) * 1000, 1)} MB per 1,000)`,
  ].join("\n");
}
