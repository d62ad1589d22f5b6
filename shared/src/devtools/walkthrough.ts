// `pnpm test:walkthrough`: follows docs/ARCHITECTURE.md's walkthrough ("Adding a use case")
// verbatim. Every code block of that section is applied to a scratch copy of the repository
// (hard links, so it takes a moment; a changed file is unlinked before it is written, so the
// checkout is never touched), then the packages are typechecked, the new files linted, and
// the walkthrough's test run against the embedded database. Fails if a step no longer fits
// the code, which is the point: the walkthrough stays true.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./embedded-db";

interface Step {
  file: string;
  after?: string;
  code: string;
}

/** The section's blocks, in order: ```ts file=<path> [after="<text>"]. */
export function walkthroughSteps(markdown: string): Step[] {
  const start = markdown.indexOf("\n## Adding a use case");
  if (start < 0) throw new Error("docs/ARCHITECTURE.md has no section 'Adding a use case'");
  const next = markdown.indexOf("\n## ", start + 1);
  const section = markdown.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/^```ts file=(\S+)(?: after="([^"]+)")?\n([\s\S]*?)^```$/gm)].map((m) => ({
    file: m[1] ?? "",
    after: m[2],
    code: m[3] ?? "",
  }));
}

/** Applies one step to a tree: a new file, or lines inserted after the first line containing `after`. */
export function applyStep(root: string, step: Step): void {
  const target = path.join(root, step.file);
  if (step.after === undefined) {
    if (existsSync(target)) throw new Error(`${step.file} already exists; the walkthrough's new file would overwrite it`);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, step.code);
    return;
  }
  const lines = readFileSync(target, "utf8").split("\n");
  const at = lines.findIndex((l) => l.includes(step.after ?? ""));
  if (at < 0) throw new Error(`${step.file} has no line containing ${JSON.stringify(step.after)}`);
  lines.splice(at + 1, 0, ...step.code.replace(/\n$/, "").split("\n"));
  unlinkSync(target); // a hard link to the checkout's file: write a file of our own
  writeFileSync(target, lines.join("\n"));
}

function run(cwd: string, cmd: string, args: string[]): void {
  process.stdout.write(`[walkthrough] ${cmd} ${args.join(" ")}\n`);
  const r = spawnSync(cmd, args, { cwd, stdio: "inherit", env: { ...process.env, FORCE_COLOR: "0" } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status ?? r.signal})`);
}

async function main(): Promise<void> {
  const steps = walkthroughSteps(readFileSync(path.join(REPO_ROOT, "docs/ARCHITECTURE.md"), "utf8"));
  if (steps.length === 0) throw new Error("the walkthrough has no steps");
  const scratch = path.join(REPO_ROOT, ".data", `walkthrough-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    for (const entry of readdirSync(REPO_ROOT)) {
      if (entry === ".git" || entry === ".data" || entry === ".tools") continue;
      run(REPO_ROOT, "cp", ["-al", entry, path.join(scratch, entry)]);
    }
    // Of the project's tools only the embedded database's binaries are needed (not Node 22).
    if (existsSync(path.join(REPO_ROOT, ".tools/bin"))) {
      mkdirSync(path.join(scratch, ".tools"));
      run(REPO_ROOT, "cp", ["-al", ".tools/bin", path.join(scratch, ".tools/bin")]);
    }
    rmSync(path.join(scratch, "node_modules/.vite"), { recursive: true, force: true });
    for (const step of steps) applyStep(scratch, step);
    const created = steps.filter((s) => s.after === undefined).map((s) => s.file);
    run(scratch, "pnpm", ["--filter", "@atelier/shared", "--filter", "@atelier/server", "--filter", "@atelier/mcp-sidecar", "typecheck"]);
    run(scratch, "pnpm", ["exec", "eslint", ...new Set(steps.map((s) => s.file))]);
    const tests = created.filter((f) => f.endsWith(".test.ts"));
    run(scratch, "pnpm", ["exec", "vitest", "run", "--project", "db", ...tests]);
    process.stdout.write(`[walkthrough] ${steps.length} steps followed, ${tests.length} test file(s) passed\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  main().catch((e: unknown) => {
    process.stderr.write(`[walkthrough] ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
