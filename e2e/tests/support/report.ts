// A reliability test's figures, for the run's report (src/report.ts) and docs/reliability.md.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stack } from "./stack";

export function writeSection(file: string, order: number, title: string, markdown: string): void {
  const dir = path.join(stack.artifactsDir, "reliability");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${file}.json`), JSON.stringify({ order, title, markdown }, null, 2));
}

export function table(head: string[], rows: (string | number)[][]): string {
  return [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
}
