// `pnpm bench views` (issue 32): what counting views costs the fast read path. GET /a/{slug}
// of a published page through the shipped deploy/nginx.conf (1 worker, the micro-cache on),
// with counting off (the view-log line removed: nginx sends nothing, the server counts nothing)
// and on (as shipped: one line per read appended to the view log in 64 KB buffers, which the
// server reads every second and counts),
// side by side: VIEWS_ROUNDS rounds, each running both in turn (the order alternating), and the
// median of each. The reads look like a person's browser (a browser's user agent,
// `Sec-Fetch-Dest: document`), so each one takes the whole counting path. Afterwards the views
// the server wrote are compared with the reads wrk made with counting on: nothing lost.
import path from "node:path";
import { freePort, REPO_ROOT } from "@atelier/shared/devtools/embedded-db";
import { configFor, ensureServerBuild, serverEnv, startDatabase, startServer } from "./lib/atelier";
import { makeWorkDir, onCleanup } from "./lib/cleanup";
import { fixed, table } from "./lib/format";
import { median } from "./lib/measure";
import { seedPublicPage } from "./lib/mcp";
import { findNginx, startShippedNginx } from "./lib/nginx";
import { runWrk, wrkVersion, type WrkResult } from "./lib/wrk";

export interface ViewsOptions {
  rounds: number;
  seconds: number;
  connections: number;
  log: (line: string) => void;
}

interface Side {
  rps: number[];
  p99Ms: number[];
  nginxCpu: number[];
  serverCpu: number[];
  requests: number;
  errors: number;
}

export interface ViewsResult {
  setup: string;
  off: Side;
  on: Side;
  ratio: number;
  /** Views written by the server against the reads wrk made with counting on. */
  counted: number;
  sent: number;
}

const BROWSER = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
  "sec-fetch-dest": "document",
  accept: "text/html",
};

export async function viewsBench(opts: ViewsOptions): Promise<ViewsResult> {
  const { log } = opts;
  const nginxBin = findNginx();
  if (!nginxBin || !wrkVersion()) throw new Error("pnpm bench views needs nginx and wrk");
  const dir = makeWorkDir(log);
  ensureServerBuild(log, "server");
  const db = await startDatabase(dir, log);
  const [port, offPort, onPort] = [await freePort(), await freePort(), await freePort()];
  const viewLog = path.join(dir, "views.log");
  const env = { ...serverEnv({ db, port, dataDir: path.join(dir, "server-data"), logLevel: "warn" }), ANALYTICS_NGINX_LOG: viewLog };
  const config = configFor(env);
  const body = `# A report\n\n${"Figures that people read, paragraph after paragraph. ".repeat(40)}\n`.repeat(4);
  const { pageId } = await seedPublicPage(db.database, config, { workspace: "views-bench", slug: "read-often", title: "Read often", body_markdown: body });
  const server = await startServer({ env, logFile: path.join(dir, "server.log"), name: "server", build: "dist" });
  onCleanup("server", () => server.stop());
  const sidecarPorts: [number, number] = [await freePort(), await freePort()];
  const start = (name: string, p: number, withLog: boolean) =>
    startShippedNginx({
      bin: nginxBin,
      template: path.join(REPO_ROOT, "deploy/nginx.conf"),
      dir: path.join(dir, name),
      port: p,
      serverPorts: [port, port],
      sidecarPorts,
      workers: 1,
      readyPath: "/a/read-often",
      ...(withLog ? { viewLog } : {}),
    });
  const off = await start("nginx-off", offPort, false);
  onCleanup("nginx (counting off)", () => off.stop());
  const on = await start("nginx-on", onPort, true);
  onCleanup("nginx (counting on)", () => on.stop());

  const viewsStored = async () => (await db.database.c.pageViews.find({ pageId }).toArray()).reduce((n, r) => n + r.views, 0);
  // Let the ready probes' views be written, then count from here.
  await new Promise((r) => setTimeout(r, (config.ANALYTICS_FLUSH_SECONDS + 1) * 1000));
  const before = await viewsStored();

  const sides = {
    off: { rps: [], p99Ms: [], nginxCpu: [], serverCpu: [], requests: 0, errors: 0 } as Side,
    on: { rps: [], p99Ms: [], nginxCpu: [], serverCpu: [], requests: 0, errors: 0 } as Side,
  };
  const run = async (which: "off" | "on"): Promise<WrkResult> => {
    const nginx = which === "on" ? on : off;
    const r = await runWrk({
      url: `http://127.0.0.1:${which === "on" ? onPort : offPort}/a/read-often`,
      request: { method: "GET", headers: BROWSER },
      connections: opts.connections,
      threads: 1,
      durationSeconds: opts.seconds,
      workDir: dir,
      cpuTargets: { nginx: { tree: nginx.pid }, server: { tree: server.pid } },
    });
    const s = sides[which];
    s.rps.push(r.rps);
    s.p99Ms.push(r.p99Ms);
    s.nginxCpu.push(r.cpu?.nginx ?? NaN);
    s.serverCpu.push(r.cpu?.server ?? NaN);
    s.requests += r.requests;
    s.errors += r.socketErrors + r.httpErrors;
    log(
      `counting ${which}: ${Math.round(r.rps)} req/s, p99 ${fixed(r.p99Ms, 2)} ms, nginx ${fixed(r.cpu?.nginx, 0)} %, server ${fixed(r.cpu?.server, 0)} % of a core`,
    );
    return r;
  };
  for (let round = 0; round < opts.rounds; round++) {
    for (const which of round % 2 === 0 ? (["off", "on"] as const) : (["on", "off"] as const)) await run(which);
  }
  // Everything counted is written within one flush interval (and the view log's lines are in).
  await new Promise((r) => setTimeout(r, (config.ANALYTICS_FLUSH_SECONDS + 2) * 1000));
  const counted = (await viewsStored()) - before;
  return {
    setup: `wrk ${opts.connections} connections, 1 thread, ${opts.seconds} s per case, ${opts.rounds} rounds; shipped deploy/nginx.conf with 1 worker in front of one server process; a ${Math.round(body.length / 1024)} KB page`,
    off: sides.off,
    on: sides.on,
    ratio: median(sides.on.rps) / median(sides.off.rps),
    counted,
    sent: sides.on.requests,
  };
}

export function formatViews(r: ViewsResult): string {
  const row = (name: string, s: Side) => [
    name,
    Math.round(median(s.rps)),
    s.rps.map((x) => Math.round(x)).join(" / "),
    fixed(median(s.p99Ms), 2),
    fixed(median(s.nginxCpu), 0),
    fixed(median(s.serverCpu), 0),
    s.errors,
  ];
  return [
    `## Views counted through nginx (issue 32)`,
    "",
    r.setup,
    "",
    table(["counting", "req/s (median)", "each round", "p99 ms", "nginx CPU %", "server CPU %", "errors"], [row("off", r.off), row("on (as shipped)", r.on)]),
    "",
    `on / off: ${(r.ratio * 100).toFixed(1)} % (target ≥ 95 %) ${r.ratio >= 0.95 ? "MET" : "NOT MET"}`,
    `views written: ${r.counted} of ${r.sent} reads made with counting on (${((r.counted / Math.max(1, r.sent)) * 100).toFixed(2)} %; the reads with counting off are not counted at all)`,
  ].join("\n");
}
