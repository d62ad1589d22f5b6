// Issue 4: the artifact read benchmark. One rendered public page is served by the real
// server through GET /a/{slug} and, in the same run, the identical bytes as a static file
// by nginx on loopback; wrk measures both, back to back, at each concurrency.
import { randomUUID } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { REPO_ROOT } from "@atelier/shared/devtools/embedded-db";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ArtifactDoc, Database, PageDoc, UserDoc } from "@atelier/shared/db";
import { NO_CACHE } from "@atelier/shared/domain/cache";
import { createPage } from "@atelier/shared/domain/pages/create-page";
import { createWorkspace } from "@atelier/shared/domain/workspaces";
import { freePort } from "@atelier/shared/devtools/embedded-db";
import { newId } from "@atelier/shared/ids";
import { configFor, ensureServerBuild, serverEnv, startDatabase, startServer, type AtelierDb, type ServerBuild } from "./lib/atelier";
import { makeWorkDir } from "./lib/cleanup";
import { backgroundCpu, waitForQuiet, type CpuTarget } from "./lib/cpu";
import { formatProfileSummary, summarizeProfile, type ProfileSummary } from "./lib/cpuprofile";
import { fixed, table } from "./lib/format";
import { findNginx, nginxVersion, startNginx, startShippedNginx } from "./lib/nginx";
import { startService, waitUntilReady, type Service } from "./lib/service";
import { rssMbOf } from "./lib/measure";
import { runWrk, wrkVersion, type WrkResult } from "./lib/wrk";

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/artifact-page.md");
const NODE_STATIC = path.join(path.dirname(fileURLToPath(import.meta.url)), "servers/node-static.mjs");
export const SLUG = "weekly-status";

/**
 * nginx and plain node:http serve the stored bytes as they are; atelier is GET /a/{slug} on
 * one real server process (`pnpm start`, no proxy); production is the shipped
 * deploy/nginx.conf in front of two server processes; exact-100 and exact-100k are one server
 * process with CACHE_TTL_MS=0 (every read goes to the database) with 100 and with 100,000
 * pages stored (growth).
 */
export type Target =
  | "nginx"
  | "nginx-nolog"
  | "nginx-gzip"
  | "node-http"
  | "atelier"
  | "atelier-before"
  | "production"
  | "production-before"
  | "production-gzip"
  | "cached-100"
  | "cached-100k"
  | "exact-100"
  | "exact-100k";

/** How long each case waits for the machine to quiet down (BENCH_QUIET_WAIT_MS; 0 on a machine that is never quiet). */
const QUIET_WAIT_MS = Number(process.env.BENCH_QUIET_WAIT_MS ?? 15_000);

/** % of one core that other processes may use during a case before it is flagged as noisy. */
const NOISE_THRESHOLD = 25;

/** Issue 4's targets, at 50 connections with the production log level. */
export const TARGETS = { minRatio: 0.25, maxP99Ms: 25, connections: 50 } as const;

/**
 * Issue 30 item 3, at 50 connections: through the shipped nginx.conf ≥ 0.9× nginx serving the
 * file (its access log on, as the shipped configuration logs too) with p99 < 10 ms; one
 * process ≥ 0.6× node:http serving the same bytes from memory.
 */
export const TARGETS_30 = { productionMinRatio: 0.9, productionMaxP99Ms: 10, oneProcessMinRatioOfNode: 0.6, connections: 50 } as const;

export interface ArtifactReadOptions {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number[];
  /** wrk threads (capped at the connection count) */
  threads: number;
  /** The first is the main measurement; later ones measure /a/{slug} again at that level. */
  logLevels: string[];
  /** The production bundle (default) or the sources under tsx. */
  serverBuild: ServerBuild;
  /** Also measure plain node:http serving the same bytes: the ceiling of one Node process. */
  nodeHttp: boolean;
  /** Also run /a/{slug} at the highest concurrency under `node --cpu-prof` and summarise it. */
  profile: boolean;
  /** Also measure reads with 100 and 100,000 pages stored (storing them takes minutes). */
  growth: boolean;
  /** Other nginx.conf files (the same shape as deploy/nginx.conf: an earlier one, variants), each measured beside the shipped one. */
  beforeNginxConfs: string[];
  /** An earlier server bundle (a copy of server/dist/main.js inside server/dist), measured beside the current one. */
  beforeServerBundle: string | null;
  resultsDir: string;
  log: (line: string) => void;
}

export interface CaseResult extends WrkResult {
  target: Target;
  /** The nginx.conf file of a production-before case. */
  variant: string | null;
  logLevel: string | null;
  connections: number;
  /** CPU use of the machine (% of one core) just before the case, with nothing under load */
  idleCpuBefore: number | null;
  /** Other work held more than a quarter of a core during the case: its figures are suspect. */
  noisy: boolean;
  /** The highest resident memory of each Atelier process during the case (MB, sampled every 250 ms). */
  rssMb: Record<string, number>;
}

export interface ArtifactReadResult {
  name: "artifact-read";
  page: { slug: string; markdownBytes: number; htmlBytes: number };
  setup: {
    server: string;
    database: string;
    nginx: string;
    wrk: string;
    threads: number;
    durationSeconds: number;
    warmupSeconds: number;
    /** CPU use of the machine (% of one core) in the 2 s before the run: other work */
    backgroundCpuPercent: number | null;
  };
  cases: CaseResult[];
  /** Every other case against nginx at the same concurrency. */
  ratios: { connections: number; target: Target; logLevel: string | null; variant: string | null; rpsRatio: number; p99Ms: number; nginxP99Ms: number }[];
  targets: { minRatio: number; maxP99Ms: number; connections: number; ratio: number | null; p99Ms: number | null; ratioMet: boolean; p99Met: boolean };
  /** Issue 15's targets, from the same run. */
  wave2: {
    productionRatio: number | null;
    productionP99Ms: number | null;
    oneProcessRatio: number | null;
    /** Every read from the database (CACHE_TTL_MS=0). */
    growthRatio: number | null;
    /** As shipped (the read cache on). */
    growthRatioCached: number | null;
    maxRssMb: number | null;
    filler: { pages: number; seconds: number } | null;
  };
  /** Issue 30 item 3's targets, from the same run. */
  issue30: {
    productionRatio: number | null;
    productionRatioNoLog: number | null;
    productionP99Ms: number | null;
    productionMet: boolean;
    /** A client that takes gzip: through deploy/nginx.conf against nginx serving a precompressed copy. */
    productionGzipRatio: number | null;
    oneProcessRatioOfNode: number | null;
    oneProcessMet: boolean;
  };
  profile: (ProfileSummary & { rps: number; p99Ms: number; savedAs: string }) | null;
}

export async function seedPage(database: Database, env: Record<string, string>, markdown: string): Promise<void> {
  const config = configFor(env);
  const user: UserDoc = { _id: newId("usr"), email: "bench@atelier.localhost", confirmedAt: new Date(), defaultWorkspaceId: null, createdAt: new Date() };
  await database.c.users.insertOne(user);
  const ws = await createWorkspace({ database }, { slug: "bench", name: "Benchmark", ownerId: user._id, visibility: "public" });
  await database.c.users.updateOne({ _id: user._id }, { $set: { defaultWorkspaceId: ws._id } });
  user.defaultWorkspaceId = ws._id;
  await createPage(
    { database, config, cache: NO_CACHE },
    { kind: "user", user },
    {
      slug: SLUG,
      title: "Weekly status: the road to the beta",
      summary: "Where the project stands, what is next, and the numbers we watch.",
      body_markdown: markdown,
    },
  );
}

/**
 * Stores more pages beside the benchmark's, up to `total`: copies of its page and artifact
 * documents under new ids and slugs (with a 2 KB document each, so that 100,000 fit in
 * reasonable space), written straight through the driver in batches.
 */
export async function seedFiller(
  database: Database,
  total: number,
  log: (line: string) => void,
  source?: { page: PageDoc; art: ArtifactDoc },
): Promise<number> {
  const page = source?.page ?? (await database.c.pages.findOne({ slug: SLUG }));
  const art = source?.art ?? (await database.c.artifacts.findOne({ _id: SLUG }));
  if (!page || !art) throw new Error("the benchmark page is missing");
  const have = await database.c.pages.countDocuments({});
  const html = (art.html ?? "").slice(0, 2048);
  const t0 = performance.now();
  for (let n = have; n < total;) {
    const batch = Math.min(1000, total - n);
    const pages = [];
    const arts = [];
    for (let i = 0; i < batch; i++, n++) {
      const slug = `filler-${n}`;
      const id = randomUUID();
      pages.push({ ...page, _id: id, slug, title: `Filler ${n}` });
      arts.push({ ...art, _id: slug, pageId: id, html, bytes: html.length });
    }
    await database.c.pages.insertMany(pages, { ordered: false });
    await database.c.artifacts.insertMany(arts, { ordered: false });
    if (n % 10_000 === 0) log(`stored ${n} pages…`);
  }
  return Math.round((performance.now() - t0) / 100) / 10;
}

function cpuTargets(servers: Record<string, Service | null>, nginx: Service | null, nodeHttp: Service | null, db: AtelierDb): Record<string, CpuTarget> {
  const t: Record<string, CpuTarget> = nginx ? { nginx: { pgrp: nginx.pid } } : {};
  for (const [k, sv] of Object.entries(servers)) if (sv) t[k] = { pgrp: sv.pid };
  if (nodeHttp) t["node-http"] = { pid: nodeHttp.pid };
  if (db.cpu) t.database = db.cpu;
  return t;
}

export async function artifactRead(opts: ArtifactReadOptions): Promise<ArtifactReadResult> {
  const { log } = opts;
  const wrk = wrkVersion();
  if (!wrk) throw new Error("wrk is not installed. On Debian or Ubuntu: apt-get install -y wrk (macOS: brew install wrk).");
  const nginxBin = findNginx();
  if (!nginxBin) throw new Error("nginx is not installed. On Debian or Ubuntu: apt-get install -y nginx-light (or nginx); NGINX_BIN may name the binary.");
  const maxConnections = Math.max(...opts.connections);
  const background = await backgroundCpu();
  if (background !== null && background > 20) {
    log(`warning: the machine is already busy (${Math.round(background)} % of one core before the run); the figures will be low and noisy`);
  }

  const dir = makeWorkDir(log);
  // mkdtemp makes it 0700; nginx's worker (an unprivileged user when started as root) must enter it.
  chmodSync(dir, 0o755);
  log(`work dir ${dir}`);

  if (opts.serverBuild === "dist") ensureServerBuild(log);
  const db = await startDatabase(dir, log);
  const markdown = readFileSync(FIXTURE, "utf8");
  const serverPort = await freePort();
  const mainLevel = opts.logLevels[0] ?? "info";
  const envFor = (logLevel: string) => serverEnv({ db, port: serverPort, dataDir: path.join(dir, "server-data"), logLevel });
  await seedPage(db.database, envFor(mainLevel), markdown);

  let server = await startServer({
    env: envFor(mainLevel),
    logFile: path.join(dir, `server-${mainLevel}.log`),
    name: `server (LOG_LEVEL=${mainLevel})`,
    build: opts.serverBuild,
  });
  const atelierUrl = `http://127.0.0.1:${serverPort}/a/${SLUG}`;
  const first = await fetch(atelierUrl);
  const html = Buffer.from(await first.arrayBuffer());
  if (first.status !== 200 || !first.headers.get("content-type")?.startsWith("text/html")) {
    throw new Error(`GET /a/${SLUG} answered ${first.status} ${first.headers.get("content-type")}, expected 200 text/html`);
  }

  const root = path.join(dir, "www");
  mkdirSync(path.join(root, "a"), { recursive: true });
  writeFileSync(path.join(root, "a", SLUG), html);
  writeFileSync(path.join(root, "a", `${SLUG}.gz`), gzipSync(html, { level: 6 }));
  const nginxPort = await freePort();
  const nginxNoLogPort = await freePort();
  const nginxGzipPort = await freePort();
  const nginx = await startNginx({
    bin: nginxBin,
    dir: path.join(dir, "nginx"),
    root,
    port: nginxPort,
    noLogPort: nginxNoLogPort,
    gzipPort: nginxGzipPort,
    readyPath: `/a/${SLUG}`,
  });
  const nginxGzipUrl = `http://127.0.0.1:${nginxGzipPort}/a/${SLUG}`;
  const nginxUrl = `http://127.0.0.1:${nginxPort}/a/${SLUG}`;
  const nginxNoLogUrl = `http://127.0.0.1:${nginxNoLogPort}/a/${SLUG}`;
  const fromNginx = Buffer.from(await (await fetch(nginxUrl)).arrayBuffer());
  if (!fromNginx.equals(html)) throw new Error("nginx does not serve the same bytes as GET /a/{slug}");
  const nodePort = await freePort();
  const nodeUrl = `http://127.0.0.1:${nodePort}/a/${SLUG}`;
  let nodeHttp: Service | null = null;
  if (opts.nodeHttp) {
    nodeHttp = startService({
      name: "node:http",
      command: process.execPath,
      args: [NODE_STATIC, path.join(root, "a", SLUG), String(nodePort)],
      cwd: dir,
      env: { PATH: process.env.PATH },
      logFile: path.join(dir, "node-http.log"),
    });
    await waitUntilReady(nodeHttp, nodeUrl, 15_000);
  }
  log(`page: ${Buffer.byteLength(markdown)} bytes of Markdown, ${html.length} bytes of HTML; nginx at ${nginxUrl}, server at ${atelierUrl}`);

  // Production: the shipped deploy/nginx.conf in front of two server processes (the first
  // one above, and another), with the micro-cache on.
  const server2Port = await freePort();
  const server2 = await startServer({
    env: serverEnv({ db, port: server2Port, dataDir: path.join(dir, "server2-data"), logLevel: mainLevel }),
    logFile: path.join(dir, "server2.log"),
    name: "server 2",
    build: opts.serverBuild,
  });
  const prodPort = await freePort();
  const nginxProd = await startShippedNginx({
    bin: nginxBin,
    template: path.join(REPO_ROOT, "deploy/nginx.conf"),
    dir: path.join(dir, "nginx-prod"),
    port: prodPort,
    serverPorts: [serverPort, server2Port],
    sidecarPorts: [await freePort(), await freePort()],
    workers: 1,
    readyPath: `/a/${SLUG}`,
  });
  const prodUrl = `http://127.0.0.1:${prodPort}/a/${SLUG}`;
  const fromProd = await fetch(prodUrl);
  if (!Buffer.from(await fromProd.arrayBuffer()).equals(html)) throw new Error("the shipped nginx.conf does not pass the same bytes as GET /a/{slug}");
  log(`production: deploy/nginx.conf at ${prodUrl} in front of :${serverPort} and :${server2Port} (cache: ${fromProd.headers.get("x-cache-status")})`);
  // Before and after side by side: an earlier nginx.conf in front of the same two processes,
  // and an earlier server bundle as a third process.
  const nginxBefore: { conf: string; nginx: Service; url: string }[] = [];
  for (const [i, conf] of opts.beforeNginxConfs.entries()) {
    const port = await freePort();
    const nginx = await startShippedNginx({
      bin: nginxBin,
      template: path.resolve(conf),
      dir: path.join(dir, `nginx-before-${i}`),
      port,
      serverPorts: [serverPort, server2Port],
      sidecarPorts: [await freePort(), await freePort()],
      workers: 1,
      readyPath: `/a/${SLUG}`,
    });
    const url = `http://127.0.0.1:${port}/a/${SLUG}`;
    if (!Buffer.from(await (await fetch(url)).arrayBuffer()).equals(html)) throw new Error(`${conf} does not pass the same bytes as GET /a/{slug}`);
    nginxBefore.push({ conf: path.basename(conf), nginx, url });
  }
  let serverBefore: Service | null = null;
  let serverBeforeUrl = "";
  if (opts.beforeServerBundle) {
    const port = await freePort();
    serverBefore = await startServer({
      env: serverEnv({ db, port, dataDir: path.join(dir, "server-before-data"), logLevel: mainLevel }),
      logFile: path.join(dir, "server-before.log"),
      name: "server (before)",
      build: "dist",
      bundle: path.resolve(opts.beforeServerBundle),
    });
    serverBeforeUrl = `http://127.0.0.1:${port}/a/${SLUG}`;
    await fetch(serverBeforeUrl);
  }
  let exact: Service | null = null;
  const servers = () => ({ server, server2, exact, before: serverBefore });

  const cases: CaseResult[] = [];
  // A browser's request: it takes gzip (wrk sends no Accept-Encoding otherwise).
  const GZIP = { method: "GET", headers: { "Accept-Encoding": "gzip" } };
  for (const [what, url] of [
    ["nginx's precompressed copy", nginxGzipUrl],
    ["the shipped nginx.conf", prodUrl],
  ] as const) {
    const r = await fetch(url, { headers: GZIP.headers, decompress: false } as RequestInit);
    const body = Buffer.from(await r.arrayBuffer());
    // fetch decompresses unless told not to (undici ignores `decompress`): compare what arrives either way.
    const plain = r.headers.get("content-encoding") === "gzip" && body[0] === 0x1f ? gunzipSync(body) : body;
    if (!plain.equals(html)) throw new Error(`${what} does not pass the same bytes as GET /a/{slug} to a client that takes gzip`);
  }
  const measure = async (
    target: Target,
    url: string,
    connections: number,
    logLevel: string | null,
    variant: { conf: string; nginx: Service } | null = null,
    request?: { method: string; headers: Record<string, string> },
  ) => {
    const label = `${labelOf({ target, logLevel: null, variant: variant?.conf ?? null })}${logLevel ? ` (LOG_LEVEL=${logLevel})` : ""}, ${connections} connection${connections === 1 ? "" : "s"}`;
    const common = {
      url,
      request,
      connections,
      threads: opts.threads,
      workDir: dir,
      cpuTargets: cpuTargets(servers(), target === "production" || target === "production-gzip" ? nginxProd : variant ? variant.nginx : nginx, nodeHttp, db),
    };
    const idleCpuBefore = await waitForQuiet({
      threshold: NOISE_THRESHOLD,
      maxWaitMs: QUIET_WAIT_MS,
      onWait: (pct) => log(`waiting up to ${QUIET_WAIT_MS / 1000} s for other work to stop (${Math.round(pct)} % of a core busy)…`),
    });
    if (opts.warmupSeconds > 0) await runWrk({ ...common, durationSeconds: opts.warmupSeconds });
    const rss: Record<string, number> = {};
    const sample = () => {
      for (const [k, sv] of Object.entries(servers())) {
        const mb = sv ? rssMbOf(sv.pid) : null;
        if (mb !== null) rss[k] = Math.max(rss[k] ?? 0, mb);
      }
    };
    sample();
    const sampler = setInterval(sample, 250);
    const r = await runWrk({ ...common, durationSeconds: opts.durationSeconds }).finally(() => clearInterval(sampler));
    sample();
    const noisy = (r.cpu?.other ?? 0) > NOISE_THRESHOLD;
    log(
      `${label}: ${r.rps} req/s, p50 ${fixed(r.p50Ms)} ms, p99 ${fixed(r.p99Ms)} ms, errors ${r.socketErrors + r.httpErrors}` +
        (noisy ? ` (noisy: other work took ${Math.round(r.cpu?.other ?? 0)} % of a core)` : ""),
    );
    cases.push({ target, logLevel, variant: variant?.conf ?? null, connections, idleCpuBefore, noisy, rssMb: rss, ...r });
    return r;
  };

  // Both targets back to back at each concurrency, so both see the same machine state.
  for (const c of opts.connections) {
    await measure("nginx", nginxUrl, c, null);
    await measure("nginx-nolog", nginxNoLogUrl, c, null);
    if (nodeHttp) await measure("node-http", nodeUrl, c, null);
    await measure("atelier", atelierUrl, c, mainLevel);
    if (serverBefore) await measure("atelier-before", serverBeforeUrl, c, mainLevel);
    await measure("production", prodUrl, c, mainLevel);
    // A file whose name says gzip is measured as a browser asks (Accept-Encoding: gzip).
    for (const b of nginxBefore) await measure("production-before", b.url, c, mainLevel, b, b.conf.includes("gzip") ? GZIP : undefined);
    await measure("nginx-gzip", nginxGzipUrl, c, null, null, GZIP);
    await measure("production-gzip", prodUrl, c, mainLevel, null, GZIP);
  }
  for (const b of nginxBefore) await b.nginx.stop();
  await serverBefore?.stop();
  serverBefore = null;

  // Growth: the same read with 100 and with 100,000 pages stored, on a process that reads
  // the database every time (CACHE_TTL_MS=0), so that what grows with the store shows.
  await nginxProd.stop();
  await server2.stop();
  let fillerSeconds = 0;
  if (opts.growth) {
    const exactPort = await freePort();
    exact = await startServer({
      env: { ...serverEnv({ db, port: exactPort, dataDir: path.join(dir, "exact-data"), logLevel: mainLevel }), CACHE_TTL_MS: "0" },
      logFile: path.join(dir, "server-exact.log"),
      name: "server (CACHE_TTL_MS=0)",
      build: opts.serverBuild,
    });
    const exactUrl = `http://127.0.0.1:${exactPort}/a/${SLUG}`;
    await seedFiller(db.database, 100, log);
    await measure("cached-100", atelierUrl, maxConnections, mainLevel);
    await measure("exact-100", exactUrl, maxConnections, mainLevel);
    log("storing 100,000 pages for the growth case…");
    fillerSeconds = await seedFiller(db.database, 100_000, log);
    log(`stored 100,000 pages in ${fillerSeconds} s`);
    await measure("cached-100k", atelierUrl, maxConnections, mainLevel);
    await measure("exact-100k", exactUrl, maxConnections, mainLevel);
    await exact.stop();
    exact = null;
  }

  for (const level of opts.logLevels.slice(1)) {
    await server.stop();
    server = await startServer({
      env: envFor(level),
      logFile: path.join(dir, `server-${level}.log`),
      name: `server (LOG_LEVEL=${level})`,
      build: opts.serverBuild,
    });
    for (const c of opts.connections) await measure("atelier", atelierUrl, c, level);
  }

  let profile: ArtifactReadResult["profile"] = null;
  if (opts.profile) {
    await server.stop();
    const profDir = path.join(dir, "cpu-profiles");
    mkdirSync(profDir, { recursive: true });
    server = await startServer({
      env: envFor(mainLevel),
      logFile: path.join(dir, "server-profiled.log"),
      name: "server (profiled)",
      // From the sources: in the bundle every frame is in dist/main.js and packages cannot be told apart.
      build: "tsx",
      nodeFlags: ["--cpu-prof", `--cpu-prof-dir=${profDir}`],
    });
    const common = { url: atelierUrl, connections: maxConnections, threads: opts.threads, workDir: dir };
    if (opts.warmupSeconds > 0) await runWrk({ ...common, durationSeconds: opts.warmupSeconds });
    const t0 = performance.now();
    const r = await runWrk({ ...common, durationSeconds: opts.durationSeconds });
    const t1 = performance.now();
    // The profile is written when the process exits; SIGTERM makes the server exit cleanly.
    await server.stop();
    const t2 = performance.now();
    const files = readdirSync(profDir)
      .filter((f) => f.endsWith(".cpuprofile"))
      .map((f) => path.join(profDir, f))
      .sort((a, b) => statSync(b).size - statSync(a).size);
    const biggest = files[0];
    if (!biggest) throw new Error(`no .cpuprofile written in ${profDir}:\n${server.logTail()}`);
    mkdirSync(opts.resultsDir, { recursive: true });
    const savedAs = path.join(opts.resultsDir, "artifact-read.cpuprofile");
    copyFileSync(biggest, savedAs);
    // Only the measured run counts: not start-up (module loading), warm-up or shutdown.
    const summary = summarizeProfile(savedAs, 20, { fromEndMs: t2 - t0, toEndMs: t2 - t1 });
    log(`profiled run (${maxConnections} connections, under --cpu-prof): ${r.rps} req/s, p99 ${fixed(r.p99Ms)} ms`);
    profile = { ...summary, rps: r.rps, p99Ms: r.p99Ms, savedAs };
  }

  const ratios: ArtifactReadResult["ratios"] = [];
  for (const x of cases) {
    const n = cases.find((y) => y.target === "nginx" && y.connections === x.connections);
    if (!n || x.target === "nginx") continue;
    ratios.push({
      connections: x.connections,
      target: x.target,
      logLevel: x.logLevel,
      variant: x.variant,
      rpsRatio: Math.round((1000 * x.rps) / n.rps) / 1000,
      p99Ms: x.p99Ms,
      nginxP99Ms: n.p99Ms,
    });
  }
  ratios.sort((a, b) => a.connections - b.connections);
  const main = ratios.find((r) => r.target === "atelier" && r.connections === TARGETS.connections && r.logLevel === mainLevel);
  const prod = ratios.find((r) => r.target === "production" && r.connections === TARGETS.connections);
  const small = cases.find((c) => c.target === "exact-100");
  const large = cases.find((c) => c.target === "exact-100k");
  const smallCached = cases.find((c) => c.target === "cached-100");
  const largeCached = cases.find((c) => c.target === "cached-100k");
  const rssAll = cases.flatMap((c) => Object.values(c.rssMb));
  const at30 = (t: Target) =>
    cases.find((c) => c.target === t && c.connections === TARGETS_30.connections && (c.logLevel === null || c.logLevel === mainLevel));
  const ratioOf = (a: CaseResult | undefined, b: CaseResult | undefined) => (a && b && b.rps > 0 ? Math.round((1000 * a.rps) / b.rps) / 1000 : null);
  const prod30 = at30("production");
  const productionRatio = ratioOf(prod30, at30("nginx"));
  const oneProcessRatioOfNode = ratioOf(at30("atelier"), at30("node-http"));
  return {
    name: "artifact-read",
    page: { slug: SLUG, markdownBytes: Buffer.byteLength(markdown), htmlBytes: html.length },
    setup: {
      server: opts.serverBuild === "dist" ? "node server/dist/main.js" : "tsx server/src/main.ts",
      database: db.kind,
      nginx: nginxVersion(nginxBin),
      wrk,
      threads: opts.threads,
      durationSeconds: opts.durationSeconds,
      warmupSeconds: opts.warmupSeconds,
      backgroundCpuPercent: background,
    },
    cases,
    ratios,
    targets: {
      ...TARGETS,
      ratio: main?.rpsRatio ?? null,
      p99Ms: main?.p99Ms ?? null,
      ratioMet: main !== undefined && main.rpsRatio >= TARGETS.minRatio,
      p99Met: main !== undefined && main.p99Ms < TARGETS.maxP99Ms,
    },
    wave2: {
      productionRatio: prod?.rpsRatio ?? null,
      productionP99Ms: prod?.p99Ms ?? null,
      oneProcessRatio: main?.rpsRatio ?? null,
      growthRatio: small && large && small.rps > 0 ? Math.round((1000 * large.rps) / small.rps) / 1000 : null,
      growthRatioCached: smallCached && largeCached && smallCached.rps > 0 ? Math.round((1000 * largeCached.rps) / smallCached.rps) / 1000 : null,
      maxRssMb: rssAll.length ? Math.max(...rssAll) : null,
      filler: large ? { pages: 100_000, seconds: fillerSeconds } : null,
    },
    issue30: {
      productionRatio,
      productionRatioNoLog: ratioOf(prod30, at30("nginx-nolog")),
      productionP99Ms: prod30?.p99Ms ?? null,
      productionGzipRatio: ratioOf(at30("production-gzip"), at30("nginx-gzip")),
      productionMet:
        productionRatio !== null && productionRatio >= TARGETS_30.productionMinRatio && (prod30?.p99Ms ?? Infinity) < TARGETS_30.productionMaxP99Ms,
      oneProcessRatioOfNode,
      oneProcessMet: oneProcessRatioOfNode !== null && oneProcessRatioOfNode >= TARGETS_30.oneProcessMinRatioOfNode,
    },
    profile,
  };
}

const LABELS: Record<Target, string> = {
  nginx: "nginx static file",
  "nginx-nolog": "nginx static file, access log off",
  "nginx-gzip": "nginx static file, gzip (precompressed .gz)",
  "production-gzip": "GET /a/{slug}, deploy/nginx.conf, gzip",
  "node-http": "node:http, bytes in memory",
  atelier: "GET /a/{slug}, one process",
  "atelier-before": "GET /a/{slug}, one process, earlier bundle",
  production: "GET /a/{slug}, deploy/nginx.conf + 2 processes",
  "production-before": "GET /a/{slug}, other nginx.conf + 2 processes:",
  "cached-100": "GET /a/{slug}, one process, 100 pages stored",
  "cached-100k": "GET /a/{slug}, one process, 100,000 pages stored",
  "exact-100": "GET /a/{slug}, CACHE_TTL_MS=0, 100 pages stored",
  "exact-100k": "GET /a/{slug}, CACHE_TTL_MS=0, 100,000 pages stored",
};
const labelOf = (x: { target: Target; logLevel: string | null; variant?: string | null }) =>
  `${LABELS[x.target]}${x.variant ? ` ${x.variant}` : ""}${x.logLevel ? ` (${x.logLevel})` : ""}`;
const SERVER_CPU: Record<Target, string> = {
  nginx: "nginx",
  "nginx-nolog": "nginx",
  "nginx-gzip": "nginx",
  "production-gzip": "nginx",
  "node-http": "node-http",
  atelier: "server",
  "atelier-before": "before",
  production: "nginx",
  "production-before": "nginx",
  "cached-100": "server",
  "cached-100k": "server",
  "exact-100": "exact",
  "exact-100k": "exact",
};

/** CPU time a process spent per request served, in µs. */
function perRequest(c: CaseResult, k: string): string {
  const pct = c.cpu?.[k];
  return pct === undefined || c.rps === 0 ? "-" : String(Math.round((pct / 100 / c.rps) * 1e6));
}

const isBaseline = (t: Target) => t === "nginx" || t === "nginx-nolog" || t === "nginx-gzip" || t === "node-http";
const pct = (x: number | null) => (x === null ? "not measured" : `${fixed(x * 100, 1)} %`);

export function formatArtifactRead(r: ArtifactReadResult): string {
  const cpu = (c: CaseResult, k: string) => (c.cpu?.[k] === undefined ? "-" : `${Math.round(c.cpu[k] ?? 0)}`);
  const rows = r.cases.map((c) => [
    labelOf(c) + (c.noisy ? " *" : ""),
    c.connections,
    c.rps,
    fixed(c.p50Ms),
    fixed(c.p99Ms),
    c.socketErrors + c.httpErrors,
    c.bytesPerResponse,
    cpu(c, SERVER_CPU[c.target]),
    isBaseline(c.target) ? "-" : cpu(c, "database"),
    cpu(c, "wrk"),
    cpu(c, "other"),
    perRequest(c, SERVER_CPU[c.target]),
    isBaseline(c.target) ? "-" : perRequest(c, "database"),
    Object.entries(c.rssMb)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ") || "-",
  ]);
  const out = [
    `artifact read: ${r.page.htmlBytes} bytes of HTML (from ${r.page.markdownBytes} bytes of Markdown); ` +
      `wrk -t${r.setup.threads}, ${r.setup.durationSeconds} s per case after ${r.setup.warmupSeconds} s warm-up; server: ${r.setup.server}; database: ${r.setup.database}`,
    table(
      [
        "target",
        "conns",
        "req/s",
        "p50 ms",
        "p99 ms",
        "errors",
        "bytes/resp",
        "CPU% server",
        "CPU% db",
        "CPU% wrk",
        "CPU% other",
        "µs/req server",
        "µs/req db",
        "max RSS MB",
      ],
      rows,
    ),
    "",
    table(
      ["compared with nginx", "conns", "req/s ratio", "p99 ms", "nginx p99 ms"],
      r.ratios.map((x) => [labelOf(x), x.connections, fixed(x.rpsRatio, 3), fixed(x.p99Ms), fixed(x.nginxP99Ms)]),
    ),
    "",
    `targets at ${r.targets.connections} connections: req/s ≥ ${r.targets.minRatio * 100} % of nginx: ` +
      `${r.targets.ratio === null ? "not measured" : `${fixed(r.targets.ratio * 100, 1)} % → ${r.targets.ratioMet ? "met" : "MISSED"}`}; ` +
      `p99 < ${r.targets.maxP99Ms} ms: ${r.targets.p99Ms === null ? "not measured" : `${fixed(r.targets.p99Ms)} ms → ${r.targets.p99Met ? "met" : "MISSED"}`}`,
    `issue 15 at ${r.targets.connections} connections: through deploy/nginx.conf ${pct(r.wave2.productionRatio)} of nginx static (≥ 50 %), p99 ${r.wave2.productionP99Ms ?? "-"} ms (< 25); ` +
      `one process ${pct(r.wave2.oneProcessRatio)} (≥ 25 %); growth 100,000 / 100 pages ${pct(r.wave2.growthRatioCached)} as shipped, ${pct(r.wave2.growthRatio)} with every read from the database (≥ 80 %); max RSS ${r.wave2.maxRssMb ?? "-"} MB (< 200)`,
    `issue 30 at ${TARGETS_30.connections} connections: through deploy/nginx.conf ${pct(r.issue30.productionRatio)} of nginx static with its access log ` +
      `(${pct(r.issue30.productionRatioNoLog)} of nginx with the log off; target ≥ ${TARGETS_30.productionMinRatio * 100} %), p99 ${r.issue30.productionP99Ms ?? "-"} ms ` +
      `(< ${TARGETS_30.productionMaxP99Ms}) → ${r.issue30.productionMet ? "met" : "MISSED"}; a client taking gzip: ${pct(r.issue30.productionGzipRatio)} of nginx's precompressed copy; one process ${pct(r.issue30.oneProcessRatioOfNode)} of node:http ` +
      `(≥ ${TARGETS_30.oneProcessMinRatioOfNode * 100} %) → ${r.issue30.oneProcessMet ? "met" : "MISSED"}`,
    `CPU% is of one core (the machine has ${availableParallelism()}); µs/req = CPU time per request served. server = the process (group) answering, db = the embedded database, ` +
      `other = the rest of the machine (this runner, the kernel, other work; ${r.setup.backgroundCpuPercent === null ? "?" : Math.round(r.setup.backgroundCpuPercent)} % before the run).` +
      (r.cases.some((c) => c.noisy)
        ? `\n* noisy: other work used more than ${NOISE_THRESHOLD} % of a core during the case; run again on a quiet machine.`
        : ""),
  ];
  if (r.profile) {
    out.push(
      "",
      `profiled run (the same server from its sources under tsx, so that packages can be told apart): ${r.profile.rps} req/s, ` +
        `p99 ${fixed(r.profile.p99Ms)} ms (the profiler costs CPU too); saved as ${r.profile.savedAs}`,
    );
    out.push(formatProfileSummary(r.profile));
  }
  return out.join("\n");
}
