// Every section a comment or a doc cites exists in this repository: a citation is a path to a
// Markdown file with an optional heading anchor (`docs/contract.md#routes`), and the documents
// that were never part of the repository (the original design notes) are not cited at all.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SKIP = new Set(["node_modules", ".git", ".tools", ".data", "dist", "dist-maps", "artifacts", "test-results", "results", "embedded-db", "fixtures"]);
const TEXT = /\.(ts|tsx|js|mjs|css|html|md|conf|ya?ml)$|^(run|setup)$/;

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name === "pnpm-lock.yaml") continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) files(full, out);
    else if (TEXT.test(name)) out.push(full);
  }
  return out;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1] ?? "")));
}

const THIS_FILE = path.relative(ROOT, import.meta.filename);
const all = files(ROOT).filter((f) => path.relative(ROOT, f) !== THIS_FILE);

describe("citations", () => {
  it("name no document outside the repository", () => {
    const outside = /\b(DESIGN|SPEC) ?§|\b(DESIGN|SPEC|CONVENTIONS|NOTES-MCP-AND-AUTH)\.md\b|\bCONVENTIONS\b/;
    const found: string[] = [];
    for (const f of all) {
      readFileSync(f, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (outside.test(line)) found.push(`${path.relative(ROOT, f)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it("point at files and headings that exist", () => {
    const broken: string[] = [];
    const cache = new Map<string, Set<string>>();
    let checked = 0;
    for (const f of all) {
      const text = readFileSync(f, "utf8");
      for (const m of text.matchAll(/(?<![\w/.-])((?:[\w.-]+\/)*[\w-]+\.md)#([\w-]+)/g)) {
        const rel = m[1] ?? "";
        const anchor = m[2] ?? "";
        // From the repository root (`docs/x.md`), or beside the citing file (`x.md` inside docs/).
        const candidates = [path.join(ROOT, rel), path.join(path.dirname(f), rel), path.join(ROOT, "docs", rel)];
        const target = candidates.find((c) => {
          try {
            return statSync(c).isFile();
          } catch {
            return false;
          }
        });
        checked++;
        const where = `${path.relative(ROOT, f)}: ${rel}#${anchor}`;
        if (!target) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        const anchors = cache.get(target) ?? anchorsOf(target);
        cache.set(target, anchors);
        if (!anchors.has(anchor)) broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });
});

describe("anchorOf", () => {
  it("makes GitHub's anchors", () => {
    expect(anchorOf("Sandboxes: limits and lifecycle")).toBe("sandboxes-limits-and-lifecycle");
    expect(anchorOf("Who may do what")).toBe("who-may-do-what");
  });
});
