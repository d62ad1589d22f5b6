// `pnpm test:conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance,
// on Node 22 from the npm package `node`, installed by `.ci/setup` into .tools/node22) against a
// real stack: the embedded database, SMTP capture, the server and the sidecar from their
// sources. Data is seeded through the public API (sign-in by e-mail code, a token, MCP tools).
// The suite runs once per protocol generation (`--spec-version 2025-11-25` and `2026-07-28`);
// every scenario that applies to a real server must pass; those that need the suite's own
// fixture tools or capabilities Atelier does not offer are listed, with the reason, in
// NOT_APPLICABLE below and in docs/mcp-conformance.md. Then the MCP Inspector CLI lists the tools
// and calls get_page in both its modern and legacy modes.
//
//   pnpm test:conformance                 both wires, then the Inspector
//   pnpm test:conformance --wire 2026-07-28 --scenario caching   one scenario on one wire
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { freePort, REPO_ROOT, startEmbeddedDb, type EmbeddedDb } from "@atelier/shared/devtools/embedded-db";
import { clientConfigs, INSPECTOR_SPEC } from "@atelier/shared/domain/agent-catalog";
import { shellWords } from "@atelier/shared/testing/shell-words";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startMailCapture, type MailCapture } from "./mail-capture";
import { ManagedProcess } from "./processes";

const WIRES = ["2025-11-25", "2026-07-28"] as const;
type Wire = (typeof WIRES)[number];

/**
 * Scenarios of the suite that do not apply to Atelier, with the reason (the same list, with
 * more words, is docs/mcp-conformance.md). Everything else the suite runs for a wire must pass.
 */
export const NOT_APPLICABLE: Record<string, string> = {
  "tools-call-simple-text": "needs the suite's fixture tool test_simple_text",
  "tools-call-image": "needs the suite's fixture tool test_image_content",
  "tools-call-audio": "needs the suite's fixture tool test_audio_content",
  "tools-call-embedded-resource": "needs the suite's fixture tool test_embedded_resource",
  "tools-call-mixed-content": "needs the suite's fixture tool test_multiple_content_types",
  "tools-call-with-logging": "needs the suite's fixture tool test_tool_with_logging (and the logging capability, which Atelier does not offer)",
  "tools-call-error": "needs the suite's fixture tool test_error_handling",
  "tools-call-with-progress": "needs the suite's fixture tool test_tool_with_progress",
  "tools-call-sampling": "needs the suite's fixture tool test_sampling (and sampling, which Atelier never asks for)",
  "tools-call-elicitation": "needs the suite's fixture tool test_elicitation (and elicitation, which Atelier never asks for)",
  "elicitation-sep1034-defaults": "needs the suite's fixture tool test_elicitation_sep1034_defaults",
  "elicitation-sep1330-enums": "needs the suite's fixture tool test_elicitation_sep1330_enums",
  "json-schema-2020-12": "needs the suite's fixture tool json_schema_2020_12_tool",
  "server-sse-polling": "needs the suite's fixture tool test_reconnection and resumable SSE streams with an event store; Atelier is stateless and answers JSON",
  "logging-set-level": "Atelier does not offer the logging capability",
  "completion-complete": "Atelier does not offer completions (its prompts take free text, its one resource template a page slug)",
  "resources-read-text": "reads the suite's fixture resource test://static-text",
  "resources-read-binary": "reads the suite's fixture resource test://static-binary",
  "resources-templates-read": "reads the suite's fixture template test://template/{id}/data",
  "resources-subscribe": "Atelier does not offer resource subscriptions",
  "resources-unsubscribe": "Atelier does not offer resource subscriptions",
  "prompts-get-simple": "needs the suite's fixture prompt test_simple_prompt",
  "prompts-get-with-args": "needs the suite's fixture prompt test_prompt_with_arguments",
  "prompts-get-embedded-resource": "needs the suite's fixture prompt test_prompt_with_embedded_resource",
  "prompts-get-with-image": "needs the suite's fixture prompt test_prompt_with_image",
  "http-custom-header-server-validation": "needs the suite's fixture tools with x-mcp-header parameters; Atelier's tools mirror no parameter into headers",
};
/**
 * Checks, inside scenarios that apply, that cannot apply to Atelier: the suite marks them
 * "Not testable" without its fixture tools, or they test a capability Atelier does not offer.
 * A scenario passes when every other check passes (SKIPPED and INFO checks are not failures).
 */
export const CHECKS_NOT_APPLICABLE: Record<string, string> = {
  "sep-2575-server-rejects-undeclared-capability": "needs the suite's fixture tool test_missing_capability",
  "sep-2575-missing-capability-http-400": "needs the suite's fixture tool test_missing_capability",
  "sep-2575-http-server-no-independent-requests-on-stream": "needs the suite's fixture tool test_streaming_elicitation",
  "sep-2575-server-no-log-without-loglevel": "needs the suite's fixture tool test_logging_tool (Atelier sends no log notifications at all)",
};

const INPUT_REQUIRED =
  "needs the suite's fixture tools for input_required results (elicitation, sampling, roots); Atelier's tools never ask the client for input";

function notApplicable(scenario: string): string | undefined {
  if (scenario.startsWith("input-required-result-")) return INPUT_REQUIRED;
  return NOT_APPLICABLE[scenario];
}

const NODE22_DIR = path.join(REPO_ROOT, ".tools/node22/node_modules");
const NODE22 = path.join(NODE22_DIR, ".bin/node");
const CONFORMANCE = path.join(NODE22_DIR, "@modelcontextprotocol/conformance/dist/index.js");
const INSPECTOR = path.join(NODE22_DIR, "@modelcontextprotocol/inspector/clients/launcher/build/index.js");
const TSX = path.join(REPO_ROOT, "node_modules/.bin/tsx");

const log = (line: string) => process.stdout.write(`\x1b[1m[conformance]\x1b[0m ${line}\n`);

const { values: opts } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "--"),
  options: { wire: { type: "string" }, scenario: { type: "string" }, "no-inspector": { type: "boolean", default: false } },
});

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}
interface ScenarioResult {
  scenario: string;
  checks: Check[];
  passed: boolean;
}

/** The suite's scenarios for one wire, as `conformance list` names them. */
function scenariosFor(wire: Wire): string[] {
  const out = spawnSync(NODE22, [CONFORMANCE, "list", "--server", "--spec-version", wire], { encoding: "utf8" });
  if (out.status !== 0) throw new Error(`conformance list failed: ${out.stderr}`);
  return [...out.stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1] ?? "").filter(Boolean);
}

function run(cmd: string, args: string[], timeoutMs: number): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: REPO_ROOT,
      env: { PATH: `${path.dirname(NODE22)}:${process.env.PATH ?? ""}`, HOME: process.env.HOME, NO_COLOR: "1" },
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, out });
    });
  });
}

/** Runs one scenario on one wire and reads its checks from the suite's output folder. */
async function runScenario(url: string, wire: Wire, scenario: string, outDir: string): Promise<ScenarioResult> {
  const dir = path.join(outDir, wire, scenario);
  mkdirSync(dir, { recursive: true });
  const { out } = await run(
    NODE22,
    [CONFORMANCE, "server", "--url", url, "--scenario", scenario, "--spec-version", wire, "-o", dir, "--timeout", "20000"],
    60_000,
  );
  const checks: Check[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = path.join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f === "checks.json") checks.push(...(JSON.parse(readFileSync(p, "utf8")) as Check[]));
    }
  };
  walk(dir);
  const failed = checks.filter((c) => c.status === "FAILURE" && !CHECKS_NOT_APPLICABLE[c.id]);
  if (checks.length === 0) {
    // No result file: the suite itself failed; keep its words.
    return { scenario, checks: [{ id: "run", status: "FAILURE", errorMessage: out.split("\n").slice(-15).join("\n") }], passed: false };
  }
  return { scenario, checks, passed: failed.length === 0 };
}

async function main(): Promise<number> {
  for (const [what, p] of [
    ["Node 22", NODE22],
    ["the conformance suite", CONFORMANCE],
    ["the MCP Inspector", INSPECTOR],
  ] as const) {
    if (!existsSync(p)) {
      log(`${what} is missing at ${path.relative(REPO_ROOT, p)}: run \`bash .ci/setup\` (installs it from the npm registry).`);
      return 1;
    }
  }
  const tmp = mkdtempSync(path.join(tmpdir(), "atelier-conformance-"));
  const outDir = path.join(REPO_ROOT, "e2e/artifacts/conformance");
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const processes: ManagedProcess[] = [];
  let db: EmbeddedDb | null = null;
  let mail: MailCapture | null = null;
  const stop = async () => {
    for (const p of processes.reverse()) await p.stop();
    await db?.stop().catch(() => {});
    await mail?.close().catch(() => {});
    rmSync(tmp, { recursive: true, force: true });
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stop().finally(() => process.exit(130)));

  try {
    db = await startEmbeddedDb({ dataDir: path.join(tmp, "db"), port: await freePort(), log });
    const mailDir = path.join(tmp, "mail");
    mkdirSync(mailDir);
    mail = await startMailCapture(mailDir);
    const [serverPort, sidecarPort] = [await freePort(), await freePort()];
    const baseUrl = `http://127.0.0.1:${serverPort}`;
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "test",
      BASE_URL: baseUrl,
      LISTEN_HOST: "127.0.0.1",
      MONGODB_URI: db.uri,
      MONGODB_DB: "atelier_conformance",
      SECRET_KEY: randomBytes(32).toString("base64url"),
      SMTP_URL: mail.url,
      DATA_DIR: path.join(tmp, "data"),
      LOG_LEVEL: "warn",
    };
    const logs = path.join(outDir, "logs");
    mkdirSync(logs, { recursive: true });
    for (const [name, pkg, port, portVar] of [
      ["server", "server", serverPort, "SERVER_PORT"],
      ["sidecar", "mcp-sidecar", sidecarPort, "SIDECAR_PORT"],
    ] as const) {
      const p = new ManagedProcess(
        {
          name,
          command: TSX,
          args: [path.join(REPO_ROOT, pkg, "src/main.ts")],
          cwd: REPO_ROOT,
          env: { ...env, [portVar]: String(port) },
          logFile: path.join(logs, `${name}.log`),
          healthUrl: `http://127.0.0.1:${port}/healthz`,
        },
        (c) => log(`${c.name} exited by itself (code ${c.code ?? "-"})`),
      );
      processes.push(p);
      await p.start(60_000);
    }
    const mcpUrl = `http://127.0.0.1:${sidecarPort}/mcp`;
    log(`stack up: server ${baseUrl}, sidecar ${mcpUrl}, database ${db.uri}`);
    const seeded = await seed(baseUrl, mcpUrl, mailDir);
    log(`seeded through the public API: public workspace ${seeded.workspace}, page ${seeded.slug}`);

    let failures = 0;
    const summary: string[] = [];
    for (const wire of WIRES.filter((w) => !opts.wire || w === opts.wire)) {
      const all = scenariosFor(wire).filter((s) => !opts.scenario || s === opts.scenario);
      // A scenario named on the command line runs even when it is listed as not applicable (to check the list).
      const applicable = opts.scenario ? all : all.filter((s) => !notApplicable(s));
      const results: ScenarioResult[] = [];
      for (const scenario of applicable) {
        const r = await runScenario(mcpUrl, wire, scenario, outDir);
        results.push(r);
        const count = (pred: (c: Check) => boolean) => r.checks.filter(pred).length;
        const na = count((c) => c.status === "FAILURE" && CHECKS_NOT_APPLICABLE[c.id] !== undefined);
        const other = count((c) => c.status !== "SUCCESS" && c.status !== "FAILURE");
        log(
          `${wire} ${r.passed ? "PASS" : "FAIL"} ${scenario}: ${count((c) => c.status === "SUCCESS")} of ${r.checks.length - na - other} applicable checks passed` +
            (na ? `, ${na} not applicable` : "") +
            (other ? `, ${other} skipped or informational` : ""),
        );
        for (const c of r.checks.filter((x) => x.status === "FAILURE")) {
          const why = CHECKS_NOT_APPLICABLE[c.id];
          log(`    ${why ? "not applicable" : "FAILED"} ${c.id}: ${why ?? (c.errorMessage ?? "").slice(0, 400)}`);
        }
      }
      const passed = results.filter((r) => r.passed).length;
      failures += results.length - passed;
      const na = all.filter((s) => notApplicable(s));
      summary.push(`${wire}: ${passed} of ${applicable.length} applicable scenarios passed; ${na.length} not applicable (${na.join(", ")})`);
    }

    if (!opts["no-inspector"] && !opts.scenario) {
      const inspector = await inspectorChecks(mcpUrl, seeded.slug, seeded.credential, outDir);
      for (const line of inspector.lines) summary.push(line);
      failures += inspector.failures;
    }
    for (const line of summary) log(line);
    log(`results: ${path.relative(REPO_ROOT, outDir)}/`);
    return failures === 0 ? 0 : 1;
  } finally {
    await stop();
  }
}

/** A person signs in by e-mail code, makes a token, and through MCP creates a public workspace with a page. */
async function seed(baseUrl: string, mcpUrl: string, mailDir: string): Promise<{ workspace: string; slug: string; credential: string }> {
  let cookie = "";
  const trpc = async <T>(proc: string, input: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}/api/trpc/${proc}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(input),
    });
    const set = res.headers.getSetCookie().map((c) => c.split(";")[0] ?? "");
    if (set.length > 0) cookie = set.join("; ");
    const body = (await res.json()) as { result?: { data?: T } };
    if (!res.ok) throw new Error(`${proc}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    return body.result?.data as T;
  };
  const email = `conformance-${Date.now()}@example.com`;
  await trpc("auth.requestCode", { email });
  let code = "";
  for (let i = 0; i < 150 && !code; i++) {
    for (const f of readdirSync(mailDir).filter((n) => n.endsWith(".json") && !n.startsWith("."))) {
      const m = JSON.parse(readFileSync(path.join(mailDir, f), "utf8")) as { to: string[]; raw: string };
      if (m.to.includes(email)) code = /\n {4}(\d{6})\r?\n/.exec(m.raw)?.[1] ?? "";
    }
    if (!code) await new Promise((r) => setTimeout(r, 100));
  }
  if (!code) throw new Error("no sign-in code arrived");
  await trpc("auth.verifyCode", { email, code });
  const { credential } = await trpc<{ credential: string }>("tokens.create", {
    label: "conformance seeder",
    scopes: ["mcp:read", "mcp:write"],
    expiresInDays: 1,
  });

  const client = new Client({ name: "conformance-seeder", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${credential}` } } }));
  const workspace = "conformance-public";
  const slug = "conformance-hello";
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
  };
  await call("create_workspace", { slug: workspace, name: "Conformance (public)" });
  await call("create_page", { slug, title: "Hello from Atelier", body_markdown: "# Hello\n\nA public page for the conformance suite.", workspace });
  await call("create_page", { slug: "conformance-second", title: "Second page", body_markdown: "Another public page.", workspace });
  await call("set_workspace_visibility", { workspace, visibility: "public" });
  await client.close();
  return { workspace, slug, credential };
}

/**
 * The MCP Inspector CLI against /mcp: list the tools and call get_page, in its modern and
 * legacy modes. The protocol era is a per-server setting, so each mode is a config file.
 */
async function inspectorChecks(mcpUrl: string, slug: string, credential: string, dir: string): Promise<{ lines: string[]; failures: number }> {
  const lines: string[] = [];
  let failures = 0;
  // The command the app and the connect guide print, run as printed (npx resolves the pinned
  // package to the copy .ci/setup installed beside Node 22, the same version).
  const printed = clientConfigs(mcpUrl.replace(/\/mcp$/, ""), credential).find((c) => c.id === "inspector")?.text ?? "";
  const words = shellWords(printed);
  if (words[0] === "npx" && words[1] === INSPECTOR_SPEC) {
    const { code, out } = await run(NODE22, [INSPECTOR, ...words.slice(2)], 60_000);
    const ok = code === 0 && /"get_page"|\bget_page\b/.test(out);
    if (!ok) failures++;
    lines.push(
      `Inspector CLI as printed (${words.slice(0, 3).join(" ")} … --method tools/list): ${ok ? "passed" : `FAILED (exit ${code}): ${out.slice(-600)}`}`,
    );
  } else {
    failures++;
    lines.push(`Inspector CLI as printed: FAILED: the printed command is not \`npx ${INSPECTOR_SPEC} …\`: ${printed}`);
  }
  for (const era of ["modern", "legacy"] as const) {
    const config = path.join(dir, `inspector-${era}.json`);
    writeFileSync(config, JSON.stringify({ mcpServers: { atelier: { type: "http", url: mcpUrl, protocolEra: era } } }, null, 2));
    for (const [what, args, expected] of [
      ["tools/list", ["--method", "tools/list"], /"get_page"/],
      ["tools/call get_page", ["--method", "tools/call", "--tool-name", "get_page", "--tool-arg", `slug=${slug}`], /Hello from Atelier/],
    ] as const) {
      const { code, out } = await run(
        NODE22,
        [INSPECTOR, "--cli", "--config", config, "--server", "atelier", "--stored-auth-only", "--format", "json", ...args],
        60_000,
      );
      const ok = code === 0 && expected.test(out);
      if (!ok) failures++;
      lines.push(`Inspector CLI (${era}) ${what}: ${ok ? "passed" : `FAILED (exit ${code}): ${out.slice(-600)}`}`);
    }
  }
  return { lines, failures };
}

const code = await main().catch((err: unknown) => {
  log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return 1;
});
log(code === 0 ? "passed" : "FAILED");
process.exit(code);
