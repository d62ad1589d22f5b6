// `pnpm build` (after the SPA's `vite build`): bundles the server and the sidecar, shared
// core and npm dependencies included, into one ESM file each, so production runs plain
// `node <pkg>/dist/main.js` without TypeScript tooling.
import { cpSync, existsSync, realpathSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { build } from "esbuild";
import { REPO_ROOT } from "./embedded-db";

// Optional native add-ons the MongoDB driver loads only when configured to.
const OPTIONAL = [
  "kerberos",
  "@mongodb-js/zstd",
  "snappy",
  "mongodb-client-encryption",
  "@aws-sdk/credential-providers",
  "gcp-metadata",
  "socks",
  "aws4",
  "pino-pretty",
  // Native (libvips, a prebuilt package per platform): copied beside the bundle below.
  "sharp",
];

// The server's package also ships the backup and restore commands (deploy/README.md, "Backups").
const ENTRIES: [pkg: string, name: string][] = [
  ["server", "main"],
  ["mcp-sidecar", "main"],
  ["server", "backup"],
  ["server", "restore"],
];

/**
 * Copies an installed package and what it needs at run time (dependencies, and the optional
 * ones installed for this platform, like sharp's libvips binaries) into `dir`/node_modules,
 * so that `dist/` runs on its own as the bundle does (docs/security.md#files).
 */
function copyPackage(name: string, from: string, dir: string, seen = new Set<string>()): void {
  if (seen.has(name)) return;
  // Looked up along the node_modules folders (a package's exports may hide its package.json).
  const found = (createRequire(from).resolve.paths(name) ?? []).map((p) => path.join(p, name, "package.json")).find((p) => existsSync(p));
  if (!found) return; // An optional dependency for another platform: not installed.
  const pkgJson = realpathSync(found);
  seen.add(name);
  const src = path.dirname(pkgJson);
  cpSync(src, path.join(dir, "node_modules", name), { recursive: true, dereference: true });
  const meta = createRequire(pkgJson)(pkgJson) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
  for (const dep of Object.keys({ ...meta.dependencies, ...meta.optionalDependencies })) copyPackage(dep, pkgJson, dir, seen);
}

for (const pkg of ["server", "mcp-sidecar"]) {
  const dist = path.join(REPO_ROOT, pkg, "dist");
  if (existsSync(path.join(dist, "node_modules"))) rmSync(path.join(dist, "node_modules"), { recursive: true });
  copyPackage("sharp", path.join(REPO_ROOT, pkg, "package.json"), dist);
}

for (const [pkg, name] of ENTRIES) {
  const outfile = path.join(REPO_ROOT, pkg, `dist/${name}.js`);
  await build({
    entryPoints: [path.join(REPO_ROOT, pkg, `src/${name}.ts`)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    external: OPTIONAL,
    // Bundled CommonJS code still calls require() for Node built-ins.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: "warning",
    legalComments: "linked",
  });
  console.log(`built ${path.relative(REPO_ROOT, outfile)}`);
}
