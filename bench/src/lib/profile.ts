// A process profiled under load: started with `node --cpu-prof`, loaded with wrk, stopped
// with SIGTERM (the profile is written on a clean exit), and summarised over the measured
// window only (not start-up, warm-up or shutdown).
import { copyFileSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { summarizeProfile, type ProfileSummary } from "./cpuprofile";
import type { Service } from "./service";
import { runWrk, type WrkOptions } from "./wrk";

export interface ProfiledRun extends ProfileSummary {
  rps: number;
  p99Ms: number;
  savedAs: string;
}

export async function profileUnderLoad(opts: {
  /** Starts the process with `--cpu-prof --cpu-prof-dir=<profDir>` and waits until it is ready. */
  start: (nodeFlags: string[]) => Promise<Service>;
  profDir: string;
  wrk: Omit<WrkOptions, "durationSeconds">;
  durationSeconds: number;
  warmupSeconds: number;
  saveAs: string;
  top?: number;
}): Promise<ProfiledRun> {
  mkdirSync(opts.profDir, { recursive: true });
  const service = await opts.start(["--cpu-prof", `--cpu-prof-dir=${opts.profDir}`]);
  if (opts.warmupSeconds > 0) await runWrk({ ...opts.wrk, durationSeconds: opts.warmupSeconds });
  const t0 = performance.now();
  const r = await runWrk({ ...opts.wrk, durationSeconds: opts.durationSeconds });
  const t1 = performance.now();
  await service.stop();
  const t2 = performance.now();
  const files = readdirSync(opts.profDir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => path.join(opts.profDir, f))
    // Under tsx the module loader runs in a worker thread that writes its own (idle) profile: the main thread's is the biggest.
    .sort((a, b) => statSync(b).size - statSync(a).size);
  const biggest = files[0];
  if (!biggest) throw new Error(`no .cpuprofile written in ${opts.profDir}:\n${service.logTail()}`);
  mkdirSync(path.dirname(opts.saveAs), { recursive: true });
  copyFileSync(biggest, opts.saveAs);
  const summary = summarizeProfile(opts.saveAs, opts.top ?? 20, { fromEndMs: t2 - t0, toEndMs: t2 - t1 });
  return { ...summary, rps: r.rps, p99Ms: r.p99Ms, savedAs: opts.saveAs };
}
