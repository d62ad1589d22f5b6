// The server as a real process: it finishes in-flight requests on SIGTERM, then exits 0.
import { spawn } from "node:child_process";
import { connect } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@atelier/shared/devtools/embedded-db";
import { testMongoUri } from "@atelier/shared/testing";
import { describe, expect, it } from "vitest";

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

describe("graceful shutdown", () => {
  it("lets a request that is still arriving finish after SIGTERM, refuses new ones, and exits 0", async () => {
    const port = await freePort();
    const child = spawn(path.join(serverDir, "node_modules/.bin/tsx"), ["src/main.ts"], {
      cwd: serverDir,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "test",
        SERVER_PORT: String(port),
        MONGODB_URI: testMongoUri(),
        MONGODB_DB: `shutdown_${port}`,
        LOG_LEVEL: "info",
        ANONYMOUS_REGISTRATION_ENABLED: "false",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    try {
      // Starting tsx and the server takes seconds, and tens of them on a busy machine.
      for (let i = 0; i < 600 && !out.includes("server listening"); i++) await new Promise((r) => setTimeout(r, 100));
      expect(out).toContain("server listening");

      // A POST whose body arrives in two halves, with SIGTERM in between.
      const body = JSON.stringify({ type: "anonymous", requested_credential_type: "mcp_write_token" });
      const socket = connect(port, "127.0.0.1");
      let answer = "";
      socket.on("data", (b: Buffer) => (answer += b.toString()));
      await new Promise<void>((r) => socket.once("connect", () => r()));
      socket.write(
        `POST /agent/auth HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
      );
      await new Promise((r) => setTimeout(r, 200));
      child.kill("SIGTERM");
      await new Promise((r) => setTimeout(r, 300));
      // The listener is closed: a new connection is refused.
      const refused = await new Promise<boolean>((resolve) => {
        const s = connect(port, "127.0.0.1");
        s.once("error", () => resolve(true));
        s.once("connect", () => {
          s.destroy();
          resolve(false);
        });
      });
      expect(refused).toBe(true);
      socket.write(body.slice(10));
      await new Promise<void>((r) => socket.once("close", () => r()));
      // The in-flight request got its real answer (anonymous registration is off here).
      expect(answer).toMatch(/^HTTP\/1\.1 403/);
      expect(answer).toContain("registration_disabled");
      expect(await exited).toBe(0);
      expect(out).toContain("stopped");
    } finally {
      child.kill("SIGKILL");
    }
  }, 90_000);
});
