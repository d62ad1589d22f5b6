// nginx serving one directory as static files on loopback: the baseline a rendered page is
// compared with. Everything it writes (pid, logs, temp paths) stays in `dir`.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
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

export function nginxConf(opts: { dir: string; root: string; port: number }): string {
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
}
`;
}

/** Starts nginx on 127.0.0.1:`port` serving `root`; resolves once `readyPath` answers 200. */
export async function startNginx(opts: { bin: string; dir: string; root: string; port: number; readyPath: string }): Promise<Service> {
  mkdirSync(path.join(opts.dir, "tmp"), { recursive: true });
  // Run as root, nginx's worker drops to an unprivileged user that must be able to read the
  // files (the caller makes sure the folders above them can be entered).
  for (const d of [opts.dir, opts.root]) chmodSync(d, 0o755);
  const conf = path.join(opts.dir, "nginx.conf");
  writeFileSync(conf, nginxConf(opts));
  const service = startService({
    name: "nginx",
    command: opts.bin,
    args: ["-c", conf, "-p", opts.dir, "-e", path.join(opts.dir, "nginx.log")],
    cwd: opts.dir,
    env: { PATH: process.env.PATH },
    logFile: path.join(opts.dir, "nginx.log"),
  });
  await waitUntilReady(service, `http://127.0.0.1:${opts.port}${opts.readyPath}`, 15_000);
  return service;
}
