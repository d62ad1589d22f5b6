// nginx serving one directory as static files on loopback: the baseline a rendered page is
// compared with. Everything it writes (pid, logs, temp paths) stays in `dir`.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startService, waitUntilReady, type Service } from "./service";

export function findNginx(): string | null {
  const fromEnv = process.env.NGINX_BIN;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/sbin", "/usr/local/sbin", "/usr/local/nginx/sbin"];
  for (const dir of dirs) {
    const candidate = path.join(dir, "nginx");
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

export function nginxVersion(bin: string): string {
  // `nginx -v` prints to stderr.
  const r = spawnSync(bin, ["-v"], { encoding: "utf8" });
  return `${r.stderr ?? ""}${r.stdout ?? ""}`.trim() || "nginx (version unknown)";
}

export function nginxConf(opts: { dir: string; root: string; port: number; noLogPort?: number; gzipPort?: number }): string {
  const p = (name: string) => path.join(opts.dir, name);
  return `# Written by bench/src/lib/nginx.ts for one benchmark run.
daemon off;
master_process on;
# One worker: the Atelier server is one Node process (one event loop), so each side gets
# one core's worth of server; the other core is left to the load generator.
worker_processes 1;
pid ${p("nginx.pid")};
error_log ${p("nginx.log")} warn;

events {
    worker_connections 1024;
}

http {
    # On, as in production: the Atelier server writes a request log line too (LOG_LEVEL=info).
    access_log ${p("access.log")} combined;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 65;
    # Node's HTTP server does not cap requests per connection; nginx's default of 1000
    # would make the load generator reconnect dozens of times a second.
    keepalive_requests 1000000;
    client_body_temp_path ${p("tmp/body")};
    proxy_temp_path ${p("tmp/proxy")};
    fastcgi_temp_path ${p("tmp/fastcgi")};
    uwsgi_temp_path ${p("tmp/uwsgi")};
    scgi_temp_path ${p("tmp/scgi")};

    server {
        listen 127.0.0.1:${opts.port};
        root ${opts.root};
        default_type text/html;
        charset utf-8;
        location / {
        }
    }
${
  opts.noLogPort === undefined
    ? ""
    : `
    # The same files without the access log: the other nginx baseline (issue 30).
    server {
        listen 127.0.0.1:${opts.noLogPort};
        root ${opts.root};
        default_type text/html;
        charset utf-8;
        access_log off;
        location / {
        }
    }
    # The same files for a client that takes gzip: the copy compressed beforehand (FILE.gz),
    # as a static site serves it.
    server {
        listen 127.0.0.1:${opts.gzipPort ?? opts.noLogPort + 1};
        root ${opts.root};
        default_type text/html;
        charset utf-8;
        gzip_static on;
        gzip_vary on;
        location / {
        }
    }
`
}}
`;
}

/** Starts nginx on 127.0.0.1:`port` serving `root`; resolves once `readyPath` answers 200. */
export async function startNginx(opts: {
  bin: string;
  dir: string;
  root: string;
  port: number;
  noLogPort?: number;
  gzipPort?: number;
  readyPath: string;
}): Promise<Service> {
  mkdirSync(path.join(opts.dir, "tmp"), { recursive: true });
  // Run as root, nginx's worker drops to an unprivileged user that must be able to read the
  // files (the caller makes sure the folders above them can be entered).
  for (const d of [opts.dir, opts.root]) chmodSync(d, 0o755);
  const conf = path.join(opts.dir, "nginx.conf");
  writeFileSync(conf, nginxConf(opts));
  const service = await runNginx("nginx", conf, opts);
  if (opts.noLogPort !== undefined) await waitUntilReady(service, `http://127.0.0.1:${opts.noLogPort}${opts.readyPath}`, 15_000);
  return service;
}

/** Runs nginx with the configuration `conf` (prefix `dir`, log beside it); resolves once `readyPath` answers 200. */
async function runNginx(name: string, conf: string, opts: { bin: string; dir: string; port: number; readyPath: string }): Promise<Service> {
  const service = startService({
    name,
    command: opts.bin,
    args: ["-c", conf, "-p", opts.dir, "-e", path.join(opts.dir, "nginx.log")],
    cwd: opts.dir,
    env: { PATH: process.env.PATH },
    logFile: path.join(opts.dir, "nginx.log"),
  });
  await waitUntilReady(service, `http://127.0.0.1:${opts.port}${opts.readyPath}`, 15_000);
  return service;
}

function replaceOnce(text: string, from: string | RegExp, to: string): string {
  const re = typeof from === "string" ? new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "g") : new RegExp(from.source, "gm");
  const count = text.match(re)?.length ?? 0;
  if (count !== 1)
    throw new Error(`deploy/nginx.conf: expected exactly one match for ${String(from)}, found ${count}; update bench/src/lib/nginx.ts with the file`);
  return text.replace(re, to);
}

/**
 * The shipped deploy/nginx.conf as production runs it, with what a benchmark must change
 * (the substitutions e2e/src/nginx.ts makes: listen address, upstream ports, file paths into
 * `dir`) and one more: `worker_processes` is set to `workers` (the static-file baseline runs
 * one worker; the shipped `auto` would give the proxy every core while wrk needs one).
 */
export function shippedNginxConf(opts: {
  template: string;
  dir: string;
  port: number;
  serverPorts: [number, number];
  sidecarPorts: [number, number];
  workers: number;
  /** nginx's view log, which the server reads (reading figures); without it nginx counts no views (the line is removed). */
  viewLog?: string;
}): string {
  const p = (name: string) => path.join(opts.dir, name);
  let conf = readFileSync(opts.template, "utf8");
  conf = replaceOnce(conf, "worker_processes auto;", `worker_processes ${opts.workers};\ndaemon off;`);
  conf = replaceOnce(conf, "pid /run/atelier-nginx.pid;", `pid ${p("nginx.pid")};`);
  conf = replaceOnce(conf, "error_log /var/log/nginx/atelier-error.log warn;", `error_log ${p("nginx.log")} warn;`);
  // Whatever follows the format (buffer=, flush=) stays as shipped.
  conf = replaceOnce(conf, "access_log /var/log/nginx/atelier-access.log atelier", `access_log ${p("access.log")} atelier`);
  conf = replaceOnce(conf, "proxy_cache_path /var/cache/nginx/atelier ", `proxy_cache_path ${p("cache")} `);
  conf = replaceOnce(conf, "listen 80 default_server;", `listen 127.0.0.1:${opts.port} default_server;`);
  conf = replaceOnce(conf, "server 127.0.0.1:3101 ", `server 127.0.0.1:${opts.serverPorts[0]} `);
  conf = replaceOnce(conf, "server 127.0.0.1:3102 ", `server 127.0.0.1:${opts.serverPorts[1]} `);
  conf = replaceOnce(conf, "server 127.0.0.1:3201 ", `server 127.0.0.1:${opts.sidecarPorts[0]} `);
  conf = replaceOnce(conf, "server 127.0.0.1:3202 ", `server 127.0.0.1:${opts.sidecarPorts[1]} `);
  conf =
    opts.viewLog === undefined
      ? conf.replace(/^ *access_log \/run\/atelier\/views\.log .*$/m, "") // (an older nginx.conf compared with --before-nginx has no such line)
      : replaceOnce(conf, "access_log /run/atelier/views.log ", `access_log ${opts.viewLog} `);
  const temps = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((d) => `    ${d}_temp_path ${p(`tmp/${d}`)};`).join("\n");
  return replaceOnce(conf, /^http \{$/, `http {\n${temps}`);
}

/** Starts the shipped nginx.conf (see shippedNginxConf); resolves once `readyPath` answers 200 through it. */
export async function startShippedNginx(opts: {
  bin: string;
  template: string;
  dir: string;
  port: number;
  serverPorts: [number, number];
  sidecarPorts: [number, number];
  workers: number;
  readyPath: string;
  viewLog?: string;
}): Promise<Service> {
  for (const d of ["tmp/client_body", "tmp/proxy", "tmp/fastcgi", "tmp/uwsgi", "tmp/scgi", "cache"]) {
    mkdirSync(path.join(opts.dir, d), { recursive: true });
    chmodSync(path.join(opts.dir, d), 0o777);
  }
  chmodSync(opts.dir, 0o755);
  const conf = path.join(opts.dir, "nginx.conf");
  writeFileSync(conf, shippedNginxConf(opts));
  const check = spawnSync(opts.bin, ["-t", "-q", "-p", opts.dir, "-c", conf], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`nginx -t refused the shipped configuration:\n${check.stderr}`);
  return runNginx("nginx (deploy/nginx.conf)", conf, opts);
}
