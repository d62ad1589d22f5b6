import { MongoClient } from "mongodb";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
const dir = mkdtempSync("/tmp/dbt-");
const port = 39000 + Math.floor(Math.random() * 1000);
const child = spawn("/work/main/.tools/bin/atelier-ferretdb", ["--listen-addr", `127.0.0.1:${port}`, "--handler", "sqlite", "--sqlite-url", `file:${dir}/`], { stdio: "ignore" });
await new Promise((r) => setTimeout(r, 1500));
const c = new MongoClient(`mongodb://127.0.0.1:${port}/`); await c.connect();
const col = c.db("x").collection("pages");
await col.insertOne({ _id: "b", slug: "small", html: "x" });
for (const label of ["ping", "id-small", "ping", "id-small"]) {
  const n = 1000;
  const cpu0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    if (label === "id-small") await col.findOne({ _id: "b" });
    else await c.db("x").command({ ping: 1 });
  }
  const cpu = process.cpuUsage(cpu0);
  console.log(label.padEnd(16), ((performance.now() - t0) / n * 1000).toFixed(0), "us wall/op; client user", (cpu.user / n).toFixed(0), "us sys", (cpu.system / n).toFixed(0), "us");
}
await c.close(); child.kill(); rmSync(dir, { recursive: true, force: true });
