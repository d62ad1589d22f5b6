// `pnpm build` (after the SPA's `vite build`): bundles the server and the sidecar, shared
// core and npm dependencies included, into one ESM file each, so production runs plain
// `node <pkg>/dist/main.js` without TypeScript tooling.
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
];

// The server's package also ships the backup and restore commands (deploy/README.md, "Backups").
const ENTRIES: [pkg: string, name: string][] = [
  ["server", "main"],
  ["mcp-sidecar", "main"],
  ["server", "backup"],
  ["server", "restore"],
];

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
