import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

describe("server start-up", () => {
  it("stops with a message naming a bad configuration variable", () => {
    const r = spawnSync(path.join(serverDir, "node_modules/.bin/tsx"), ["src/main.ts"], {
      cwd: serverDir,
      env: { PATH: process.env.PATH, NODE_ENV: "test", SERVER_PORT: "not-a-port", MONGODB_URI: "mongodb://127.0.0.1:1/" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("Invalid configuration");
    expect(r.stderr).toContain("SERVER_PORT: must be a whole number from 1 to 65535");
    // A cold tsx start takes several seconds on a busy 2-core machine: wait as long as spawnSync may.
  }, 40_000);
});
