// The e2e stack runs the shipped deploy/nginx.conf, with only what a test machine must
// change: the listen address, the upstream ports and the file paths (pid, logs, temp files
// and the micro-cache, into a temporary folder, so no root-owned path is needed). Every substitution must match exactly once, so
// the tested file cannot drift away from the shipped one unnoticed.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface NginxLayout {
  /** deploy/nginx.conf */
  template: string;
  /** Temporary folder for the pid file, logs and nginx's temp files. */
  prefix: string;
  port: number;
  serverPorts: [number, number];
  sidecarPorts: [number, number];
  /** nginx's view log, which the servers read (their ANALYTICS_NGINX_LOG). */
  viewLog: string;
  /** A load balancer in front, trusted for X-Forwarded-For (`set_real_ip_from`), as deploy/nginx.conf describes. */
  realIpFrom?: string;
}

export interface RenderedNginx {
  confFile: string;
  accessLog: string;
  errorLog: string;
}

function replaceOnce(text: string, from: string | RegExp, to: string): string {
  const re =
    typeof from === "string" ? new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "g") : new RegExp(from.source, `${from.flags.replace("g", "")}g`);
  const count = text.match(re)?.length ?? 0;
  if (count !== 1) {
    throw new Error(`deploy/nginx.conf: expected exactly one match for ${String(from)}, found ${count}; update e2e/src/nginx.ts with the file`);
  }
  return text.replace(re, to);
}

export function renderNginxConf(layout: NginxLayout): RenderedNginx {
  const { prefix } = layout;
  const temp = path.join(prefix, "temp");
  for (const dir of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) {
    mkdirSync(path.join(temp, dir), { recursive: true });
    // When the master runs as root its workers run as nobody: they must be able to write here.
    chmodSync(path.join(temp, dir), 0o777);
  }
  chmodSync(temp, 0o755);
  chmodSync(prefix, 0o755);
  const accessLog = path.join(prefix, "access.log");
  const errorLog = path.join(prefix, "error.log");
  let conf = readFileSync(layout.template, "utf8");
  conf = replaceOnce(conf, "pid /run/atelier-nginx.pid;", `pid ${path.join(prefix, "nginx.pid")};`);
  conf = replaceOnce(conf, "error_log /var/log/nginx/atelier-error.log warn;", `error_log ${errorLog} warn;`);
  // Only the path: the buffering that follows (buffer=, flush=) stays as shipped.
  conf = replaceOnce(conf, "access_log /var/log/nginx/atelier-access.log atelier", `access_log ${accessLog} atelier`);
  const cacheDir = path.join(prefix, "cache");
  mkdirSync(cacheDir, { recursive: true });
  chmodSync(cacheDir, 0o777);
  conf = replaceOnce(conf, "proxy_cache_path /var/cache/nginx/atelier ", `proxy_cache_path ${cacheDir} `);
  conf = replaceOnce(conf, "listen 80 default_server;", `listen 127.0.0.1:${layout.port} default_server;`);
  conf = replaceOnce(conf, "server 127.0.0.1:3101 ", `server 127.0.0.1:${layout.serverPorts[0]} `);
  conf = replaceOnce(conf, "server 127.0.0.1:3102 ", `server 127.0.0.1:${layout.serverPorts[1]} `);
  conf = replaceOnce(conf, "server 127.0.0.1:3201 ", `server 127.0.0.1:${layout.sidecarPorts[0]} `);
  conf = replaceOnce(conf, "server 127.0.0.1:3202 ", `server 127.0.0.1:${layout.sidecarPorts[1]} `);
  conf = replaceOnce(conf, "access_log /run/atelier/views.log ", `access_log ${layout.viewLog} `);
  if (layout.realIpFrom) {
    conf = replaceOnce(conf, "server_name _;", `server_name _;\n        set_real_ip_from ${layout.realIpFrom};\n        real_ip_header X-Forwarded-For;`);
  }
  // Debian's nginx keeps its temp files under /var/lib/nginx; these go to the temp folder.
  const temps = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((d) => `    ${d}_temp_path ${path.join(temp, d)};`).join("\n");
  conf = replaceOnce(conf, /^http \{$/m, `http {\n${temps}`);
  const confFile = path.join(prefix, "nginx.conf");
  writeFileSync(confFile, conf);
  return { confFile, accessLog, errorLog };
}
