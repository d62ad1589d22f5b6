// A domain file is one use case or one concern, small enough to hold in mind: over 300 lines
// it must say why at its top (a comment line starting "Longer than 300 lines").
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const DOMAIN = import.meta.dirname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [path.join(dir, e.name)] : [],
  );
}

describe("domain files", () => {
  it("are at most 300 lines, or say why at their top", () => {
    const long = sources(DOMAIN).flatMap((f) => {
      const lines = readFileSync(f, "utf8").split("\n");
      const head = lines.slice(0, lines.findIndex((l) => !l.startsWith("//")) + 1);
      return lines.length > 300 && !head.some((l) => l.startsWith("// Longer than 300 lines")) ? [`${path.relative(DOMAIN, f)}: ${lines.length} lines`] : [];
    });
    expect(long).toEqual([]);
  });
});
