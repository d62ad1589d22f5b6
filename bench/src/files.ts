// `pnpm --filter @atelier/bench exec tsx src/files.ts [--seconds 5]`: a 1 MB public image
// served through the shipped deploy/nginx.conf (two server processes behind it, the
// micro-cache on) against nginx serving the same bytes from disk, by a keep-alive fetch loop
// at 1 and 16 concurrent requests; then upload throughput: 20 MB PUTs to upload URLs through
// nginx, and push_image-sized images through the domain (clean, hash, store). Figures go to
// docs/performance.md (issue 29).
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { UserDoc } from "@atelier/shared/db";
import { NO_CACHE } from "@atelier/shared/domain/cache";
import { addFile } from "@atelier/shared/domain/files";
import { createUploadUrl } from "@atelier/shared/domain/uploads";
import { createWorkspace } from "@atelier/shared/domain/workspaces";
import { freePort, REPO_ROOT } from "@atelier/shared/devtools/embedded-db";
import { newId } from "@atelier/shared/ids";
import sharp from "sharp";
import { configFor, ensureServerBuild, serverEnv, startDatabase, startServer } from "./lib/atelier";
import { makeWorkDir, runWithCleanup } from "./lib/cleanup";
import { findNginx, startNginx, startShippedNginx } from "./lib/nginx";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "5" } } });
const SECONDS = Number(values.seconds);
const log = (s: string) => console.log(`[bench files] ${s}`);

/** Requests per second and latency percentiles of GET `url` by `concurrency` loops for `seconds`. */
async function load(url: string, concurrency: number, seconds: number, expectBytes: number) {
  const times: number[] = [];
  let errors = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        const res = await fetch(url);
        const body = await res.arrayBuffer();
        if (res.status !== 200 || body.byteLength !== expectBytes) errors++;
        times.push(performance.now() - t0);
      }
    }),
  );
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return { rps: Math.round(times.length / seconds), p50: at(0.5), p99: at(0.99), errors, mbps: Math.round((times.length * expectBytes) / seconds / 1048576) };
}

await runWithCleanup(async () => {
  const nginxBin = findNginx();
  if (!nginxBin) throw new Error("nginx is not installed");
  const dir = makeWorkDir(log);
  chmodSync(dir, 0o755);
  ensureServerBuild(log);
  const db = await startDatabase(dir, log);
  const [p1, p2] = [await freePort(), await freePort()];
  const env1 = serverEnv({ db, port: p1, dataDir: path.join(dir, "s1"), logLevel: "warn" });
  const config = configFor(env1);
  const user: UserDoc = { _id: newId("usr"), email: "bench@atelier.localhost", confirmedAt: new Date(), defaultWorkspaceId: null, createdAt: new Date() };
  await db.database.c.users.insertOne(user);
  const ws = await createWorkspace({ database: db.database }, { slug: "bench-files", name: "Files", ownerId: user._id, visibility: "public" });
  const deps = { database: db.database, config, cache: NO_CACHE };
  const me = { kind: "user" as const, user };
  // Noise does not compress: 600×580 RGB is about 1 MB of PNG.
  const noise = await sharp(randomBytes(600 * 580 * 3), { raw: { width: 600, height: 580, channels: 3 } })
    .png()
    .toBuffer();
  const { file } = await addFile(deps, me, { workspace: ws.slug, data: noise, alt: "noise", imageOnly: true });
  const filePath = new URL(file.url).pathname;
  log(`image: ${file.size} bytes at ${filePath}`);

  await startServer({ env: env1, logFile: path.join(dir, "s1.log"), name: "server 1", build: "dist" });
  await startServer({
    env: serverEnv({ db, port: p2, dataDir: path.join(dir, "s2"), logLevel: "warn" }),
    logFile: path.join(dir, "s2.log"),
    name: "server 2",
    build: "dist",
  });
  const prodPort = await freePort();
  await startShippedNginx({
    bin: nginxBin,
    template: path.join(REPO_ROOT, "deploy/nginx.conf"),
    dir: path.join(dir, "nginx-prod"),
    port: prodPort,
    serverPorts: [p1, p2],
    sidecarPorts: [await freePort(), await freePort()],
    workers: 1,
    readyPath: filePath,
  });
  const served = Buffer.from(await (await fetch(`http://127.0.0.1:${prodPort}${filePath}`)).arrayBuffer());
  const root = path.join(dir, "www");
  mkdirSync(path.dirname(path.join(root, filePath)), { recursive: true });
  writeFileSync(path.join(root, filePath), served);
  const staticPort = await freePort();
  await startNginx({ bin: nginxBin, dir: path.join(dir, "nginx-static"), root, port: staticPort, readyPath: filePath });

  for (const c of [1, 16]) {
    for (const [name, port] of [
      ["nginx from disk", staticPort],
      ["deploy/nginx.conf → server", prodPort],
    ] as const) {
      const r = await load(`http://127.0.0.1:${port}${filePath}`, c, SECONDS, served.length);
      log(`${name}, ${c} concurrent: ${r.rps} req/s (${r.mbps} MB/s), p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, errors ${r.errors}`);
    }
  }
  // The server alone (no micro-cache): what every cache miss costs.
  const direct = await load(`http://127.0.0.1:${p1}${filePath}`, 16, SECONDS, served.length);
  log(
    `one server process directly, 16 concurrent: ${direct.rps} req/s (${direct.mbps} MB/s), p50 ${direct.p50.toFixed(2)} ms, p99 ${direct.p99.toFixed(2)} ms`,
  );

  const upTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    const target = await createUploadUrl(deps, me, { workspace: ws.slug });
    const body = randomBytes(20 * 1024 * 1024);
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${prodPort}${new URL(target.upload_url).pathname}`, { method: "PUT", body });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    upTimes.push(performance.now() - t0);
  }
  upTimes.sort((a, b) => a - b);
  log(`20 MB PUT through nginx: median ${upTimes[2]?.toFixed(0)} ms (${((20 / (upTimes[2] ?? 1)) * 1000).toFixed(1)} MB/s), best ${upTimes[0]?.toFixed(0)} ms`);

  const pushTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    const img = await sharp(randomBytes(1200 * 1000 * 3), { raw: { width: 1200, height: 1000, channels: 3 } })
      .jpeg({ quality: 95 })
      .toBuffer();
    const t0 = performance.now();
    await addFile(deps, me, { workspace: ws.slug, data: img, alt: "x", imageOnly: true });
    pushTimes.push(performance.now() - t0);
    if (i === 0) log(`push-sized JPEG: ${img.length} bytes, 1200×1000`);
  }
  pushTimes.sort((a, b) => a - b);
  log(`clean + hash + store a push-sized JPEG: median ${pushTimes[2]?.toFixed(0)} ms`);
});
