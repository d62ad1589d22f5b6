// The micro-cache keeps answering a page it let go of (issue 30). deploy/nginx.conf keeps
// cache files open between hits (`open_file_cache`). In its first minute an nginx's cache is
// "cold" (its loader has not run), and a cache entry made afresh is looked up on disk with no
// file identity to check against; an open file kept from before could then be a copy the
// cache had already deleted, whose header says "expired" for good: every read went to a
// server (EXPIRED / REVALIDATED), never HIT, until the open file was checked again, 60 s by
// default. `open_file_cache_valid 1s` bounds that to a second. This test makes the case:
// a fresh nginx, one page read until HIT, left alone until the cache deletes its file
// (`inactive=10s`), then read again: a HIT must follow within a few reads.
import { readdirSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Api, uniqueEmail, uniqueSlug } from "../support/api";
import { startOwnNginx } from "../support/nginx";

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

  // Started here, so its cache is cold for the whole test (its loader runs after a minute).
  const nginx = await startOwnNginx("cold");
  const read = async () => {
    const res = await fetch(`${nginx.base}/a/${slug}`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    return res.headers.get("x-cache-status") ?? "none";
  };
  const cacheDir = path.join(nginx.prefix, "cache");
  try {
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
    nginx.stop();
  }
});
