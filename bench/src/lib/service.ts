// A process under test, in its own process group so that stopping it reaches its children
// too (tsx runs the server in a child node process; nginx has a master and a worker). Its
// output goes straight to a file: piping it through this process would spend CPU that
// the load generator and the servers need on a two-core machine.
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { getPriority } from "node:os";
import { onCleanup } from "./cleanup";

export interface ServiceSpec {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  logFile: string;
}

export interface Service {
  name: string;
  /** The group leader's pid; also the process group id. */
  pid: number;
  exited: Promise<number | null>;
  isRunning(): boolean;
  logTail(chars?: number): string;
  stop(graceMs?: number): Promise<void>;
}

export function startService(spec: ServiceSpec): Service {
  const fd = openSync(spec.logFile, "a");
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: spec.env as NodeJS.ProcessEnv,
    stdio: ["ignore", fd, fd],
    detached: true,
  });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`could not start ${spec.name} (${spec.command})`);
  const pid = child.pid;
  shareAutogroupPriority(pid);
  let running = true;
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      running = false;
      resolve(code);
    });
    child.once("error", () => {
      running = false;
      resolve(null);
    });
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // the group is gone already
    }
  };
  let stopping: Promise<void> | null = null;
  const service: Service = {
    name: spec.name,
    pid,
    exited,
    isRunning: () => running,
    logTail(chars = 4_000) {
      try {
        return readFileSync(spec.logFile, "utf8").slice(-chars);
      } catch {
        return "";
      }
    },
    stop(graceMs = 10_000) {
      stopping ??= (async () => {
        if (running) {
          signalGroup("SIGTERM");
          const timer = setTimeout(() => signalGroup("SIGKILL"), graceMs);
          await exited;
          clearTimeout(timer);
        }
        // Whatever the leader left behind in its group goes too.
        signalGroup("SIGKILL");
      })();
      return stopping;
    },
  };
  onCleanup(spec.name, () => service.stop());
  return service;
}

/** Polls `url` until it answers 200; fails early when `service` exits. */
export async function waitUntilReady(service: Service, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!service.isRunning()) throw new Error(`${service.name} exited before it was ready:\n${service.logTail()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${service.name} did not answer 200 at ${url} within ${timeoutMs} ms:\n${service.logTail()}`);
}

/**
 * A detached child starts a new session, and with Linux's scheduler autogroups a session
 * competes with other sessions at its autogroup's priority whatever its processes' nice
 * values. When this process runs at a raised priority, give the child's autogroup the same.
 */
export function shareAutogroupPriority(pid: number | "self"): void {
  const nice = getPriority();
  if (nice >= 0) return;
  try {
    const before = /nice (-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, "utf8"))?.[1];
    writeFileSync(`/proc/${pid}/autogroup`, String(nice));
    // This process's own session outlives the run (the terminal that started it): put it back.
    if (pid === "self" && before !== undefined) {
      process.once("exit", () => {
        try {
          writeFileSync("/proc/self/autogroup", before);
        } catch {
          // nothing more to do on the way out
        }
      });
    }
  } catch {
    // no autogroups here, or not allowed: the nice value alone applies
  }
}
