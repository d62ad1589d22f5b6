// CPU time of the processes in a run, from /proc (Linux), so a result says not only how
// fast each server was but which process spent the two cores: the server, the database,
// nginx, or the load generator.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

export const procAvailable = existsSync("/proc/self/stat");

interface ProcStat {
  pid: number;
  ppid: number;
  pgrp: number;
  /** user + system CPU seconds, all threads */
  cpu: number;
  /** user + system CPU seconds of its children that have exited and been waited for */
  childrenCpu: number;
}

function readStat(pid: number | string): ProcStat | null {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces and parentheses; fields resume after the last ')'.
    const rest = raw.slice(raw.lastIndexOf(")") + 2).split(" ");
    const utime = Number(rest[11]);
    const stime = Number(rest[12]);
    const children = Number(rest[13]) + Number(rest[14]);
    return { pid: Number(pid), ppid: Number(rest[1]), pgrp: Number(rest[2]), cpu: (utime + stime) / clockTicks(), childrenCpu: children / clockTicks() };
  } catch {
    return null;
  }
}

/**
 * What to account: a single process, every process in a process group, or a process with its
 * children, living and exited (PostgreSQL: each backend is a child of the postmaster, in a
 * session of its own), or several of these together.
 */
export type CpuTarget = { pid: number } | { pgrp: number } | { tree: number } | { all: CpuTarget[] };

function cpuOf(target: CpuTarget, all: ProcStat[] | null): number {
  if ("all" in target) return target.all.reduce((n, t) => n + cpuOf(t, all), 0);
  if ("pid" in target) return readStat(target.pid)?.cpu ?? 0;
  if ("tree" in target) {
    const parent = readStat(target.tree);
    if (!parent) return 0;
    const living = (all ?? []).filter((s) => s.ppid === target.tree).reduce((n, s) => n + s.cpu, 0);
    return parent.cpu + parent.childrenCpu + living;
  }
  return (all ?? []).filter((s) => s.pgrp === target.pgrp).reduce((n, s) => n + s.cpu, 0);
}

function allStats(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = readStat(name);
    if (s) out.push(s);
  }
  return out;
}

/** Busy and total CPU seconds of the whole machine (all cores), from /proc/stat. */
function machineCpu(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.reduce((a, b) => a + b, 0);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  return { busy: (total - idle) / clockTicks(), total: total / clockTicks() };
}

export interface CpuSnapshot {
  at: number;
  values: Record<string, number>;
  machine: { busy: number; total: number };
}

export function snapshot(targets: Record<string, CpuTarget>): CpuSnapshot | null {
  if (!procAvailable) return null;
  const needAll = Object.values(targets).some((t) => !("pid" in t));
  const all = needAll ? allStats() : null;
  const values: Record<string, number> = {};
  for (const [name, t] of Object.entries(targets)) values[name] = cpuOf(t, all);
  return { at: performance.now(), values, machine: machineCpu() };
}

/**
 * Each target's CPU use between two snapshots in percent of one core (200 % = both cores),
 * plus `machine` (all processes together) and `other` (the machine less the targets).
 */
export function cpuPercent(a: CpuSnapshot | null, b: CpuSnapshot | null): Record<string, number> | null {
  if (!a || !b) return null;
  const seconds = (b.at - a.at) / 1_000;
  if (seconds <= 0) return null;
  const out: Record<string, number> = {};
  let watched = 0;
  for (const name of Object.keys(b.values)) {
    const pct = (100 * ((b.values[name] ?? 0) - (a.values[name] ?? 0))) / seconds;
    watched += pct;
    out[name] = round1(pct);
  }
  const machine = (100 * (b.machine.busy - a.machine.busy)) / seconds;
  out.machine = round1(machine);
  // Everything else on the machine: this process, the kernel's own threads, other work.
  out.other = round1(Math.max(0, machine - watched));
  return out;
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/** The machine's CPU use over `ms` before anything starts: other work that would skew a run. */
export async function backgroundCpu(ms = 2_000): Promise<number | null> {
  const a = snapshot({});
  await new Promise((r) => setTimeout(r, ms));
  return cpuPercent(a, snapshot({}))?.machine ?? null;
}

/**
 * Waits (at most `maxWaitMs`) until the machine's CPU use over a short window is below
 * `threshold` % of one core, so a case does not start while other work holds a core.
 * Returns the last reading; the caller records it, quiet or not.
 */
export async function waitForQuiet(opts: { threshold: number; maxWaitMs: number; windowMs?: number; onWait?: (pct: number) => void }): Promise<number | null> {
  const deadline = Date.now() + opts.maxWaitMs;
  let warned = false;
  for (;;) {
    const pct = await backgroundCpu(opts.windowMs ?? 500);
    if (pct === null || pct < opts.threshold || Date.now() >= deadline) return pct;
    if (!warned) opts.onWait?.(pct);
    warned = true;
  }
}
