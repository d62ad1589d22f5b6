// The load generator: wrk (C, epoll, HdrHistogram latencies), driven through a small Lua
// script that prints its summary as JSON. A closed loop: each connection sends its next
// request as soon as the previous answer is in, so req/s is the server's capacity at that
// concurrency and the percentiles are per-request service times.
import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { onCleanup } from "./cleanup";
import { cpuPercent, snapshot, type CpuSnapshot, type CpuTarget } from "./cpu";

const REPORT_LUA = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.1f}}\\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
`;

export function wrkVersion(): string | null {
  try {
    // wrk prints its usage (with the version on the first line) and exits 1 without a URL.
    execFileSync("wrk", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    const out = String((err as { stdout?: unknown }).stdout ?? "");
    const first = out.split("\n")[0]?.trim();
    if (first?.startsWith("wrk")) return first.replace(/\s+Copyright.*$/, "");
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? null : (first ?? "wrk");
  }
  return "wrk";
}

export interface WrkResult {
  requests: number;
  durationSeconds: number;
  rps: number;
  /** Bytes received per response, headers included: a check that every answer was the full page. */
  bytesPerResponse: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
  /** socket errors (connect, read, write, timeout) */
  socketErrors: number;
  /** responses with status >= 400 */
  httpErrors: number;
  /** CPU use during the run, % of one core, per watched process and for the machine */
  cpu: Record<string, number> | null;
}

export interface WrkOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  threads: number;
  workDir: string;
  cpuTargets?: Record<string, CpuTarget>;
}

export async function runWrk(opts: WrkOptions): Promise<WrkResult> {
  const script = path.join(opts.workDir, "report.lua");
  writeFileSync(script, REPORT_LUA);
  const args = [
    `-t${Math.min(opts.threads, opts.connections)}`,
    `-c${opts.connections}`,
    `-d${opts.durationSeconds}s`,
    "--timeout",
    "5s",
    "-s",
    script,
    opts.url,
  ];
  const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
  let stopped = false;
  onCleanup(`wrk -c${opts.connections}`, () => {
    if (!stopped) child.kill("SIGKILL");
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (b: Buffer) => (out += b.toString("utf8")));
  child.stderr.on("data", (b: Buffer) => (err += b.toString("utf8")));
  // CPU use is a rate, so it is sampled inside the run (connections open, wrk still alive
  // and readable in /proc) rather than exactly at its edges.
  const targets: Record<string, CpuTarget> = { ...opts.cpuTargets, ...(child.pid ? { wrk: { pid: child.pid } } : {}) };
  const margin = Math.min(500, (opts.durationSeconds * 1000) / 4);
  let before: CpuSnapshot | null = null;
  let after: CpuSnapshot | null = null;
  const timers = [
    setTimeout(() => (before = snapshot(targets)), margin),
    setTimeout(() => (after = snapshot(targets)), opts.durationSeconds * 1000 - margin),
  ];
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (c) => resolve(c));
  });
  for (const t of timers) clearTimeout(t);
  stopped = true;
  const line = out.split("\n").find((l) => l.startsWith("WRK_JSON "));
  if (code !== 0 || !line) throw new Error(`wrk ${args.join(" ")} exited ${code}:\n${out}\n${err}`);
  const j = JSON.parse(line.slice("WRK_JSON ".length)) as {
    requests: number;
    duration_us: number;
    bytes: number;
    errors: Record<"connect" | "read" | "write" | "status" | "timeout", number>;
    latency_us: Record<"p50" | "p90" | "p99" | "max" | "mean", number>;
  };
  const seconds = j.duration_us / 1e6;
  const ms = (us: number) => Math.round(us) / 1_000;
  return {
    requests: j.requests,
    durationSeconds: seconds,
    rps: Math.round(j.requests / seconds),
    bytesPerResponse: j.requests > 0 ? Math.round(j.bytes / j.requests) : 0,
    p50Ms: ms(j.latency_us.p50),
    p90Ms: ms(j.latency_us.p90),
    p99Ms: ms(j.latency_us.p99),
    maxMs: ms(j.latency_us.max),
    meanMs: ms(j.latency_us.mean),
    socketErrors: j.errors.connect + j.errors.read + j.errors.write + j.errors.timeout,
    httpErrors: j.errors.status,
    cpu: cpuPercent(before, after),
  };
}
