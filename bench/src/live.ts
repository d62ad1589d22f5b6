// `pnpm bench live`: how fast a change reaches the live streams (docs/events.md#live-streams),
// and what idle streams cost. The server runs as production does (its own process); the
// changes are made by THIS process through the shared domain, so each one reaches the
// server only through the change feed, as a change made by another server or sidecar does.
//   latency: N subscribers on /api/events/page; each round updates the page once and times,
//            per subscriber, from just before the write to its `change` event (write included)
//   memory:  the server's RSS before and after M more idle streams, per 1,000 streams
//   /a throughput: wrk on GET /a/{slug} through the shipped deploy/nginx.conf while 0, 100
//            and 1,000 streams (LIVE_STREAM_LEVELS) are open on that page through the same
//            nginx, and the page changes every LIVE_CHANGE_MS (each change goes to every
//            stream); the levels side by side in one run, LIVE_WRK_SECONDS each
import path from "node:path";
import { NO_CACHE } from "@atelier/shared/domain/cache";
import { updatePage } from "@atelier/shared/domain/pages/update-page";
import { freePort } from "@atelier/shared/devtools/embedded-db";
import { configFor, ensureServerBuild, serverEnv, startDatabase, startServer, type ServerBuild } from "./lib/atelier";
import { makeWorkDir, onCleanup } from "./lib/cleanup";
import { fixed, table } from "./lib/format";
import { rssMbOf } from "./lib/measure";
import { seedPublicPage } from "./lib/mcp";
import { findNginx, startShippedNginx } from "./lib/nginx";
import { REPO_ROOT } from "@atelier/shared/devtools/embedded-db";
import { runWrk, wrkVersion } from "./lib/wrk";

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
  /** GET /a/{slug} through nginx with N streams open on the page (null: nginx or wrk missing). */
  throughput: { streams: number; rps: number; p50Ms: number; p99Ms: number; errors: number; deliveries: number }[] | null;
  throughputSetup: string;
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
  const { owner } = await seedPublicPage(db.database, config, { workspace: "live-bench", slug: "live-page", title: "Live", body_markdown: "v1" });
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

  // /a throughput through nginx with streams open, the levels side by side.
  const levels = (process.env.LIVE_STREAM_LEVELS ?? "0,100,1000").split(",").map((n) => Math.max(0, Number(n) || 0));
  const wrkSeconds = Math.max(1, Number(process.env.LIVE_WRK_SECONDS ?? 10));
  const changeMs = Math.max(50, Number(process.env.LIVE_CHANGE_MS ?? 1000));
  const connections = Math.max(1, Number(process.env.LIVE_WRK_CONNECTIONS ?? 16));
  const nginxBin = findNginx();
  let throughput: LiveResult["throughput"] = null;
  const throughputSetup = `wrk ${connections} connections, ${wrkSeconds} s per level; a change every ${changeMs} ms; shipped deploy/nginx.conf (1 worker) in front of the one server`;
  if (nginxBin && wrkVersion()) {
    const nginxPort = await freePort();
    const nginx = await startShippedNginx({
      bin: nginxBin,
      template: path.join(REPO_ROOT, "deploy/nginx.conf"),
      dir: path.join(dir, "nginx"),
      port: nginxPort,
      serverPorts: [port, port],
      sidecarPorts: [await freePort(), await freePort()],
      workers: 1,
      readyPath: "/a/live-page",
    });
    onCleanup("nginx", () => nginx.stop());
    const front = `http://127.0.0.1:${nginxPort}`;
    throughput = [];
    for (const n of levels) {
      const open = Array.from({ length: n }, () => new Stream(`${front}/api/events/page?a=live-page`));
      await Promise.all(open.map((s) => s.opened));
      let deliveries = 0;
      let stop: (v: number) => void = () => undefined;
      const stopped = new Promise<number>((r) => (stop = r));
      const counting = open.map(async (s) => {
        for (;;) {
          if ((await Promise.race([s.next("change"), stopped])) === -1) return;
          deliveries++;
        }
      });
      let writing: Promise<unknown> | null = null;
      const changer = setInterval(() => {
        if (writing) return; // one change at a time: a slow write skips a tick
        writing = updatePage(deps, owner, { slug: "live-page", body_markdown: `v${version + 1}`, expected_version: version })
          .then(() => version++)
          .catch((err: unknown) => log(`a change failed: ${String(err)}`))
          .finally(() => (writing = null));
      }, changeMs);
      const r = await runWrk({ url: `${front}/a/live-page`, connections, threads: 1, durationSeconds: wrkSeconds, workDir: dir }).finally(() =>
        clearInterval(changer),
      );
      await writing; // the last change lands before the next level (or the database's close)
      stop(-1);
      await Promise.all(counting);
      open.forEach((s) => s.close());
      log(`/a through nginx with ${n} streams open: ${r.rps} req/s, p99 ${fixed(r.p99Ms, 1)} ms, ${deliveries} deliveries`);
      throughput.push({ streams: n, rps: r.rps, p50Ms: r.p50Ms, p99Ms: r.p99Ms, errors: r.socketErrors + r.httpErrors, deliveries });
    }
  } else log("nginx or wrk not found: the /a throughput part is skipped");
  return {
    throughput,
    throughputSetup,
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
    ...(r.throughput
      ? [
          `GET /a/{slug} through nginx with live streams open on the page (${r.throughputSetup})`,
          table(
            ["streams", "req/s", "vs 0", "p50 ms", "p99 ms", "errors", "deliveries"],
            r.throughput.map((t) => [
              String(t.streams),
              fixed(t.rps, 0),
              fixed(t.rps / (r.throughput?.[0]?.rps || t.rps), 2),
              fixed(t.p50Ms, 1),
              fixed(t.p99Ms, 1),
              String(t.errors),
              String(t.deliveries),
            ]),
          ),
        ]
      : []),
  ].join("\n");
}
