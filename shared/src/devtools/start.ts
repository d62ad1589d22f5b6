// `pnpm start`: the production build on one machine without a separate proxy. The server
// listens on PORT, serves the built SPA at /app and forwards /mcp to the sidecar. With
// MONGODB_URI unset it starts the embedded database; SECRET_KEY, when unset, is generated
// once into DATA_DIR/secret-key. For several processes behind nginx, see deploy/README.md.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { recordRunningDb } from "../backup/cli";
import { loadConfigOrExit } from "../config";
import { productionNodeFlags } from "../process";
import { REPO_ROOT, startEmbeddedDb } from "./embedded-db";
import { startService, type Service } from "./supervisor";

const log = (line: string) => process.stdout.write(`[start] ${line}\n`);
const env: Record<string, string | undefined> = { NODE_ENV: "production", ...process.env };
const dataDir = path.resolve(env.DATA_DIR ?? ".data");
if (!env.SECRET_KEY) {
  const file = path.join(dataDir, "secret-key");
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  env.SECRET_KEY = readFileSync(file, "utf8").trim();
}
const config = loadConfigOrExit({ ...env, DATA_DIR: dataDir });

for (const pkg of ["server", "mcp-sidecar"]) {
  if (!existsSync(path.join(REPO_ROOT, pkg, "dist/main.js"))) {
    process.stderr.write(`${pkg}/dist/main.js is missing: run pnpm build first.\n`);
    process.exit(1);
  }
}

const db = await startEmbeddedDb({ mongodbUri: config.MONGODB_URI, dataDir: path.join(dataDir, "db"), log }).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
// `pnpm backup` / `pnpm restore` find the embedded database through this note while it runs.
const forgetRunningDb = db.kind === "external" ? () => {} : recordRunningDb(dataDir, db.uri);

const common = { ...env, DATA_DIR: dataDir, MONGODB_URI: db.uri };
const services: Service[] = [
  startService({
    name: "sidecar",
    command: process.execPath,
    args: [...productionNodeFlags(env), "mcp-sidecar/dist/main.js"],
    cwd: REPO_ROOT,
    env: { ...common, SIDECAR_PORT: String(config.SIDECAR_PORT) },
  }),
  startService({
    name: "server",
    command: process.execPath,
    args: [...productionNodeFlags(env), "server/dist/main.js"],
    cwd: REPO_ROOT,
    env: {
      ...common,
      SERVER_PORT: String(config.PORT),
      WEB_DIST_DIR: path.join(REPO_ROOT, "web/dist"),
      SIDECAR_URL: `http://127.0.0.1:${config.SIDECAR_PORT}`,
    },
  }),
];
log(`Atelier is starting at ${config.BASE_URL} (port ${config.PORT}). Ctrl-C stops everything.`);

let stopping = false;
async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await Promise.all(services.map((s) => s.stop()));
    forgetRunningDb();
    await db.stop();
  }
  process.exit(code);
}
process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));
for (const s of services) {
  void s.exited.then((code) => {
    if (!stopping) {
      log(`${s.name} exited (${code ?? "signal"}); stopping the rest`);
      void stopAll(1);
    }
  });
}
