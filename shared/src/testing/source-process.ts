// One of our programs (`server`, `mcp-sidecar`) run from its sources in a test, as a real
// process. Node itself is the process, with tsx as its loader (`node --import tsx`), not
// the `tsx` command: that command runs the program in a child of its own, so a SIGKILL sent
// to it killed only the wrapper and left the program running, reparented, after the test
// (a "server killed mid-send" went on sending; CI ended with servers still up).
import { spawn, type ChildProcess } from "node:child_process";

export interface SourceProcess {
  child: ChildProcess;
  /** Everything it has written to stdout and stderr so far. */
  out(): string;
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Resolves once its output contains `text`; throws with the output after `timeoutMs`, or if it exits first. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
}

/** Starts `src/main.ts` of the package in `dir` with `env` (and PATH) as its whole environment. */
export function startSourceProcess(dir: string, env: Record<string, string | undefined>): SourceProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: dir,
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr?.on("data", (b: Buffer) => (out += b.toString()));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((r) =>
    child.once("exit", (code) => {
      exitCode = code;
      r(code);
    }),
  );
  return {
    child,
    out: () => out,
    exited,
    // Starting tsx and a program takes seconds, and tens of them on a busy machine.
    async waitFor(text, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (!out.includes(text)) {
        if (exitCode !== undefined) throw new Error(`${dir} exited (${String(exitCode)}) before "${text}":\n${out}`);
        if (Date.now() > deadline) throw new Error(`${dir} did not say "${text}" within ${timeoutMs} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}
