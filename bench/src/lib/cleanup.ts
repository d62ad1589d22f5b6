// Everything a benchmark starts (processes, temp dirs, connections) registers how to undo
// it here; the steps run last-in first-out on a normal end, on failure, and on Ctrl-C or
// SIGTERM, so a run never leaves a server or a directory behind.
import { processAlive } from "@atelier/shared/process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

type Step = { label: string; run: () => Promise<void> | void };

const steps: Step[] = [];
let running: Promise<void> | null = null;

export function onCleanup(label: string, run: Step["run"]): void {
  steps.push({ label, run });
}

export function cleanupAll(): Promise<void> {
  running ??= (async () => {
    while (steps.length > 0) {
      const step = steps.pop();
      if (!step) break;
      try {
        await step.run();
      } catch (err) {
        process.stderr.write(`[bench] cleanup of ${step.label} failed: ${String(err)}\n`);
      }
    }
  })();
  return running;
}

/** Runs `main`, then cleans up; a signal cleans up and exits 130/143 without waiting for `main`. */
export async function runWithCleanup(main: () => Promise<void>): Promise<void> {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    // Ctrl-C reaches this process twice (from the terminal and relayed by tsx), and people
    // press it again: the handler stays installed so a repeat cannot cut the cleanup short.
    if (stopping) return;
    stopping = true;
    process.stderr.write(`\n[bench] ${signal}: stopping everything this run started…\n`);
    void cleanupAll().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    await main();
  } catch (err) {
    process.exitCode = 1;
    process.stderr.write(`[bench] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  } finally {
    await cleanupAll();
  }
}

const WORK_DIR_PREFIX = "atelier-bench-";
const OWNER_FILE = ".owner-pid";

/**
 * A fresh temporary directory for a run, removed at the end like everything else. A run
 * killed outright (SIGKILL: no cleanup possible) leaves its directory behind; the next run
 * removes such directories, recognised by the pid of a run that no longer exists.
 */
export function makeWorkDir(log: (line: string) => void): string {
  const root = tmpdir();
  for (const name of readdirSync(root)) {
    if (!name.startsWith(WORK_DIR_PREFIX)) continue;
    const dir = path.join(root, name);
    let owner: number;
    try {
      owner = Number(readFileSync(path.join(dir, OWNER_FILE), "utf8"));
    } catch {
      continue; // not ours to judge (an older run, or another tool's)
    }
    if (Number.isInteger(owner) && owner > 0 && !processAlive(owner)) {
      rmSync(dir, { recursive: true, force: true });
      log(`removed ${dir}, left behind by a run that was killed`);
    }
  }
  const dir = mkdtempSync(path.join(root, WORK_DIR_PREFIX));
  // Passable (not readable) by others: a PostgreSQL cluster inside runs as the postgres user when this runs as root.
  chmodSync(dir, 0o711);
  writeFileSync(path.join(dir, OWNER_FILE), String(process.pid));
  onCleanup("temp dir", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
