// Issue 5: the MCP benchmark. In one run, side by side: `tools/call get_page` and
// `tools/list` through the real sidecar (the production bundle, with a bearer token and the
// embedded database), and the floor the MCP SDK itself sets: the same SDK v2 packages in
// their default configuration (createMcpHandler + the node adapter) serving one no-op tool
// (servers/mcp-noop.mjs). Both protocol generations: 2025-era requests (no initialize, as
// stateless clients send them) and 2026-07-28 requests (`_meta` and the standard headers),
// each compared with the floor on the same generation. A second reference floor answers
// get_page's own result (the same SDK, the same bytes): get_page against it is what the
// sidecar costs beyond the SDK's cost of an answer that size.
import { readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "@atelier/shared/db";
import { NO_CACHE } from "@atelier/shared/domain/cache";
import { createPage } from "@atelier/shared/domain/pages/create-page";
import { sha256 } from "@atelier/shared/ids";
import { freePort } from "@atelier/shared/devtools/embedded-db";
import { configFor, ensureServerBuild, serverEnv, startDatabase, startServer, type ServerBuild } from "./lib/atelier";
import { makeWorkDir } from "./lib/cleanup";
import { backgroundCpu, type CpuTarget } from "./lib/cpu";
import { formatProfileSummary } from "./lib/cpuprofile";
import { summarizeExplain, timeQuery, type ExplainSummary } from "./lib/explain";
import { fixed, table } from "./lib/format";
import { MCP_ERROR_MARKERS, MCP_HEADERS, jsonRpc, mcpRequest, modernRequest, postMcp, seedAgent, sidecarSdk, toolCall, toolResult } from "./lib/mcp";
import { cpuPercentOf, cpuPerRequest, measureCase, median, NOISE_THRESHOLD, type MeasuredCase } from "./lib/measure";
import { profileUnderLoad, type ProfiledRun } from "./lib/profile";
import { startService, waitUntilReady, type Service } from "./lib/service";
import { wrkVersion, type WrkRequest } from "./lib/wrk";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE = path.join(HERE, "../fixtures/artifact-page.md");
const NOOP_SERVER = path.join(HERE, "servers/mcp-noop.mjs");
const SLUG = "weekly-status";

export type McpTarget =
  | "noop"
  | "noop-shared"
  | "noop-answer"
  | "get_page"
  | "get_page-before"
  | "tools/list"
  | "noop-2026"
  | "noop-answer-2026"
  | "get_page-2026"
  | "get_page-2026-before";
const TARGET_ORDER: McpTarget[] = [
  "noop",
  "get_page",
  "get_page-before",
  "tools/list",
  "noop-shared",
  "noop-answer",
  "noop-2026",
  "get_page-2026",
  "get_page-2026-before",
  "noop-answer-2026",
];
/** The floor each target is compared with: the no-op on the same protocol generation. */
const FLOOR_OF: Partial<Record<McpTarget, McpTarget>> = {
  get_page: "noop",
  "get_page-before": "noop",
  "tools/list": "noop",
  "noop-shared": "noop",
  "noop-answer": "noop",
  "get_page-2026": "noop-2026",
  "noop-answer-2026": "noop-2026",
  "get_page-2026-before": "noop-2026",
};

/** Issue 5's target: get_page through the sidecar at no less than 60 % of the no-op floor's req/s. */
export const MCP_TARGET = { minRatio: 0.6, connections: 50 } as const;
/** Issue 30: get_page at no less than the floor's req/s (1.0×), on both protocol generations. */
export const MCP_TARGET_30 = { minRatio: 1.0, connections: 50 } as const;

export interface McpOptions {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number[];
  threads: number;
  /** Each round measures every target at every concurrency back to back; ratios are per round. */
  rounds: number;
  logLevel: string;
  serverBuild: ServerBuild;
  /** An earlier sidecar bundle (a copy of mcp-sidecar/dist/main.js inside mcp-sidecar/dist): get_page through it too, side by side. */
  beforeSidecarBundle: string | null;
  /** Also profile the sidecar (get_page on both generations, tools/list) and the no-op floor under load. */
  profile: boolean;
  resultsDir: string;
  log: (line: string) => void;
}

export interface McpCase extends MeasuredCase {
  target: McpTarget;
  connections: number;
  round: number;
}

export interface McpCheck {
  what: string;
  status: number;
  contentType: string | null;
  note: string;
}

/** One of the database lookups a get_page call makes, timed through the driver and explained. */
export interface Lookup {
  label: string;
  ms: { p50: number; p90: number; min: number };
  runs: number;
  explain: ExplainSummary;
}

export interface McpResult {
  name: "mcp";
  /** The lookups behind one get_page with a cold read cache, in order: token key, token, artifact key, page, workspace. */
  lookups: Lookup[];
  page: { slug: string; markdownBytes: number };
  responses: Record<McpTarget, { bytes: number; ms: number }>;
  toolsListed: number;
  checks: McpCheck[];
  setup: {
    sidecar: string;
    floor: string;
    sdk: string;
    database: string;
    wrk: string;
    threads: number;
    durationSeconds: number;
    warmupSeconds: number;
    rounds: number;
    logLevel: string;
    backgroundCpuPercent: number | null;
  };
  cases: McpCase[];
  /** get_page and tools/list against the no-op floor, same round and concurrency. */
  ratios: { connections: number; round: number; target: McpTarget; rpsRatio: number }[];
  medianRatios: { connections: number; target: McpTarget; rpsRatio: number }[];
  target: { minRatio: number; connections: number; ratio: number | null; met: boolean };
  /** Issue 30's target: get_page ≥ 1.0× its floor on each generation. */
  target30: { minRatio: number; connections: number; ratio: number | null; ratio2026: number | null; met: boolean };
  profiles: { getPage: ProfiledRun | null; getPage2026: ProfiledRun | null; toolsList: ProfiledRun | null; floor: ProfiledRun | null };
}

const LABELS: Record<McpTarget, string> = {
  noop: "no-op tool, SDK floor",
  "noop-shared": "no-op, one shared validator (reference)",
  "noop-answer": "no-op answering get_page's answer (reference)",
  "noop-answer-2026": "no-op answering get_page's answer, 2026-07-28 (reference)",
  get_page: "tools/call get_page",
  "tools/list": "tools/list",
  "noop-2026": "no-op tool, SDK floor, 2026-07-28",
  "get_page-2026": "tools/call get_page, 2026-07-28",
  "get_page-before": "tools/call get_page, earlier sidecar",
  "get_page-2026-before": "tools/call get_page, 2026-07-28, earlier sidecar",
};

export async function mcpBench(opts: McpOptions): Promise<McpResult> {
  const { log } = opts;
  const wrk = wrkVersion();
  if (!wrk) throw new Error("wrk is not installed. On Debian or Ubuntu: apt-get install -y wrk (macOS: brew install wrk).");
  const background = await backgroundCpu();
  if (background !== null && background > 20) {
    log(`warning: the machine is already busy (${Math.round(background)} % of one core before the run); the figures will be low and noisy`);
  }
  const dir = makeWorkDir(log);
  log(`work dir ${dir}`);

  if (opts.serverBuild === "dist") ensureServerBuild(log, "mcp-sidecar");
  const db = await startDatabase(dir, log);
  const port = await freePort();
  const env = serverEnv({ db, port, dataDir: path.join(dir, "sidecar-data"), logLevel: opts.logLevel });
  const config = configFor(env);

  // A person, their token and a realistic page in their (private) default workspace.
  const markdown = readFileSync(FIXTURE, "utf8");
  const agent = await seedAgent(db.database, config);
  await createPage(
    { database: db.database, config, cache: NO_CACHE },
    { kind: "user", user: agent.user },
    {
      slug: SLUG,
      title: "Weekly status: the road to the beta",
      summary: "Where the project stands, what is next, and the numbers we watch.",
      body_markdown: markdown,
    },
  );

  const startSidecar = (name: string, build: ServerBuild, nodeFlags: string[] = []) =>
    startServer({ env, logFile: path.join(dir, `${name.replace(/\W+/g, "-")}.log`), name, build, nodeFlags, pkg: "mcp-sidecar" });
  let sidecar = await startSidecar("sidecar", opts.serverBuild);
  const sidecarUrl = `http://127.0.0.1:${port}/mcp`;
  // An earlier bundle beside it, on the same database: before and after in one run.
  const beforePort = await freePort();
  const beforeUrl = `http://127.0.0.1:${beforePort}/mcp`;
  const before = opts.beforeSidecarBundle
    ? await startServer({
        env: { ...env, SIDECAR_PORT: String(beforePort), BASE_URL: `http://127.0.0.1:${beforePort}`, DATA_DIR: path.join(dir, "before-data") },
        logFile: path.join(dir, "sidecar-before.log"),
        name: "sidecar (before)",
        build: "dist",
        pkg: "mcp-sidecar",
        bundle: path.resolve(opts.beforeSidecarBundle),
      })
    : null;

  const sdk = sidecarSdk();
  const startFloor = async (name: string, port: number, nodeFlags: string[] = [], variant: string[] = []): Promise<Service> => {
    const s = startService({
      name,
      command: process.execPath,
      args: [...nodeFlags, NOOP_SERVER, sdk.serverDir, sdk.nodeDir, String(port), ...variant],
      cwd: dir,
      env: { PATH: process.env.PATH, NODE_ENV: "production" },
      logFile: path.join(dir, `${name.replace(/\W+/g, "-")}.log`),
    });
    await waitUntilReady(s, `http://127.0.0.1:${port}/healthz`, 15_000);
    return s;
  };
  const noopPort = await freePort();
  const noopUrl = `http://127.0.0.1:${noopPort}/mcp`;
  let floor = await startFloor("mcp no-op floor", noopPort);
  // The same floor with one JSON Schema validator for every Server: what the SDK's per-Server Ajv costs.
  const sharedPort = await freePort();
  const sharedUrl = `http://127.0.0.1:${sharedPort}/mcp`;
  const floorShared = await startFloor("mcp no-op floor (shared validator)", sharedPort, [], ["shared-validator"]);
  // The same floor answering get_page's own result (started below, once that is known): what the answer's size costs the SDK.
  const answerPort = await freePort();
  const answerUrl = `http://127.0.0.1:${answerPort}/mcp`;

  const requests: Record<McpTarget, { url: string; req: WrkRequest }> = {
    noop: { url: noopUrl, req: mcpRequest(toolCall("noop", {}), null) },
    "noop-shared": { url: sharedUrl, req: mcpRequest(toolCall("noop", {}), null) },
    "noop-answer": { url: answerUrl, req: mcpRequest(toolCall("noop", {}), null) },
    "noop-answer-2026": { url: answerUrl, req: modernRequest("tools/call", { name: "noop", arguments: {} }, null) },
    get_page: { url: sidecarUrl, req: mcpRequest(toolCall("get_page", { slug: SLUG }), agent.token) },
    "tools/list": { url: sidecarUrl, req: mcpRequest(jsonRpc("tools/list"), agent.token) },
    "noop-2026": { url: noopUrl, req: modernRequest("tools/call", { name: "noop", arguments: {} }, null) },
    "get_page-2026": { url: sidecarUrl, req: modernRequest("tools/call", { name: "get_page", arguments: { slug: SLUG } }, agent.token) },
    "get_page-before": { url: beforeUrl, req: mcpRequest(toolCall("get_page", { slug: SLUG }), agent.token) },
    "get_page-2026-before": { url: beforeUrl, req: modernRequest("tools/call", { name: "get_page", arguments: { slug: SLUG } }, agent.token) },
  };

  // Each request once by hand: the answer must be a success, and its size is what wrk should see.
  const responses = {} as McpResult["responses"];
  const noopAnswer = await postMcp(noopUrl, requests.noop.req);
  const noopText = (noopAnswer.json as { result?: { content?: { text?: string }[] } } | null)?.result?.content?.[0]?.text;
  if (noopAnswer.status !== 200 || noopText !== "ok") throw new Error(`the no-op floor answered ${noopAnswer.status}: ${JSON.stringify(noopAnswer.json)}`);
  responses.noop = { bytes: noopAnswer.bytes, ms: round2(noopAnswer.ms) };
  const sharedAnswer = await postMcp(sharedUrl, requests["noop-shared"].req);
  if (sharedAnswer.status !== 200 || sharedAnswer.bytes !== noopAnswer.bytes)
    throw new Error(`the shared-validator floor answered ${sharedAnswer.status}: ${JSON.stringify(sharedAnswer.json)}`);
  responses["noop-shared"] = { bytes: sharedAnswer.bytes, ms: round2(sharedAnswer.ms) };
  const pageAnswer = await postMcp(sidecarUrl, requests.get_page.req);
  const page = toolResult<{ page: { slug: string } }>(pageAnswer, "get_page");
  if (page.page.slug !== SLUG) throw new Error(`get_page returned ${page.page.slug}`);
  responses.get_page = { bytes: pageAnswer.bytes, ms: round2(pageAnswer.ms) };
  const answerFile = path.join(dir, "get_page-result.json");
  writeFileSync(answerFile, JSON.stringify((pageAnswer.json as { result: unknown }).result));
  const floorAnswer = await startFloor("mcp no-op floor (get_page's answer)", answerPort, [], [`answer=${answerFile}`]);
  for (const t of ["noop-answer", "noop-answer-2026"] as const) {
    const a = await postMcp(answerUrl, requests[t].req);
    if (toolResult<{ page: { slug: string } }>(a, t).page.slug !== SLUG) throw new Error(`${t} answered another result`);
    responses[t] = { bytes: a.bytes, ms: round2(a.ms) };
  }
  const listAnswer = await postMcp(sidecarUrl, requests["tools/list"].req);
  const tools = (listAnswer.json as { result?: { tools?: unknown[] } } | null)?.result?.tools;
  if (listAnswer.status !== 200 || !Array.isArray(tools))
    throw new Error(`tools/list answered ${listAnswer.status}: ${JSON.stringify(listAnswer.json).slice(0, 300)}`);
  responses["tools/list"] = { bytes: listAnswer.bytes, ms: round2(listAnswer.ms) };
  const noopModern = await postMcp(noopUrl, requests["noop-2026"].req);
  const noopModernText = (noopModern.json as { result?: { content?: { text?: string }[] } } | null)?.result?.content?.[0]?.text;
  if (noopModern.status !== 200 || noopModernText !== "ok")
    throw new Error(`the no-op floor (2026-07-28) answered ${noopModern.status}: ${JSON.stringify(noopModern.json)}`);
  responses["noop-2026"] = { bytes: noopModern.bytes, ms: round2(noopModern.ms) };
  const pageModern = await postMcp(sidecarUrl, requests["get_page-2026"].req);
  if (toolResult<{ page: { slug: string } }>(pageModern, "get_page (2026-07-28)").page.slug !== SLUG)
    throw new Error("get_page (2026-07-28) returned another page");
  responses["get_page-2026"] = { bytes: pageModern.bytes, ms: round2(pageModern.ms) };

  if (before) {
    // The earlier sidecar must give the same answer, or the comparison means nothing.
    for (const t of ["get_page-before", "get_page-2026-before"] as const) {
      const a = await postMcp(requests[t].url, requests[t].req);
      if (toolResult<{ page: { slug: string } }>(a, t).page.slug !== SLUG) throw new Error(`${t} returned another page`);
      responses[t] = { bytes: a.bytes, ms: round2(a.ms) };
    }
  }
  log(
    `get_page answers ${pageAnswer.bytes} bytes of JSON (page of ${Buffer.byteLength(markdown)} bytes of Markdown); tools/list ${listAnswer.bytes} bytes (${tools.length} tools); the no-op ${noopAnswer.bytes} bytes`,
  );
  const checks = await transportChecks(sidecarUrl, agent.token);
  const lookups = await getPageLookups(db.database, agent.token);

  const cpuTargets = (): Record<string, CpuTarget> => {
    const t: Record<string, CpuTarget> = {
      sidecar: { pgrp: sidecar.pid },
      floor: { pgrp: floor.pid },
      "floor-shared": { pgrp: floorShared.pid },
      "floor-answer": { pgrp: floorAnswer.pid },
    };
    if (before) t.before = { pgrp: before.pid };
    if (db.cpu) t.database = db.cpu;
    return t;
  };
  const cases: McpCase[] = [];
  for (let round = 1; round <= opts.rounds; round++) {
    for (const c of opts.connections) {
      // The three side by side at each concurrency, so they see the same machine state.
      for (const target of TARGET_ORDER) {
        if (!before && target.endsWith("-before")) continue;
        const { url, req } = requests[target];
        const label = `${opts.rounds > 1 ? `round ${round}: ` : ""}${LABELS[target]}, ${c} connection${c === 1 ? "" : "s"}`;
        const r = await measureCase({
          label,
          wrk: { url, request: req, errorMarkers: MCP_ERROR_MARKERS, connections: c, threads: opts.threads, workDir: dir, cpuTargets: cpuTargets() },
          durationSeconds: opts.durationSeconds,
          warmupSeconds: opts.warmupSeconds,
          log,
        });
        cases.push({ target, connections: c, round, ...r });
      }
    }
  }

  const profiles: McpResult["profiles"] = { getPage: null, getPage2026: null, toolsList: null, floor: null };
  if (opts.profile) {
    const maxConnections = Math.max(...opts.connections);
    for (const target of ["get_page", "get_page-2026", "tools/list"] as const) {
      await sidecar.stop();
      const p = await profileUnderLoad({
        // From the sources: in the bundle every frame is in dist/main.js and packages cannot be told apart.
        start: async (flags) => (sidecar = await startSidecar(`sidecar (profiled, ${target})`, "tsx", flags)),
        profDir: path.join(dir, `profiles-${target.replace("/", "-")}`),
        wrk: { url: sidecarUrl, request: requests[target].req, connections: maxConnections, threads: opts.threads, workDir: dir },
        durationSeconds: opts.durationSeconds,
        warmupSeconds: opts.warmupSeconds,
        saveAs: path.join(opts.resultsDir, `mcp-${target.replace("/", "-")}.cpuprofile`),
      });
      log(`profiled sidecar (${target}, ${maxConnections} connections, tsx + --cpu-prof): ${p.rps} req/s, p99 ${fixed(p.p99Ms)} ms`);
      if (target === "get_page") profiles.getPage = p;
      else if (target === "get_page-2026") profiles.getPage2026 = p;
      else profiles.toolsList = p;
    }
    await floor.stop();
    profiles.floor = await profileUnderLoad({
      start: async (flags) => (floor = await startFloor("mcp no-op floor (profiled)", noopPort, flags)),
      profDir: path.join(dir, "profiles-floor"),
      wrk: { url: noopUrl, request: requests.noop.req, connections: maxConnections, threads: opts.threads, workDir: dir },
      durationSeconds: opts.durationSeconds,
      warmupSeconds: opts.warmupSeconds,
      saveAs: path.join(opts.resultsDir, "mcp-noop.cpuprofile"),
    });
    log(`profiled no-op floor (${maxConnections} connections, --cpu-prof): ${profiles.floor.rps} req/s, p99 ${fixed(profiles.floor.p99Ms)} ms`);
  }

  const ratios: McpResult["ratios"] = [];
  for (const x of cases) {
    const floorTarget = FLOOR_OF[x.target];
    if (!floorTarget) continue;
    // "noop-shared" against "noop" is the share of the floor that the per-Server validator costs.
    const floorCase = cases.find((y) => y.target === floorTarget && y.connections === x.connections && y.round === x.round);
    if (!floorCase || floorCase.rps === 0) continue;
    ratios.push({ connections: x.connections, round: x.round, target: x.target, rpsRatio: round3(x.rps / floorCase.rps) });
  }
  const medianRatios: McpResult["medianRatios"] = [];
  for (const c of opts.connections) {
    for (const target of [
      "get_page",
      "get_page-before",
      "tools/list",
      "noop-shared",
      "noop-answer",
      "get_page-2026",
      "get_page-2026-before",
      "noop-answer-2026",
    ] as const) {
      const xs = ratios.filter((r) => r.connections === c && r.target === target).map((r) => r.rpsRatio);
      if (xs.length > 0) medianRatios.push({ connections: c, target, rpsRatio: round3(median(xs)) });
    }
  }
  const main = medianRatios.find((r) => r.target === "get_page" && r.connections === MCP_TARGET.connections);
  const modern = medianRatios.find((r) => r.target === "get_page-2026" && r.connections === MCP_TARGET_30.connections);
  await before?.stop();
  return {
    name: "mcp",
    lookups,
    page: { slug: SLUG, markdownBytes: Buffer.byteLength(markdown) },
    responses,
    toolsListed: tools.length,
    checks,
    setup: {
      sidecar: opts.serverBuild === "dist" ? "node mcp-sidecar/dist/main.js" : "tsx mcp-sidecar/src/main.ts",
      floor: "node bench/src/servers/mcp-noop.mjs (node:http + the same SDK v2 in its default configuration, no Express, auth, database or logs)",
      sdk: `@modelcontextprotocol/server ${sdk.version}`,
      database: db.kind,
      wrk,
      threads: opts.threads,
      durationSeconds: opts.durationSeconds,
      warmupSeconds: opts.warmupSeconds,
      rounds: opts.rounds,
      logLevel: opts.logLevel,
      backgroundCpuPercent: background,
    },
    cases,
    ratios,
    medianRatios,
    target: { ...MCP_TARGET, ratio: main?.rpsRatio ?? null, met: main !== undefined && main.rpsRatio >= MCP_TARGET.minRatio },
    target30: {
      ...MCP_TARGET_30,
      ratio: main?.rpsRatio ?? null,
      ratio2026: modern?.rpsRatio ?? null,
      met: main !== undefined && modern !== undefined && main.rpsRatio >= MCP_TARGET_30.minRatio && modern.rpsRatio >= MCP_TARGET_30.minRatio,
    },
    profiles,
  };
}

/**
 * The lookups one get_page makes when nothing is in the read cache (authenticateBearer:
 * token key, token; findPageBySlug: the artifact key, the page; the workspace), straight
 * through the driver: how long each takes alone and how the database runs it. A warm call
 * makes none of them (the read cache holds each for CACHE_TTL_MS).
 */
async function getPageLookups(database: Database, token: string): Promise<Lookup[]> {
  const key = await database.c.tokenKeys.findOne({ _id: sha256(token) });
  const artifact = await database.c.artifacts.findOne({ _id: SLUG });
  const page = artifact ? await database.c.pages.findOne({ _id: artifact.pageId }) : null;
  if (!key || !page) throw new Error("the seeded token or page is missing");
  const specs: { label: string; coll: "tokenKeys" | "tokens" | "artifacts" | "pages" | "workspaces"; filter: Record<string, unknown> }[] = [
    { label: "tokenKeys by _id (the credential's hash)", coll: "tokenKeys", filter: { _id: key._id } },
    { label: "tokens by _id", coll: "tokens", filter: { _id: key.tokenId } },
    { label: "artifacts by _id (the slug)", coll: "artifacts", filter: { _id: SLUG } },
    { label: "pages by _id", coll: "pages", filter: { _id: page._id } },
    { label: "workspaces by _id", coll: "workspaces", filter: { _id: page.workspaceId } },
  ];
  const out: Lookup[] = [];
  for (const s of specs) {
    // The typed collections differ in document type; for a lookup by filter they are alike.
    const coll = database.db.collection(s.coll);
    const { ms, runs } = await timeQuery(() => coll.findOne(s.filter));
    out.push({ label: s.label, ms, runs, explain: summarizeExplain(await coll.find(s.filter).limit(1).explain("queryPlanner")) });
  }
  return out;
}

/** What the stateless transport accepts, as found by hand, kept as a record of the run. */
async function transportChecks(url: string, token: string): Promise<McpCheck[]> {
  const body = toolCall("get_page", { slug: SLUG });
  const auth = { Authorization: `Bearer ${token}` };
  const probes: { what: string; headers: Record<string, string>; note: (s: number) => string }[] = [
    {
      what: "tools/call with no initialize, no session id, no protocol version",
      headers: { ...MCP_HEADERS, ...auth },
      note: (s) => (s === 200 ? "accepted: each request stands alone" : "refused"),
    },
    {
      what: "Accept: application/json only",
      headers: { "Content-Type": "application/json", Accept: "application/json", ...auth },
      note: () => "both types must be accepted",
    },
    { what: "no Content-Type", headers: { Accept: MCP_HEADERS.Accept ?? "", ...auth }, note: () => "must be application/json" },
    {
      what: "Mcp-Protocol-Version: 1999-01-01",
      headers: { ...MCP_HEADERS, ...auth, "Mcp-Protocol-Version": "1999-01-01" },
      note: () => "an unsupported version is refused",
    },
  ];
  const out: McpCheck[] = [];
  for (const p of probes) {
    const a = await postMcp(url, { method: "POST", headers: p.headers, body });
    out.push({ what: p.what, status: a.status, contentType: a.contentType, note: p.note(a.status) });
  }
  return out;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

const SERVER_OF: Record<McpTarget, string> = {
  noop: "floor",
  "noop-shared": "floor-shared",
  "noop-answer": "floor-answer",
  "noop-answer-2026": "floor-answer",
  get_page: "sidecar",
  "tools/list": "sidecar",
  "noop-2026": "floor",
  "get_page-2026": "sidecar",
  "get_page-before": "before",
  "get_page-2026-before": "before",
};
const usesDb = (t: McpTarget) => SERVER_OF[t] === "sidecar" || SERVER_OF[t] === "before";

/** Median over rounds of `target`'s req/s against `floor`'s at `connections`, or null. */
function answerRatio(r: McpResult, target: McpTarget, floor: McpTarget, connections: number): number | null {
  const xs: number[] = [];
  for (const x of r.cases) {
    if (x.target !== target || x.connections !== connections) continue;
    const f = r.cases.find((y) => y.target === floor && y.connections === connections && y.round === x.round);
    if (f && f.rps > 0) xs.push(x.rps / f.rps);
  }
  return xs.length > 0 ? median(xs) : null;
}
const pct = (x: number | null) => (x === null ? "not measured" : `${fixed(x * 100, 1)} %`);

export function formatMcp(r: McpResult): string {
  const multi = r.setup.rounds > 1;
  const rows = r.cases.map((c) => [
    ...(multi ? [c.round] : []),
    LABELS[c.target] + (c.noisy ? " *" : ""),
    c.connections,
    c.rps,
    fixed(c.p50Ms),
    fixed(c.p99Ms),
    c.socketErrors + c.httpErrors + c.bodyErrors,
    c.bytesPerResponse,
    cpuPercentOf(c, SERVER_OF[c.target]),
    usesDb(c.target) ? cpuPercentOf(c, "database") : "-",
    cpuPercentOf(c, "wrk"),
    cpuPercentOf(c, "other"),
    cpuPerRequest(c, SERVER_OF[c.target]),
    usesDb(c.target) ? cpuPerRequest(c, "database") : "-",
    c.rssMb[SERVER_OF[c.target]] ?? "-",
  ]);
  const out = [
    `MCP: POST /mcp, stateless; ${r.setup.sdk}; sidecar: ${r.setup.sidecar} (LOG_LEVEL=${r.setup.logLevel}), database: ${r.setup.database}; ` +
      `floor: ${r.setup.floor}; wrk -t${r.setup.threads}, ${r.setup.durationSeconds} s per case after ${r.setup.warmupSeconds} s warm-up`,
    `answers: get_page ${r.responses.get_page.bytes} bytes (a page of ${r.page.markdownBytes} bytes of Markdown), tools/list ${r.responses["tools/list"].bytes} bytes (${r.toolsListed} tools), no-op ${r.responses.noop.bytes} bytes; ` +
      `the reference floor shares one JSON Schema validator between Servers (by default each new Server builds its own Ajv)`,
    table(
      [
        ...(multi ? ["round"] : []),
        "target",
        "conns",
        "req/s",
        "p50 ms",
        "p99 ms",
        "errors",
        "bytes/resp",
        "CPU% proc",
        "CPU% db",
        "CPU% wrk",
        "CPU% other",
        "µs/req proc",
        "µs/req db",
        "max RSS MB",
      ],
      rows,
    ),
    "",
    table(
      ["compared with the no-op floor (same generation)", "conns", ...(multi ? ["per round", "median"] : ["req/s ratio"])],
      r.medianRatios.map((m) => {
        const per = r.ratios.filter((x) => x.connections === m.connections && x.target === m.target).map((x) => fixed(x.rpsRatio * 100, 1));
        return [LABELS[m.target], m.connections, ...(multi ? [per.join(" / "), `${fixed(m.rpsRatio * 100, 1)} %`] : [`${fixed(m.rpsRatio * 100, 1)} %`])];
      }),
    ),
    "",
    `target: get_page at ≥ ${r.target.minRatio * 100} % of the no-op floor's req/s at ${r.target.connections} connections: ` +
      (r.target.ratio === null ? "not measured" : `${fixed(r.target.ratio * 100, 1)} % → ${r.target.met ? "met" : "MISSED"}`),
    `issue 30: get_page at ≥ ${r.target30.minRatio * 100} % of the floor on both generations at ${r.target30.connections} connections: ` +
      `2025 ${r.target30.ratio === null ? "not measured" : `${fixed(r.target30.ratio * 100, 1)} %`}, ` +
      `2026-07-28 ${r.target30.ratio2026 === null ? "not measured" : `${fixed(r.target30.ratio2026 * 100, 1)} %`} → ${r.target30.met ? "met" : "MISSED"}`,
    `get_page against the no-op answering get_page's own ${r.responses["noop-answer"]?.bytes ?? "?"} bytes (what is left once the answer's size is the same): ` +
      [...new Set(r.cases.map((c) => c.connections))]
        .sort((x, y) => y - x)
        .map(
          (c) =>
            `${c} connection${c === 1 ? "" : "s"}: 2025 ${pct(answerRatio(r, "get_page", "noop-answer", c))}, 2026-07-28 ${pct(answerRatio(r, "get_page-2026", "noop-answer-2026", c))}`,
        )
        .join("; "),
    `CPU% is of one core (the machine has ${availableParallelism()}); proc = the process answering (sidecar or floor), db = the embedded database, µs/req = CPU time per request; ` +
      `errors = socket errors + HTTP ≥ 400 + tool/JSON-RPC errors in 200 answers; other = the rest of the machine (${r.setup.backgroundCpuPercent === null ? "?" : Math.round(r.setup.backgroundCpuPercent)} % before the run).` +
      (r.cases.some((c) => c.noisy)
        ? `\n* noisy: other work used more than ${NOISE_THRESHOLD} % of a core during the case; run again on a quiet machine.`
        : ""),
    "",
    "transport checks (by hand, before the load):",
    ...r.checks.map((c) => `  ${c.status} ${c.contentType ?? ""}  ${c.what}: ${c.note}`),
    "",
    table(
      ["the lookups of one get_page with a cold cache, through the driver", "p50 ms", "p90 ms", "plan", "indexes used"],
      r.lookups.map((l) => [l.label, fixed(l.ms.p50), fixed(l.ms.p90), l.explain.plan, l.explain.indexesUsed.join(", ") || "none"]),
    ),
  ];
  for (const [name, p] of [
    ["sidecar, get_page (from its sources under tsx)", r.profiles.getPage],
    ["sidecar, get_page 2026-07-28 (from its sources under tsx)", r.profiles.getPage2026],
    ["sidecar, tools/list (from its sources under tsx)", r.profiles.toolsList],
    ["no-op floor", r.profiles.floor],
  ] as const) {
    if (!p) continue;
    out.push("", `profiled ${name}: ${p.rps} req/s, p99 ${fixed(p.p99Ms)} ms under the profiler; saved as ${p.savedAs}`, formatProfileSummary(p));
  }
  return out.join("\n");
}
