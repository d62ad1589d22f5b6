// The domain's modules form no import cycle (docs/ARCHITECTURE.md#packages: one concern a file, no loops):
// each file's relative imports, as written, must leave a graph without cycles.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Each module of the domain (its folders of use cases included), by its path from `dir`, with the modules it imports. */
function graphOf(dir: string): Map<string, string[]> {
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const text = readFileSync(path.join(dir, f), "utf8");
    // Type-only imports vanish at run time but still tie the modules together: counted too.
    const deps = [...text.matchAll(/from\s+"(\.\.?\/[a-z0-9./-]+)"/g)]
      .map((m) => path.posix.join(path.posix.dirname(f), `${m[1]}.ts`))
      .filter((d) => !d.startsWith(".."));
    graph.set(f, [...new Set(deps)]);
  }
  return graph;
}

function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, "open");
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      if (state.get(m) === "open") found.push([...stack.slice(stack.indexOf(m)), m]);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, "done");
  };
  for (const n of graph.keys()) if (!state.has(n)) visit(n);
  return found;
}

describe("the domain's import graph", () => {
  it("has no cycle", () => {
    expect(cycles(graphOf(here)).map((c) => c.join(" → "))).toEqual([]);
  });

  it("is read from the real files (a cycle would be found)", () => {
    expect(
      cycles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", ["a.ts"]],
        ]),
      ),
    ).toHaveLength(1);
    expect(graphOf(here).get("pages/page-versions.ts")).toContain("artifacts.ts");
    expect(graphOf(here).get("sweeper.ts")).toContain("pages/page-versions.ts");
  });
});
