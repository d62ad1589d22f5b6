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
    '"latency_us":{"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.1f},"body_errors":%d}\\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean,
    body_errors_total()))
end
`;

/** A Lua long-bracket string literal holding `s` exactly (no escaping needed inside). */
function luaLongString(s: string): string {
  let level = 0;
  while (s.includes(`]${"=".repeat(level)}]`)) level++;
  const eq = "=".repeat(level);
  // A newline right after the opening bracket would be dropped by Lua; JSON bodies never start with one.
  return `[${eq}[${s}]${eq}]`;
}

/**
 * The Lua script: the request (method, headers, body) and, with `errorMarkers`, a response
 * hook that counts 2xx answers whose body contains one of them (an MCP tool error is an
 * HTTP 200 with `"isError":true`), summed over wrk's threads in done().
 */
function luaScript(request: WrkRequest | undefined, errorMarkers: string[]): string {
  const lines: string[] = [];
  if (request) {
    lines.push(`wrk.method = ${luaLongString(request.method)}`);
    for (const [k, v] of Object.entries(request.headers ?? {})) lines.push(`wrk.headers[ ${luaLongString(k)} ] = ${luaLongString(v)}`);
    if (request.body !== undefined) lines.push(`wrk.body = ${luaLongString(request.body)}`);
  }
  if (errorMarkers.length > 0) {
    lines.push(
      "local threads = {}",
      "setup = function(thread) table.insert(threads, thread) end",
      "body_errors = 0",
      `local markers = { ${errorMarkers.map(luaLongString).join(", ")} }`,
      "response = function(status, headers, body)",
      "  if status < 400 and body then",
      "    for _, m in ipairs(markers) do",
      "      if string.find(body, m, 1, true) then body_errors = body_errors + 1; return end",
      "    end",
      "  end",
      "end",
      "function body_errors_total()",
      "  local n = 0",
      "  for _, t in ipairs(threads) do n = n + (t:get('body_errors') or 0) end",
      "  return n",
      "end",
    );
  } else {
    lines.push("function body_errors_total() return 0 end");
  }
  return `${lines.join("\n")}\n${REPORT_LUA}`;
}

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
  /** responses below 400 whose body held one of `errorMarkers` (0 when none were given) */
  bodyErrors: number;
  /** CPU use during the run, % of one core, per watched process and for the machine */
  cpu: Record<string, number> | null;
}

export interface WrkRequest {
  method: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface WrkOptions {
  url: string;
  /** GET without a body unless given */
  request?: WrkRequest;
  /** Substrings that make a 2xx/3xx answer count as an error (checked in wrk's response hook). */
  errorMarkers?: string[];
  connections: number;
  durationSeconds: number;
  threads: number;
  workDir: string;
  cpuTargets?: Record<string, CpuTarget>;
  /** wrk's per-request timeout (5 s unless given); slower answers count as socket errors */
  timeoutSeconds?: number;
}

export async function runWrk(opts: WrkOptions): Promise<WrkResult> {
  const script = path.join(opts.workDir, "report.lua");
  writeFileSync(script, luaScript(opts.request, opts.errorMarkers ?? []));
  const args = [
    `-t${Math.min(opts.threads, opts.connections)}`,
    `-c${opts.connections}`,
    `-d${opts.durationSeconds}s`,
    "--timeout",
    `${opts.timeoutSeconds ?? 5}s`,
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
  const timers = [setTimeout(() => (before = snapshot(targets)), margin), setTimeout(() => (after = snapshot(targets)), opts.durationSeconds * 1000 - margin)];
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
    body_errors: number;
  };
  const seconds = j.duration_us / 1e6;
  const ms = (us: number) => Math.round(us) / 1_000;
  return {
    requests: j.requests,
    durationSeconds: seconds,
    // Whole requests per second, but two decimals for slow targets (a list scanning every row answers about once a second).
    rps: j.requests / seconds >= 100 ? Math.round(j.requests / seconds) : Math.round((100 * j.requests) / seconds) / 100,
    bytesPerResponse: j.requests > 0 ? Math.round(j.bytes / j.requests) : 0,
    p50Ms: ms(j.latency_us.p50),
    p90Ms: ms(j.latency_us.p90),
    p99Ms: ms(j.latency_us.p99),
    maxMs: ms(j.latency_us.max),
    meanMs: ms(j.latency_us.mean),
    socketErrors: j.errors.connect + j.errors.read + j.errors.write + j.errors.timeout,
    httpErrors: j.errors.status,
    bodyErrors: j.body_errors,
    cpu: cpuPercent(before, after),
  };
}
