// A screen loaded on its own (a person who arrives at it first, or the development server,
// which loads each module's CSS only when that module is imported) has only the styles its own
// static imports bring, plus the global ones main.tsx loads. The consent screen once used the
// form classes of components/field.css without importing it, and showed the browser's own
// fieldset, radios and select whenever no other screen had loaded that file first (issue 27).
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(import.meta.dirname, "..");
const GLOBAL_CSS = ["styles/tokens.css", "styles/base.css"].map((f) => path.join(SRC, f));

/** Files reached from `entry` through static imports (not `import()`), relative paths only. */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (file.endsWith(".css")) return;
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/^\s*import\s+(?:[^"';]*?\s+from\s+)?["'](\.[^"']+)["']/gm)) {
      const spec = m[1] ?? "";
      const base = path.resolve(path.dirname(file), spec);
      const found = [base, `${base}.tsx`, `${base}.ts`, path.join(base, "index.ts")].find((f) => existsSync(f) && !f.endsWith("/"));
      if (found && !/\.d\.ts$/.test(found)) visit(found);
    }
  };
  visit(entry);
  return seen;
}

const classesDefinedIn = (css: string) => new Set([...readFileSync(css, "utf8").matchAll(/\.([a-z][a-z0-9_-]*)/gi)].map((m) => m[1] ?? ""));
const classesUsedIn = (tsx: string) =>
  new Set(
    [...readFileSync(tsx, "utf8").matchAll(/className=(?:"([^"]+)"|\{`([^`]+)`\})/g)]
      .flatMap((m) => (m[1] ?? m[2] ?? "").split(/\s+/))
      .filter((c) => /^[a-z][a-z0-9_-]*$/i.test(c)),
  );

describe("a screen brings the styles of the classes it uses", () => {
  it.each(["routes/oauth-consent.tsx"])("%s", (route) => {
    const closure = staticClosure(path.join(SRC, route));
    const loaded = [...closure].filter((f) => f.endsWith(".css")).concat(GLOBAL_CSS);
    const defined = new Set(loaded.flatMap((f) => [...classesDefinedIn(f)]));
    const used = classesUsedIn(path.join(SRC, route));
    // A block class used only with its modifiers (`field__message field__message--error`) counts as defined by them.
    const isDefined = (c: string) => defined.has(c) || [...defined].some((d) => d.startsWith(`${c}--`));
    expect([...used].filter((c) => !isDefined(c))).toEqual([]);
  });
});
