// What the runner (src/run.ts) tells the tests about the stack, and the client of its control
// API for fault injection.
function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the e2e suite with \`pnpm test:e2e\``);
  return v;
}

export const stack = {
  baseUrl: need("E2E_BASE_URL"),
  controlUrl: need("E2E_CONTROL_URL"),
  mailDir: need("E2E_MAIL_DIR"),
  mongodbUri: need("E2E_MONGODB_URI"),
  mongodbDb: need("E2E_MONGODB_DB"),
  serverUrls: need("E2E_SERVER_URLS").split(","),
  sidecarUrls: need("E2E_SIDECAR_URLS").split(","),
  anonRegPerIpPerDay: Number(need("E2E_ANON_REG_PER_IP_PER_DAY")),
  /** The servers' SWEEP_INTERVAL_SECONDS and SWEEP_GRACE_SECONDS, shortened for the run. */
  sweepIntervalSeconds: Number(need("E2E_SWEEP_INTERVAL_SECONDS")),
  sweepGraceSeconds: Number(need("E2E_SWEEP_GRACE_SECONDS")),
  /** The processes' CACHE_TTL_MS: a change made through one is seen by the others within it. */
  cacheTtlMs: Number(need("E2E_CACHE_TTL_MS")),
  artifactsDir: need("E2E_ARTIFACTS_DIR"),
  nginxAccessLog: need("E2E_NGINX_ACCESS_LOG"),
  /** deploy/nginx.conf, nginx itself, and the view log the servers read (reading figures). */
  nginxTemplate: need("E2E_NGINX_TEMPLATE"),
  nginxPath: need("E2E_NGINX_PATH"),
  viewLog: need("E2E_VIEW_LOG"),
  /** A certificate for https://localhost that the server processes trust (OAuth client documents). */
  tlsCert: need("E2E_TLS_CERT"),
  tlsKey: need("E2E_TLS_KEY"),
};

async function control(pathname: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${stack.controlUrl}${pathname}`, {
    method: body === undefined && pathname === "/processes" ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(90_000),
  });
  const json: unknown = await res.json();
  if (!res.ok) throw new Error(`control ${pathname}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export type ProcessName = "server-1" | "server-2" | "sidecar-1" | "sidecar-2" | "nginx";

export const faults = {
  /** Kills the process (default SIGKILL) and waits until it is gone. */
  kill: (name: ProcessName, signal: "SIGKILL" | "SIGTERM" = "SIGKILL") => control(`/processes/${name}/kill`, { signal }),
  /** Starts it again and waits until its /healthz answers 200. */
  start: (name: ProcessName) => control(`/processes/${name}/start`, {}),
  stopDb: () => control("/db/stop", {}),
  startDb: () => control("/db/start", {}),
  list: () => control("/processes") as Promise<{ name: string; running: boolean; starts: number }[]>,
};

/**
 * What the shipped nginx.conf's micro-cache adds to the bound for signed-out reads of
 * published pages: s-maxage=1 plus stale-while-revalidate=1 (docs/decisions.md, issue 15).
 */
export const EDGE_CACHE_MS = 2000;

/**
 * Polls `probe` until it returns true, for at most the cache bound plus `slackMs`; returns
 * how long that took (ms), or throws when the bound passed without it.
 */
export async function withinCacheBound(what: string, probe: () => Promise<boolean>, slackMs = 500): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (await probe()) return Date.now() - t0;
    if (Date.now() - t0 > stack.cacheTtlMs + slackMs) throw new Error(`${what}: not seen within the cache bound of ${stack.cacheTtlMs} ms (+${slackMs} ms)`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
