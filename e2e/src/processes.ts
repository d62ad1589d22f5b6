// The stack's child processes: each in its own process group with its output in a log file,
// started and stopped on demand (the fault tests kill and restart them), and every exit
// nobody asked for recorded as a crash.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  logFile: string;
  /** Polled after start until it answers 200. */
  healthUrl?: string;
}

export interface Crash {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  at: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ManagedProcess {
  private child: ChildProcess | null = null;
  private exitWaiter: Promise<void> = Promise.resolve();
  private expectingExit = false;
  starts = 0;

  constructor(
    readonly spec: ProcessSpec,
    private readonly onCrash: (crash: Crash) => void,
  ) {}

  get name(): string {
    return this.spec.name;
  }

  get running(): boolean {
    return this.child !== null;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** A cold first start (indexes built on an empty database) once took over 30 s on a loaded CI machine. */
  async start(timeoutMs = 60_000): Promise<void> {
    if (this.child) return;
    const fd = openSync(this.spec.logFile, "a");
    const child = spawn(this.spec.command, this.spec.args, {
      cwd: this.spec.cwd,
      env: this.spec.env as NodeJS.ProcessEnv,
      stdio: ["ignore", fd, fd],
      detached: true, // its own process group, so a kill reaches everything it started
    });
    closeSync(fd);
    this.child = child;
    this.expectingExit = false;
    this.starts++;
    this.exitWaiter = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        if (this.child === child) this.child = null;
        if (!this.expectingExit) this.onCrash({ name: this.name, code, signal, at: new Date().toISOString() });
        resolve();
      });
    });
    if (this.spec.healthUrl) await this.waitHealthy(timeoutMs);
  }

  async waitHealthy(timeoutMs = 60_000): Promise<void> {
    const url = this.spec.healthUrl;
    if (!url) return;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.child) throw new Error(`${this.name} exited while starting; its log:\n${this.logTail()}`);
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${this.name} did not answer ${url} within ${timeoutMs} ms; its log:\n${this.logTail()}`);
      await sleep(100);
    }
  }

  /** Sends `signal` to the process group and waits for the process to be gone. */
  async kill(signal: NodeJS.Signals, graceMs = 10_000): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    this.expectingExit = true;
    const pid = child.pid;
    const send = (s: NodeJS.Signals) => {
      try {
        process.kill(-pid, s);
      } catch {
        // already gone
      }
    };
    send(signal);
    const timer = setTimeout(() => send("SIGKILL"), graceMs);
    await this.exitWaiter;
    clearTimeout(timer);
    send("SIGKILL"); // whatever it left behind in its group
  }

  stop(): Promise<void> {
    return this.kill("SIGTERM");
  }

  logTail(lines = 40): string {
    try {
      return readFileSync(this.spec.logFile, "utf8").split("\n").slice(-lines).join("\n");
    } catch {
      return "(no log)";
    }
  }
}
