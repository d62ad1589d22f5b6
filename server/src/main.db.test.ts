// The server as a real process: it finishes in-flight requests on SIGTERM, then exits 0; and
// the reading figures it holds in memory are written before it exits (issue 32: a clean
// shutdown loses no counts).
import { appendFileSync, mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@atelier/shared/devtools/embedded-db";
import { createPage } from "@atelier/shared/domain/pages/create-page";
import { findOrCreateConfirmedUser } from "@atelier/shared/domain/users";
import { createWorkspaceFor, setVisibility } from "@atelier/shared/domain/workspaces";
import { startSourceProcess, testDatabase, testDeps, testMongoUri } from "@atelier/shared/testing";
import { describe, expect, it } from "vitest";

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The server from its sources on `port` with `env` added; resolves once it listens. */
async function startServer(port: number, env: Record<string, string>) {
  const proc = startSourceProcess(serverDir, { NODE_ENV: "test", SERVER_PORT: String(port), MONGODB_URI: testMongoUri(), LOG_LEVEL: "info", ...env });
  await proc.waitFor("server listening");
  return proc;
}

describe("graceful shutdown", () => {
  it("lets a request that is still arriving finish after SIGTERM, refuses new ones, and exits 0", async () => {
    const port = await freePort();
    const { child, exited, out } = await startServer(port, { MONGODB_DB: `shutdown_${port}`, ANONYMOUS_REGISTRATION_ENABLED: "false" });
    try {
      expect(out()).toContain("server listening");

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
      expect(out()).toContain("stopped");
    } finally {
      child.kill("SIGKILL");
    }
  }, 90_000);
});

describe("reading figures on a clean shutdown", () => {
  it("writes the views counted since the last flush before the process exits", async () => {
    const database = await testDatabase("shutdown-views");
    const deps = testDeps(database);
    const user = await findOrCreateConfirmedUser(deps, `views-${Date.now()}@example.com`);
    const as = { kind: "user" as const, user };
    const ws = `views-${Date.now().toString(36)}`;
    await createWorkspaceFor(deps, as, { slug: ws, name: "Views" });
    await setVisibility(deps, as, ws, "public");
    const page = await createPage(deps, as, { workspace: ws, slug: "read-me", title: "Read me", body_markdown: "Hello." });

    const port = await freePort();
    const viewLog = path.join(mkdtempSync(path.join(tmpdir(), "atelier-views-")), "views.log");
    // No flush on a timer during the test: only the shutdown writes them.
    const { child, exited, out, waitFor } = await startServer(port, {
      MONGODB_DB: database.name,
      ANALYTICS_FLUSH_SECONDS: "300",
      ANALYTICS_NGINX_LOG: viewLog,
    });
    const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
    try {
      expect(out()).toContain("server listening");
      await waitFor("reading nginx's view log", 5_000);
      // Six reads nginx logged (its view log), then six this process served itself.
      for (let i = 0; i < 6; i++) appendFileSync(viewLog, `GET\t200\t/a/read-me\t-\tdocument\t-\t-\t-\t${firefox}\t-\t198.51.100.${(i % 3) + 1}\n`);
      for (let i = 0; i < 6; i++) {
        const res = await fetch(`http://127.0.0.1:${port}/a/read-me`, { headers: { "user-agent": firefox, "x-forwarded-for": `198.51.100.${(i % 3) + 1}` } });
        expect(res.status).toBe(200);
      }
      expect(await database.c.pageViews.countDocuments({ pageId: page.page.page_id })).toBe(0);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      const rows = await database.c.pageViews.find({ pageId: page.page.page_id }).toArray();
      expect(rows.map((r) => ({ views: r.views, uniques: r.uniques }))).toEqual([{ views: 12, uniques: 3 }]);
    } finally {
      child.kill("SIGKILL");
      await database.drop();
    }
  }, 120_000);
});
