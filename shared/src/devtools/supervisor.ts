// Starts the processes of a local stack, each in its own process group, prefixes their
// output, and stops every one of them (and their children) on the way out.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

export interface ServiceSpec {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string | undefined>;
}

export interface Service {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  stop(graceMs?: number): Promise<void>;
}

const COLORS = [36, 35, 33, 32, 34, 31];
let colorIndex = 0;

export function startService(spec: ServiceSpec, out: NodeJS.WritableStream = process.stdout): Service {
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: spec.env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group, so stop() reaches grandchildren (tsx watch, esbuild)
  });
  const color = COLORS[colorIndex++ % COLORS.length] ?? 36;
  const prefix = `\x1b[${color}m[${spec.name}]\x1b[0m `;
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream }).on("line", (line) => out.write(`${prefix}${line}\n`));
  }
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const signalGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  return {
    name: spec.name,
    child,
    exited,
    async stop(graceMs = 8_000) {
      if (child.exitCode === null && child.signalCode === null) {
        signalGroup("SIGTERM");
        const timer = setTimeout(() => signalGroup("SIGKILL"), graceMs);
        await exited;
        clearTimeout(timer);
      }
      // Whatever the leader left behind in its group goes too.
      signalGroup("SIGKILL");
    },
  };
}
