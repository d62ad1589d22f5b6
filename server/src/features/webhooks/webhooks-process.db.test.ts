// Deliveries survive a stopped server: the delivery is in the database before it is sent, so a
// server killed mid-send loses nothing, and a second server process picks it up once the
// first one's lease has run out, with the same webhook-id.
import type { ChildProcess } from "node:child_process";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@atelier/shared/devtools/embedded-db";
import { createPage } from "@atelier/shared/domain/pages/create-page";
import { findOrCreateConfirmedUser } from "@atelier/shared/domain/users";
import { addWebhook } from "@atelier/shared/domain/webhooks/endpoints";
import { createWorkspaceFor } from "@atelier/shared/domain/workspaces";
import { listen, startSourceProcess, testDatabase, testDeps, testMongoUri, type SourceProcess } from "@atelier/shared/testing";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** Resolves once `check` holds (checked every 50 ms, at most `tries` times). */
async function until(check: () => boolean | Promise<boolean>, tries = 600): Promise<void> {
  for (let i = 0; i < tries && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
  expect(await check()).toBe(true);
}

function startServer(env: Record<string, string>): SourceProcess {
  return startSourceProcess(serverDir, { NODE_ENV: "test", LOG_LEVEL: "info", ANONYMOUS_REGISTRATION_ENABLED: "false", ...env });
}

describe("a server stopped mid-delivery", () => {
  it("loses no delivery: a second process sends it again with the same webhook-id", async () => {
    const database = await testDatabase("whproc");
    const secretKey = "s".repeat(40);
    const deps = testDeps(database, { SECRET_KEY: secretKey });
    // The receiver holds the first request open (the first server dies while sending it) and answers later ones.
    const got: { headers: IncomingHttpHeaders; body: string }[] = [];
    const held: ServerResponse[] = [];
    const rx = await listen({
      listen: (port, host, cb) =>
        createServer((req, res) => {
          let body = "";
          req.on("data", (c: Buffer) => (body += c.toString()));
          req.on("end", () => {
            got.push({ headers: req.headers, body });
            if (got.length === 1) held.push(res);
            else res.end("ok");
          });
        }).listen(port, host, cb),
    });
    const children: ChildProcess[] = [];
    try {
      const owner = await findOrCreateConfirmedUser(deps, "proc-owner@example.com");
      const principal = { kind: "user" as const, user: owner };
      await createWorkspaceFor(deps, principal, { slug: "durable", name: "Durable" });
      const { webhook, secret } = await addWebhook(deps, principal, { workspace: "durable", url: `${rx.url}/hook`, events: ["page.created"] });
      const env = { MONGODB_URI: testMongoUri(), MONGODB_DB: database.name, SECRET_KEY: secretKey, WEBHOOK_TIMEOUT_SECONDS: "2" };

      const first = startServer({ ...env, SERVER_PORT: String(await freePort()) });
      children.push(first.child);
      await first.waitFor("server listening");
      await createPage(deps, principal, { workspace: "durable", slug: "durable-page", title: "T", body_markdown: "x" });
      await until(() => got.length === 1);
      // Killed mid-send: no answer was recorded, and the delivery is still there, pending.
      first.child.kill("SIGKILL");
      await new Promise((r) => first.child.once("exit", r));
      for (const res of held) res.destroy();
      const pending = await database.c.webhookDeliveries.findOne({ webhookId: webhook.webhook_id });
      expect(pending).toMatchObject({ status: "pending", attempts: 0 });

      const second = startServer({ ...env, SERVER_PORT: String(await freePort()) });
      children.push(second.child);
      await until(async () => (await database.c.webhookDeliveries.findOne({ webhookId: webhook.webhook_id }))?.status === "delivered");
      expect(got).toHaveLength(2);
      expect(got[1]?.headers["webhook-id"]).toBe(got[0]?.headers["webhook-id"]);
      expect(got[1]?.body).toBe(got[0]?.body);
      const r = got[1];
      expect(
        new Webhook(secret).verify(r?.body ?? "", {
          "webhook-id": String(r?.headers["webhook-id"]),
          "webhook-timestamp": String(r?.headers["webhook-timestamp"]),
          "webhook-signature": String(r?.headers["webhook-signature"]),
        }),
      ).toMatchObject({ type: "page.created" });
    } finally {
      for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
      await rx.close();
      await database.drop();
    }
  }, 60_000);
});
