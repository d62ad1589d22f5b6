// `pnpm dev`: the embedded database (unless MONGODB_URI), the server, the sidecar and Vite,
// all behind one origin at BASE_URL. Ctrl-C stops every child; nothing is left running.
import path from "node:path";
import { recordRunningDb } from "../backup/cli";
import { loadConfigOrExit } from "../config";
import { REPO_ROOT, startEmbeddedDb } from "./embedded-db";
import { startService, type Service } from "./supervisor";

const config = loadConfigOrExit();
const log = (line: string) => process.stdout.write(`\x1b[1m[dev]\x1b[0m ${line}\n`);

const db = await startEmbeddedDb({
  mongodbUri: config.MONGODB_URI,
  dataDir: path.join(config.DATA_DIR, "db"),
  log,
}).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
// `pnpm backup` / `pnpm restore` find the embedded database through this note while it runs.
const forgetRunningDb = db.kind === "external" ? () => {} : recordRunningDb(config.DATA_DIR, db.uri);

const env = {
  ...process.env,
  NODE_ENV: config.NODE_ENV,
  MONGODB_URI: db.uri,
  DATA_DIR: config.DATA_DIR,
  PORT: String(config.PORT),
  SERVER_PORT: String(config.SERVER_PORT),
  SIDECAR_PORT: String(config.SIDECAR_PORT),
  BASE_URL: config.BASE_URL,
};
const bin = (pkg: string, name: string) => path.join(REPO_ROOT, pkg, "node_modules/.bin", name);
const services: Service[] = [
  startService({
    name: "server",
    command: bin("server", "tsx"),
    args: ["watch", "--clear-screen=false", "src/main.ts"],
    cwd: path.join(REPO_ROOT, "server"),
    env,
  }),
  startService({
    name: "sidecar",
    command: bin("mcp-sidecar", "tsx"),
    args: ["watch", "--clear-screen=false", "src/main.ts"],
    cwd: path.join(REPO_ROOT, "mcp-sidecar"),
    env,
  }),
  startService({ name: "web", command: bin("web", "vite"), args: ["--clearScreen", "false"], cwd: path.join(REPO_ROOT, "web"), env }),
];
log(`Atelier is starting at ${config.BASE_URL} (app at ${config.BASE_URL}/app/). Ctrl-C stops everything.`);

let stopping = false;
async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    log("stopping…");
    await Promise.all(services.map((s) => s.stop()));
    forgetRunningDb();
    await db.stop();
    log("stopped");
  }
  process.exit(code);
}
process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));
process.on("SIGHUP", () => void stopAll(0));
for (const s of services) {
  void s.exited.then((code) => {
    if (!stopping) {
      log(`${s.name} exited (${code ?? "signal"}); stopping the rest`);
      void stopAll(1);
    }
  });
}
