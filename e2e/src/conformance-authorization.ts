// The official MCP conformance suite's authorization-server scenarios against a real server:
//
//   pnpm --filter @atelier/e2e exec tsx src/conformance-authorization.ts
//
// The suite (npm @modelcontextprotocol/conformance, 0.2 line, needs Node 22: the npm package
// `node@22` provides one) checks the authorization server metadata, then prints an
// authorization URL and waits for a browser to come back to its loopback callback. This script
// starts the embedded database, SMTP capture and the server, registers a public client for
// that callback, plays the person (signs in with the e-mailed code and allows on the consent
// screen's API), and prints the suite's own report. It runs the suite as
// `npx -y -p node@22 -p <package> conformance …` (both from the npm registry);
// CONFORMANCE_PACKAGE overrides the version.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, REPO_ROOT, startEmbeddedDb } from "@atelier/shared/devtools/embedded-db";
import { startMailCapture, type StoredMail } from "./mail-capture";

const pkg = process.env.CONFORMANCE_PACKAGE ?? "@modelcontextprotocol/conformance@0.2.0-alpha.12";
const log = (line: string) => process.stdout.write(`[conformance] ${line}\n`);

class Jar {
  cookies = new Map<string, string>();
  constructor(readonly base: string) {}
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    if (init.method === "POST") headers.set("origin", this.base);
    const res = await fetch(new URL(url, this.base), { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair?.indexOf("=") ?? -1;
      if (pair && eq > 0) this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return res;
  }
  trpc(name: string, input: unknown): Promise<Response> {
    return this.fetch(`/api/trpc/${name}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
  }
}

async function waitForCode(mailDir: string, to: string): Promise<string> {
  for (let i = 0; i < 150; i++) {
    for (const f of readdirSync(mailDir).filter((n) => n.endsWith(".json"))) {
      const m = JSON.parse(readFileSync(path.join(mailDir, f), "utf8")) as StoredMail;
      const code = /\n {4}(\d{6})\r?\n/.exec(m.raw)?.[1];
      if (m.to.includes(to) && code) return code;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code mailed to ${to}`);
}

/** Plays the person: from the authorization URL to the client's callback. */
async function signInAndAllow(base: string, authorizationUrl: string, mailDir: string): Promise<void> {
  const jar = new Jar(base);
  let res = await jar.fetch(authorizationUrl);
  let location = res.headers.get("location") ?? "";
  while (res.status === 303 && !location.startsWith("/app/")) {
    res = await jar.fetch(location);
    location = res.headers.get("location") ?? "";
  }
  const uid = /^\/app\/oauth\/consent\/([A-Za-z0-9_-]+)$/.exec(location)?.[1];
  if (!uid) throw new Error(`the authorization went to ${res.status} ${location}`);
  const email = `conformance-${Date.now()}@example.test`;
  if ((await jar.trpc("auth.requestCode", { email })).status !== 200) throw new Error("requestCode failed");
  if ((await jar.trpc("auth.verifyCode", { email, code: await waitForCode(mailDir, email) })).status !== 200) throw new Error("verifyCode failed");
  const decided = (await (await jar.trpc("oauth.decide", { uid, allow: true })).json()) as { result?: { data: { redirect_to: string } } };
  const back = await jar.fetch(decided.result?.data.redirect_to ?? "");
  const callback = back.headers.get("location");
  if (back.status !== 303 || !callback) throw new Error(`the authorization server answered ${back.status}`);
  await fetch(callback);
}

async function main(): Promise<number> {
  const tmp = mkdtempSync(path.join(tmpdir(), "atelier-conformance-"));
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const db = await startEmbeddedDb({ dataDir: path.join(tmp, "db"), port: await freePort(), log });
    stops.push(() => db.stop());
    const mailDir = path.join(tmp, "mail");
    mkdirSync(mailDir);
    const mail = await startMailCapture(mailDir);
    stops.push(() => mail.close());
    const [port, callbackPort] = [await freePort(), await freePort()];
    const base = `http://127.0.0.1:${port}`;
    const server = spawn("pnpm", ["exec", "tsx", "server/src/main.ts"], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NODE_ENV: "test",
        BASE_URL: base,
        SERVER_PORT: String(port),
        MONGODB_URI: db.uri,
        MONGODB_DB: "conformance",
        SMTP_URL: mail.url,
        LOG_LEVEL: "warn",
        DATA_DIR: path.join(tmp, "data"),
      },
      stdio: ["ignore", "inherit", "inherit"],
      detached: true,
    });
    stops.push(async () => {
      if (server.pid) process.kill(-server.pid, "SIGTERM");
      await new Promise((r) => setTimeout(r, 500));
    });
    for (let i = 0; ; i++) {
      if ((await fetch(`${base}/healthz`).catch(() => null))?.status === 200) break;
      if (i > 200) throw new Error("the server did not start");
      await new Promise((r) => setTimeout(r, 150));
    }
    const reg = await fetch(`${base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "MCP conformance suite",
        redirect_uris: [`http://127.0.0.1:${callbackPort}/callback`],
        token_endpoint_auth_method: "none",
      }),
    });
    const { client_id } = (await reg.json()) as { client_id: string };
    log(`server at ${base}, client ${client_id}; running ${pkg} authorization`);

    const outDir = path.join(REPO_ROOT, "e2e/artifacts/conformance-authorization");
    const suite = spawn(
      "npx",
      [
        "-y",
        "-p",
        "node@22",
        "-p",
        pkg,
        "conformance",
        "authorization",
        "--url",
        base,
        "--client-id",
        client_id,
        "--resource",
        `${base}/mcp`,
        "--port",
        String(callbackPort),
        "-o",
        outDir,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let driving: Promise<void> | null = null;
    let output = "";
    suite.stdout.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      output += text;
      process.stdout.write(text);
      const url = new RegExp(`${base.replace(/[.]/g, "\\.")}/oauth/authorize\\?\\S+`).exec(output)?.[0];
      if (url && !driving) {
        driving = signInAndAllow(base, url, mailDir).catch((err: unknown) => {
          log(`playing the person failed: ${String(err)}`);
        });
      }
    });
    const code = await new Promise<number>((r) => suite.once("exit", (c) => r(c ?? 1)));
    await driving;
    log(`suite exited ${code}; results in ${path.relative(REPO_ROOT, outDir)}/`);
    return code;
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    rmSync(tmp, { recursive: true, force: true });
  }
}

process.exit(await main());
