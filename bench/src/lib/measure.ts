// One measured case: wait (briefly) for the machine to go quiet, warm up, then measure with
// wrk, and flag the case when other work held more than a quarter of a core meanwhile.
import { readFileSync } from "node:fs";
import type { CpuTarget } from "./cpu";
import { cpuPercent, snapshot, waitForQuiet } from "./cpu";
import { fixed } from "./format";
import { runWrk, type WrkOptions, type WrkResult } from "./wrk";

/** % of one core that other processes may use during a case before it is flagged as noisy. */
export const NOISE_THRESHOLD = 25;

export interface MeasuredCase extends WrkResult {
  /** CPU use of the machine (% of one core) just before the case, with nothing under load */
  idleCpuBefore: number | null;
  /** Other work held more than a quarter of a core during the case: its figures are suspect. */
  noisy: boolean;
  /** The highest resident memory (MB) of each watched process (a pid or a group's leader) during the run, sampled every 250 ms. */
  rssMb: Record<string, number>;
}

/** Resident memory (MB) of a process now, from /proc, or null. */
export function rssMbOf(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Samples the resident memory of `targets` (those named by pid or group leader) until stopped; returns the highest of each. */
export function sampleRss(targets: Record<string, CpuTarget>): () => Record<string, number> {
  const out: Record<string, number> = {};
  const sample = () => {
    for (const [k, t] of Object.entries(targets)) {
      const pid = "pid" in t ? t.pid : "pgrp" in t ? t.pgrp : null;
      const mb = pid === null ? null : rssMbOf(pid);
      if (mb !== null) out[k] = Math.max(out[k] ?? 0, mb);
    }
  };
  sample();
  const timer = setInterval(sample, 250);
  return () => {
    clearInterval(timer);
    sample();
    return out;
  };
}

/**
 * Waits (at most `maxWaitMs`) until the given processes are idle: wrk stops with requests
 * still in flight, and a server keeps working on them (a slow database query is not
 * cancelled when its client goes away). Returns how long it waited.
 */
export async function waitForDrain(
  targets: Record<string, CpuTarget>,
  opts: { thresholdPercent?: number; maxWaitMs: number; log?: (line: string) => void },
): Promise<number> {
  const start = Date.now();
  let told = false;
  for (;;) {
    const a = snapshot(targets);
    await new Promise((r) => setTimeout(r, 500));
    const pct = cpuPercent(a, snapshot(targets));
    if (!pct) return 0;
    const busy = Object.keys(targets).reduce((n, k) => n + (pct[k] ?? 0), 0);
    if (busy < (opts.thresholdPercent ?? 15) || Date.now() - start >= opts.maxWaitMs) return Date.now() - start;
    if (!told)
      opts.log?.(`waiting up to ${Math.round(opts.maxWaitMs / 1000)} s for the requests wrk left in flight to finish (${Math.round(busy)} % of a core busy)…`);
    told = true;
  }
}

export async function measureCase(opts: {
  label: string;
  wrk: Omit<WrkOptions, "durationSeconds">;
  durationSeconds: number;
  warmupSeconds: number;
  log: (line: string) => void;
  /** After the warm-up and the measured run, wait for these processes to finish what wrk left in flight. */
  drain?: { targets: Record<string, CpuTarget>; maxWaitMs: number };
}): Promise<MeasuredCase> {
  const idleCpuBefore = await waitForQuiet({
    threshold: NOISE_THRESHOLD,
    // BENCH_QUIET_WAIT_MS: 0 on a machine that is never quiet (other benches running), where waiting only costs time.
    maxWaitMs: Number(process.env.BENCH_QUIET_WAIT_MS ?? 15_000),
    onWait: (pct) => opts.log(`waiting up to 15 s for other work to stop (${Math.round(pct)} % of a core busy)…`),
  });
  const drain = async () => {
    if (opts.drain) await waitForDrain(opts.drain.targets, { maxWaitMs: opts.drain.maxWaitMs, log: opts.log });
  };
  if (opts.warmupSeconds > 0) {
    await runWrk({ ...opts.wrk, durationSeconds: opts.warmupSeconds });
    await drain();
  }
  const stopRss = sampleRss(opts.wrk.cpuTargets ?? {});
  let rssMb: Record<string, number> = {};
  const r = await runWrk({ ...opts.wrk, durationSeconds: opts.durationSeconds }).finally(() => {
    rssMb = stopRss();
  });
  await drain();
  const noisy = (r.cpu?.other ?? 0) > NOISE_THRESHOLD;
  opts.log(
    `${opts.label}: ${r.rps} req/s, p50 ${fixed(r.p50Ms)} ms, p99 ${fixed(r.p99Ms)} ms, errors ${r.socketErrors + r.httpErrors + r.bodyErrors}` +
      (noisy ? ` (noisy: other work took ${Math.round(r.cpu?.other ?? 0)} % of a core)` : ""),
  );
  return { idleCpuBefore, noisy, rssMb, ...r };
}

/** CPU time a process spent per request served, in µs ("-" when unknown). */
export function cpuPerRequest(c: Pick<WrkResult, "cpu" | "rps">, key: string): string {
  const pct = c.cpu?.[key];
  return pct === undefined || c.rps === 0 ? "-" : String(Math.round((pct / 100 / c.rps) * 1e6));
}

/** CPU use of a process during a case, % of one core ("-" when unknown). */
export function cpuPercentOf(c: Pick<WrkResult, "cpu">, key: string): string {
  const v = c.cpu?.[key];
  return v === undefined ? "-" : String(Math.round(v));
}

export type { CpuTarget };

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? Number.NaN) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}
