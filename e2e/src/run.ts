// `pnpm test:e2e`: builds the production bundles, starts the whole production topology on
// loopback (embedded database, SMTP capture, two server and two sidecar processes, the
// shipped nginx.conf in front), runs the Playwright suite against nginx, and stops
// everything again, also on failure or Ctrl-C.
//
//   pnpm test:e2e                          everything
//   pnpm test:e2e --skip-build             reuse web/dist and */dist/main.js
//   pnpm test:e2e --write-docs             also refresh the figures in docs/reliability.md
//   pnpm test:e2e tests/journeys -g owner  anything else goes to `playwright test`
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, REPO_ROOT, startEmbeddedDb, type EmbeddedDb } from "@atelier/shared/devtools/embedded-db";
import { productionNodeFlags } from "@atelier/shared/process";
import { startControlServer } from "./control";
import { startMailCapture, type MailCapture } from "./mail-capture";
import { renderNginxConf } from "./nginx";
import { ManagedProcess, type Crash } from "./processes";
import { writeReports } from "./report";

const E2E_DIR = path.join(REPO_ROOT, "e2e");
const ARTIFACTS = path.join(E2E_DIR, "artifacts");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const NGINX = process.env.NGINX_PATH ?? (existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx");
/** Low on purpose: the rate-limit test proves the cap is shared by both server processes. */
const ANON_REG_PER_IP_PER_DAY = 4;
/**
 * Short on purpose: the lifecycle sweeper (in every server process) finishes content writes a
 * fault cut off between their steps once they are SWEEP_GRACE_SECONDS old, and the tests wait
 * for it instead of for the production minute.
 */
const SWEEP_INTERVAL_SECONDS = 2;
const SWEEP_GRACE_SECONDS = 3;
/**
 * The read cache's bound, as production has it (docs/ARCHITECTURE.md#state): a change made through one
 * process is seen by the others within it, and the tests prove that bound.
 */
const CACHE_TTL_MS = 1000;

const log = (line: string) => process.stdout.write(`\x1b[1m[e2e]\x1b[0m ${line}\n`);
const started = Date.now();

const args = process.argv.slice(2);
const skipBuild = args.includes("--skip-build");
const writeDocs = args.includes("--write-docs");
const playwrightArgs = args.filter((a) => a !== "--skip-build" && a !== "--write-docs" && a !== "--");

/** A self-signed certificate for localhost and 127.0.0.1 (openssl from Debian), valid for a day. */
function makeTestCertificate(dir: string): { cert: string; key: string } {
  mkdirSync(dir, { recursive: true });
  const cert = path.join(dir, "localhost.crt");
  const key = path.join(dir, "localhost.key");
  const r = spawnSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`openssl could not make the test certificate: ${r.stderr || r.error?.message}`);
  return { cert, key };
}

function which(cmd: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;
}

if (!existsSync(CHROMIUM)) {
  log(`Chromium is missing at ${CHROMIUM}: run \`bash .ci/setup\` (installs Debian's chromium) or set CHROMIUM_PATH.`);
  process.exit(1);
}
if (!existsSync(NGINX) && !which(NGINX)) {
  log("nginx is missing: run `bash .ci/setup` (installs Debian's nginx) or set NGINX_PATH.");
  process.exit(1);
}

// ── everything we start, so that every exit path can stop it ────────────────────────────
const processes = new Map<string, ManagedProcess>();
const crashes: Crash[] = [];
let db: EmbeddedDb | null = null;
let mail: MailCapture | null = null;
let control: { url: string; close(): Promise<void> } | null = null;
let playwright: ChildProcess | null = null;
let cleaningUp = false;
const tmp = mkdtempSync(path.join(tmpdir(), "atelier-e2e-"));
// nginx's workers run as nobody when the runner is root: they must reach its temp folder.
chmodSync(tmp, 0o755);

async function cleanup(): Promise<void> {
  if (cleaningUp) return;
  cleaningUp = true;
  if (playwright && playwright.exitCode === null) playwright.kill("SIGTERM");
  // nginx first, so nothing new reaches the apps; then the apps; the database last.
  await processes.get("nginx")?.stop();
  await Promise.all([...processes.values()].map((p) => p.stop()));
  await db?.stop().catch(() => {});
  await mail?.close().catch(() => {});
  await control?.close().catch(() => {});
}

// Last resort if the runner itself dies: no process group, and not the database, outlives it.
process.on("exit", () => {
  const kill = (pid: number) => {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  };
  for (const p of processes.values()) if (p.pid) kill(-p.pid);
  if (db?.pid) kill(db.pid);
});
// Output piped into something that stops reading (`| head`) must not kill the runner
// before it has stopped what it started.
process.stdout.on("error", () => {});
process.stderr.on("error", () => {});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    log(`${signal}: stopping everything…`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function main(): Promise<number> {
  if (!skipBuild) {
    log("building web, server and sidecar (pnpm build)…");
    const b = spawnSync("pnpm", ["build"], { cwd: REPO_ROOT, stdio: ["ignore", "inherit", "inherit"] });
    if (b.status !== 0) throw new Error(`pnpm build failed (${b.status ?? b.signal})`);
  }
  for (const f of ["web/dist/index.html", "server/dist/main.js", "mcp-sidecar/dist/main.js"]) {
    if (!existsSync(path.join(REPO_ROOT, f))) throw new Error(`${f} is missing: run without --skip-build`);
  }
  // The stack runs a copy of the build taken now, so that another `pnpm build` in the working
  // tree during the run cannot change what is under test (a vite build empties web/dist), nor
  // what a process restarted by a fault test loads. It is also deploy/README.md's promise:
  // the dist folders are all a machine needs.
  const build = path.join(tmp, "build");
  for (const pkg of ["web", "server", "mcp-sidecar"]) cpSync(path.join(REPO_ROOT, pkg, "dist"), path.join(build, pkg), { recursive: true });

  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(path.join(ARTIFACTS, "reliability"), { recursive: true });
  const logs = path.join(ARTIFACTS, "logs");
  mkdirSync(logs, { recursive: true });
  const mailDir = path.join(tmp, "mail");
  mkdirSync(mailDir);

  // Database: a fixed port, so a restart (the fault tests) comes back at the same address.
  const dbPort = await freePort();
  const dbDir = path.join(tmp, "db");
  const startDb = async () => {
    db = await startEmbeddedDb({ dataDir: dbDir, port: dbPort, log });
  };
  await startDb();
  const dbUri = (db as EmbeddedDb | null)?.uri ?? "";
  mail = await startMailCapture(mailDir);

  // A certificate for https://localhost on this machine: the OAuth journeys serve a client ID
  // metadata document with it (the outside internet, faked), and the server processes trust it.
  const tls = makeTestCertificate(path.join(tmp, "tls"));

  const [nginxPort, s1, s2, m1, m2] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const viewLog = path.join(tmp, "views.log");
  const baseUrl = `http://127.0.0.1:${nginxPort}`;
  const common: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TZ: process.env.TZ,
    NODE_ENV: "production",
    BASE_URL: baseUrl,
    LISTEN_HOST: "127.0.0.1",
    TRUST_PROXY: "loopback",
    MONGODB_URI: dbUri,
    MONGODB_DB: "atelier_e2e",
    SECRET_KEY: randomBytes(32).toString("base64url"),
    SMTP_URL: mail.url,
    ANONYMOUS_REGISTRATION_ENABLED: "true",
    ANON_REG_PER_IP_PER_DAY: String(ANON_REG_PER_IP_PER_DAY),
    // Every journey signs its people in from this machine's one address.
    SIGNIN_CODES_PER_IP_PER_HOUR: "100000",
    SWEEP_INTERVAL_SECONDS: String(SWEEP_INTERVAL_SECONDS),
    SWEEP_GRACE_SECONDS: String(SWEEP_GRACE_SECONDS),
    CACHE_TTL_MS: String(CACHE_TTL_MS),
    DATA_DIR: path.join(tmp, "data"),
    LOG_LEVEL: "info",
    // OAuth clients on loopback (the journeys' client metadata documents and redirect URIs).
    OAUTH_ALLOW_LOOPBACK_CLIENTS: "true",
    // Webhook receivers on loopback (the webhooks journey's receiver runs in the test process).
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    NODE_EXTRA_CA_CERTS: tls.cert,
    // nginx's view log (reading figures): one of the two servers reads it, the other stands by.
    ANALYTICS_NGINX_LOG: viewLog,
  };
  const node = process.execPath;
  const app = (name: string, pkg: string, env: Record<string, string>, port: number) =>
    new ManagedProcess(
      {
        name,
        command: node,
        args: [...productionNodeFlags(process.env), path.join(build, pkg, "main.js")],
        cwd: build,
        env: { ...common, ...env },
        logFile: path.join(logs, `${name}.log`),
        healthUrl: `http://127.0.0.1:${port}/healthz`,
      },
      (c) => crashes.push(c),
    );
  const webDist = path.join(build, "web");
  for (const p of [
    app("server-1", "server", { SERVER_PORT: String(s1), WEB_DIST_DIR: webDist }, s1),
    app("server-2", "server", { SERVER_PORT: String(s2), WEB_DIST_DIR: webDist }, s2),
    app("sidecar-1", "mcp-sidecar", { SIDECAR_PORT: String(m1) }, m1),
    app("sidecar-2", "mcp-sidecar", { SIDECAR_PORT: String(m2) }, m2),
  ]) {
    processes.set(p.name, p);
  }
  log("starting two server and two sidecar processes (NODE_ENV=production)…");
  // One first, so that index creation at start-up does not race on a fresh database.
  await processes.get("server-1")?.start();
  await Promise.all([...processes.values()].map((p) => p.start()));

  const nginxDir = path.join(tmp, "nginx");
  mkdirSync(nginxDir);
  const conf = renderNginxConf({
    template: path.join(REPO_ROOT, "deploy/nginx.conf"),
    prefix: nginxDir,
    port: nginxPort,
    serverPorts: [s1, s2],
    sidecarPorts: [m1, m2],
    viewLog,
  });
  const check = spawnSync(NGINX, ["-t", "-q", "-p", nginxDir, "-c", conf.confFile], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`nginx -t refused the configuration:\n${check.stderr}`);
  const nginx = new ManagedProcess(
    {
      name: "nginx",
      command: NGINX,
      args: ["-p", nginxDir, "-c", conf.confFile, "-g", "daemon off;"],
      cwd: nginxDir,
      env: { PATH: process.env.PATH },
      logFile: path.join(logs, "nginx.log"),
      healthUrl: `${baseUrl}/healthz`,
    },
    (c) => crashes.push(c),
  );
  processes.set("nginx", nginx);
  await nginx.start();
  log(`stack up at ${baseUrl} (server :${s1} :${s2}, sidecar :${m1} :${m2}, database ${dbUri})`);

  const faults: { at: string; what: string }[] = [];
  control = await startControlServer({
    processes,
    faults,
    stopDb: async () => {
      await db?.stop();
      db = null;
    },
    startDb: async () => {
      if (!db) await startDb();
    },
  });

  const env: Record<string, string | undefined> = {
    ...process.env,
    E2E_BASE_URL: baseUrl,
    E2E_CONTROL_URL: control.url,
    E2E_MAIL_DIR: mailDir,
    E2E_MONGODB_URI: dbUri,
    E2E_MONGODB_DB: "atelier_e2e",
    E2E_SERVER_URLS: `http://127.0.0.1:${s1},http://127.0.0.1:${s2}`,
    E2E_SIDECAR_URLS: `http://127.0.0.1:${m1},http://127.0.0.1:${m2}`,
    E2E_ANON_REG_PER_IP_PER_DAY: String(ANON_REG_PER_IP_PER_DAY),
    E2E_SWEEP_INTERVAL_SECONDS: String(SWEEP_INTERVAL_SECONDS),
    E2E_SWEEP_GRACE_SECONDS: String(SWEEP_GRACE_SECONDS),
    E2E_CACHE_TTL_MS: String(CACHE_TTL_MS),
    E2E_ARTIFACTS_DIR: ARTIFACTS,
    E2E_NGINX_ACCESS_LOG: conf.accessLog,
    E2E_VIEW_LOG: viewLog,
    E2E_NGINX_TEMPLATE: path.join(REPO_ROOT, "deploy/nginx.conf"),
    E2E_NGINX_PATH: NGINX,
    E2E_TLS_CERT: tls.cert,
    E2E_TLS_KEY: tls.key,
    CHROMIUM_PATH: CHROMIUM,
  };
  log(`running Playwright${playwrightArgs.length ? ` (${playwrightArgs.join(" ")})` : ""}…`);
  const pwStarted = Date.now();
  const code = await new Promise<number>((resolve) => {
    const child = spawn(path.join(E2E_DIR, "node_modules/.bin/playwright"), ["test", ...playwrightArgs], {
      cwd: E2E_DIR,
      env: env as NodeJS.ProcessEnv,
      stdio: "inherit",
    });
    playwright = child;
    child.once("exit", (c, s) => resolve(c ?? (s ? 1 : 0)));
  });

  // nginx writes its access log in blocks (deploy/nginx.conf) and the rest when it stops:
  // stop it before the log is read (cleanup's stop is then a no-op).
  await processes.get("nginx")?.stop();
  for (const f of [conf.accessLog, conf.errorLog]) {
    if (existsSync(f)) copyFileSync(f, path.join(logs, `nginx-${path.basename(f)}`));
  }
  const report = writeReports({
    artifactsDir: ARTIFACTS,
    accessLog: conf.accessLog,
    faults,
    crashes,
    mailCount: mail.count(),
    playwrightSeconds: (Date.now() - pwStarted) / 1000,
    docsFile: writeDocs ? path.join(REPO_ROOT, "docs/reliability.md") : null,
  });
  log(`reliability figures: ${path.relative(REPO_ROOT, report)}${writeDocs ? " (and docs/reliability.md)" : ""}`);
  const screens = path.join(ARTIFACTS, "screens");
  if (existsSync(screens)) log(`screenshots of the app's main screens at desktop (1280×800) and phone (375×812) width: ${screens}/`);
  log(`each journey's last screen (*.png), process logs and reports: ${path.relative(REPO_ROOT, ARTIFACTS)}/`);
  if (crashes.length > 0) {
    for (const c of crashes) {
      log(`CRASH: ${c.name} exited by itself (code ${c.code ?? "-"}, signal ${c.signal ?? "-"}) at ${c.at}; its log:`);
      process.stdout.write(`${processes.get(c.name)?.logTail() ?? ""}\n`);
    }
    return 1;
  }
  return code;
}

let exitCode: number;
try {
  exitCode = await main();
} catch (err) {
  log(`failed: ${err instanceof Error ? err.message : String(err)}`);
  exitCode = 1;
} finally {
  await cleanup();
  rmSync(tmp, { recursive: true, force: true });
}
log(`${exitCode === 0 ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s; everything stopped.`);
process.exit(exitCode);
