// Mail the app sent through SMTP, as the runner's capture stored it (one JSON file each).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { stack } from "./stack";

interface StoredMail {
  to: string[];
  receivedAt: number;
  raw: string;
}

/** The newest message to `to` received at or after `since` (ms), waiting for it to arrive. */
export async function waitForMail(to: string, since: number, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readdirSync(stack.mailDir)
      .filter((f) => f.endsWith(".json") && !f.startsWith("."))
      .sort()
      .map((f) => JSON.parse(readFileSync(path.join(stack.mailDir, f), "utf8")) as StoredMail)
      .filter((m) => m.to.includes(to.toLowerCase()) && m.receivedAt >= since);
    const last = found[found.length - 1];
    if (last) return last.raw;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The six-digit code of one of Atelier's code mails (the indented line of its text part). */
export function codeIn(raw: string): string {
  const m = /\n {4}(\d{6})\r?\n/.exec(raw);
  if (!m?.[1]) throw new Error(`no code in the message:\n${raw.slice(0, 2000)}`);
  return m[1];
}

export async function waitForCode(to: string, since: number): Promise<string> {
  return codeIn(await waitForMail(to, since));
}
