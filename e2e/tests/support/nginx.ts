// A second nginx of our own, running the shipped deploy/nginx.conf in front of the stack's
// server and sidecar processes, for tests that need one the stack's does not give: a load
// balancer in front (`realIpFrom`), or an nginx started fresh (its cache cold). Its view log
// is the stack's, which the servers read.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "@atelier/shared/devtools/embedded-db";
import { expect } from "@playwright/test";
import { renderNginxConf } from "../../src/nginx";
import { stack } from "./stack";

const portOf = (url: string) => Number(new URL(url).port);

export interface OwnNginx {
  /** http://127.0.0.1:{port} */
  base: string;
  /** Its folder: conf, logs, temp files and the micro-cache (`cache/`). */
  prefix: string;
  /** Stops it and removes its folder. */
  stop(): void;
}

/** Starts it and waits until it answers /healthz; `name` goes into its folder's name. */
export async function startOwnNginx(name: string, opts: { realIpFrom?: string } = {}): Promise<OwnNginx> {
  const prefix = mkdtempSync(path.join(tmpdir(), `atelier-${name}-nginx-`));
  const port = await freePort();
  const conf = renderNginxConf({
    template: stack.nginxTemplate,
    prefix,
    port,
    serverPorts: [portOf(stack.serverUrls[0] ?? ""), portOf(stack.serverUrls[1] ?? "")],
    sidecarPorts: [portOf(stack.sidecarUrls[0] ?? ""), portOf(stack.sidecarUrls[1] ?? "")],
    viewLog: stack.viewLog,
    ...(opts.realIpFrom ? { realIpFrom: opts.realIpFrom } : {}),
  });
  const check = spawnSync(stack.nginxPath, ["-t", "-q", "-p", prefix, "-c", conf.confFile], { encoding: "utf8" });
  expect(check.status, check.stderr).toBe(0);
  const nginx = spawn(stack.nginxPath, ["-p", prefix, "-c", conf.confFile, "-g", "daemon off;"], { stdio: "ignore" });
  const own: OwnNginx = {
    base: `http://127.0.0.1:${port}`,
    prefix,
    stop: () => {
      nginx.kill("SIGTERM");
      rmSync(prefix, { recursive: true, force: true });
    },
  };
  try {
    await expect(async () => expect((await fetch(`${own.base}/healthz`)).status).toBe(200)).toPass({ timeout: 15_000 });
  } catch (err) {
    own.stop();
    throw err;
  }
  return own;
}
