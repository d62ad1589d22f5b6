// The micro-cache keeps answering a page it let go of (issue 30). deploy/nginx.conf keeps
// cache files open between hits (`open_file_cache`). In its first minute an nginx's cache is
// "cold" (its loader has not run), and a cache entry made afresh is looked up on disk with no
// file identity to check against; an open file kept from before could then be a copy the
// cache had already deleted, whose header says "expired" for good: every read went to a
// server (EXPIRED / REVALIDATED), never HIT, until the open file was checked again, 60 s by
// default. `open_file_cache_valid 1s` bounds that to a second. This test makes the case:
// a fresh nginx, one page read until HIT, left alone until the cache deletes its file
// (`inactive=10s`), then read again: a HIT must follow within a few reads.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "@atelier/shared/devtools/embedded-db";
import { expect, test } from "@playwright/test";
import { renderNginxConf } from "../../src/nginx";
import { Api, uniqueEmail, uniqueSlug } from "../support/api";
import { stack } from "../support/stack";

const portOf = (url: string) => Number(new URL(url).port);

function cacheFiles(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

test("a fresh nginx serves a page from its micro-cache again after the cache let go of it", async () => {
  test.setTimeout(90_000);
  const api = new Api();
  await api.signIn(uniqueEmail("micro-cache"));
  const ws = uniqueSlug("micro-cache");
  const slug = uniqueSlug("quiet-page");
  await api.mutation("workspaces.create", { slug: ws, name: "Micro-cache" });
  await api.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" });
  await api.mutation("pages.create", { slug, title: "Quiet page", workspace: ws, body_markdown: "# Quiet\n\nRead now and then.\n" });

  const prefix = mkdtempSync(path.join(tmpdir(), "atelier-cold-nginx-"));
  const port = await freePort();
  const conf = renderNginxConf({
    template: stack.nginxTemplate,
    prefix,
    port,
    serverPorts: [portOf(stack.serverUrls[0] ?? ""), portOf(stack.serverUrls[1] ?? "")],
    sidecarPorts: [portOf(stack.sidecarUrls[0] ?? ""), portOf(stack.sidecarUrls[1] ?? "")],
    viewLog: stack.viewLog,
  });
  const check = spawnSync(stack.nginxPath, ["-t", "-q", "-p", prefix, "-c", conf.confFile], { encoding: "utf8" });
  expect(check.status, check.stderr).toBe(0);
  // Started here, so its cache is cold for the whole test (its loader runs after a minute).
  const nginx: ChildProcess = spawn(stack.nginxPath, ["-p", prefix, "-c", conf.confFile, "-g", "daemon off;"], { stdio: "ignore" });
  const base = `http://127.0.0.1:${port}`;
  const read = async () => {
    const res = await fetch(`${base}/a/${slug}`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    return res.headers.get("x-cache-status") ?? "none";
  };
  const cacheDir = path.join(prefix, "cache");
  try {
    await expect(async () => expect((await fetch(`${base}/healthz`)).status).toBe(200)).toPass({ timeout: 15_000 });
    // Stored, then answered from the cache (and its file held open).
    await expect(async () => expect(await read()).toBe("HIT")).toPass({ timeout: 5_000, intervals: [200] });
    expect(cacheFiles(cacheDir)).toBe(1);

    // Left alone past `inactive=10s`: the cache manager deletes the entry and its file.
    await expect(async () => expect(cacheFiles(cacheDir)).toBe(0)).toPass({ timeout: 30_000, intervals: [500] });

    // Read again, a few times over two seconds: stored afresh, then a HIT. (The copy lives one
    // second, so a later read may be STALE while it is refreshed; with the fault every read
    // was REVALIDATED, never a HIT.)
    const seen: string[] = [];
    for (let i = 0; i < 8; i++) {
      seen.push(await read());
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(seen, `X-Cache-Status of each read: ${seen.join(", ")}`).toContain("HIT");
  } finally {
    nginx.kill("SIGTERM");
    rmSync(prefix, { recursive: true, force: true });
  }
});
