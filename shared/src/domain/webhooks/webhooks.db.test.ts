// Webhooks end to end in the domain: a real receiver on a loopback port (allowed in test mode,
// refused in production mode), signatures checked with the `standardwebhooks` library,
// retries with the same webhook-id, disabling, rotation, access and workspace isolation.
import { createServer, type IncomingHttpHeaders } from "node:http";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserDoc } from "../../db/index";
import { AppError } from "../../errors";
import { listen, testConfig, testDatabase, testDeps, type TestDatabase, type TestDeps } from "../../testing/index";
import { type Principal } from "../access";
import { createPage } from "../pages/create-page";
import { addMemberByEmail } from "../members";
import { findOrCreateConfirmedUser } from "../users";
import { createWorkspaceFor } from "../workspaces";
import { post, webhookPass } from "./delivery";
import { addWebhook, listDeliveries, listWebhooks, removeWebhook, resendDelivery, rotateWebhookSecret, targetProblem, updateWebhook } from "./endpoints";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver: records every POST; answers from `plan` (first entry first), then 200. */
async function receiver() {
  const got: Received[] = [];
  const plan: number[] = [];
  const http = await listen({
    listen: (port, host, cb) =>
      createServer((req, res) => {
        let body = "";
        req.on("data", (c: Buffer) => (body += c.toString()));
        req.on("end", () => {
          got.push({ headers: req.headers, body });
          res.statusCode = plan.shift() ?? 200;
          res.end("ok");
        });
      }).listen(port, host, cb),
  });
  return { url: `${http.url}/hook`, got, plan, close: http.close };
}

let database: TestDatabase;
let deps: TestDeps<TestDatabase>;
let owner: UserDoc;
let ownerP: Principal;
let rx: Awaited<ReturnType<typeof receiver>>;

beforeAll(async () => {
  database = await testDatabase("webhooks");
  deps = testDeps(database, { WEBHOOK_RETRY_SCHEDULE_SECONDS: "0,0,0,0" });
  owner = await findOrCreateConfirmedUser(deps, "hook-owner@example.com");
  ownerP = { kind: "user", user: owner };
  rx = await receiver();
});
afterAll(async () => {
  await rx.close();
  await database.drop();
});

async function expectCode(p: Promise<unknown>, code: string): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  return err as AppError;
}

/** Runs passes until `done()` holds (each pass sends what is due now; retries here wait 0 s). */
async function passUntil(done: () => boolean | Promise<boolean>, d = deps): Promise<void> {
  for (let i = 0; i < 50 && !(await done()); i++) await webhookPass(d);
  expect(await done()).toBe(true);
}

const bodies = (of: Received[]) => of.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
const verify = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    "webhook-id": String(r.headers["webhook-id"]),
    "webhook-timestamp": String(r.headers["webhook-timestamp"]),
    "webhook-signature": String(r.headers["webhook-signature"]),
  });

describe("deliveries", () => {
  it("sends each change of the workspace, signed (Standard Webhooks), with ids and versions and no content", async () => {
    await createWorkspaceFor(deps, ownerP, { slug: "hooked", name: "Hooked" });
    const { webhook, secret } = await addWebhook(deps, ownerP, { workspace: "hooked", url: rx.url });
    expect(secret).toMatch(/^whsec_/);
    expect(webhook.status).toBe("active");
    // The secret is stored encrypted, never in clear.
    const stored = JSON.stringify(await database.c.webhooks.findOne({ _id: webhook.webhook_id }));
    expect(stored).not.toContain(secret.slice(6));
    await createPage(deps, ownerP, { workspace: "hooked", slug: "hooked-page", title: "Secret title", body_markdown: "secret body" });
    await passUntil(() => rx.got.length >= 2);
    const [created, page] = bodies(rx.got);
    expect(created?.type).toBe("webhook.created");
    expect(page?.type).toBe("page.created");
    expect(page?.data).toMatchObject({ target: { kind: "page" }, version: 1, actor: { kind: "user", user_id: owner._id } });
    for (const r of rx.got) {
      expect(verify(secret, r)).toBeTruthy();
      expect(r.body).not.toContain("Secret title");
      expect(r.body).not.toContain("secret body");
    }
    // A wrong secret does not verify.
    expect(() => verify(`whsec_${Buffer.alloc(32, 1).toString("base64")}`, rx.got[1] as Received)).toThrow();
    const log = await listDeliveries(deps, ownerP, { workspace: "hooked", webhook_id: webhook.webhook_id });
    expect(log.map((d) => [d.type, d.status, d.last_status])).toEqual([
      ["page.created", "delivered", 200],
      ["webhook.created", "delivered", 200],
    ]);
    await removeWebhook(deps, ownerP, { workspace: "hooked", webhook_id: webhook.webhook_id });
    rx.got.length = 0;
  });

  it("retries a receiver that fails 3 times, and it gets the event once more with the same webhook-id", async () => {
    await createWorkspaceFor(deps, ownerP, { slug: "flaky", name: "Flaky" });
    const { webhook, secret } = await addWebhook(deps, ownerP, { workspace: "flaky", url: rx.url, events: ["page.created"] });
    rx.plan.push(500, 503, 500);
    await createPage(deps, ownerP, { workspace: "flaky", slug: "flaky-page", title: "T", body_markdown: "x" });
    const delivered = async () =>
      (await listDeliveries(deps, ownerP, { workspace: "flaky", webhook_id: webhook.webhook_id })).some((d) => d.status === "delivered");
    await passUntil(delivered);
    // Only the subscribed type; four attempts of one message.
    expect(rx.got).toHaveLength(4);
    expect(new Set(rx.got.map((r) => r.headers["webhook-id"])).size).toBe(1);
    for (const r of rx.got) expect(verify(secret, r)).toBeTruthy();
    const [d] = await listDeliveries(deps, ownerP, { workspace: "flaky", webhook_id: webhook.webhook_id });
    expect(d?.log.map((l) => l.status)).toEqual([500, 503, 500, 200]);
    expect(d?.attempts).toBe(4);
    // Sending again: the same webhook-id once more.
    rx.got.length = 0;
    await resendDelivery(deps, ownerP, { workspace: "flaky", delivery_id: d?.delivery_id ?? "" });
    await passUntil(() => rx.got.length === 1);
    expect(rx.got[0]?.headers["webhook-id"]).toBe(d?.message_id);
    rx.got.length = 0;
  });

  it("gives a delivery up after the schedule, and disables an endpoint failing for too long, telling the owners", async () => {
    const strict = { ...testDeps(database, { WEBHOOK_RETRY_SCHEDULE_SECONDS: "0", WEBHOOK_DISABLE_AFTER_SECONDS: "0" }) };
    await createWorkspaceFor(strict, ownerP, { slug: "down", name: "Down" });
    const { webhook } = await addWebhook(strict, ownerP, { workspace: "down", url: rx.url, events: ["page.created"] });
    rx.plan.push(500, 500, 500);
    await createPage(strict, ownerP, { workspace: "down", slug: "down-page", title: "T", body_markdown: "x" });
    await passUntil(async () => (await listWebhooks(strict, ownerP, "down"))[0]?.status === "disabled", strict);
    const [view] = await listWebhooks(strict, ownerP, "down");
    expect(view?.disabled_reason).toBe("failing");
    const ws = await database.c.workspaces.findOne({ slug: "down" });
    expect(await database.c.events.findOne({ workspaceId: ws?._id, type: "webhook.disabled" })).not.toBeNull();
    expect(strict.sent.map((m) => [m.to, m.subject])).toEqual([[owner.email, "A webhook of your Atelier workspace was disabled"]]);
    expect(strict.sent[0]?.text).not.toContain(rx.url);
    // Nothing is sent to a disabled endpoint; a resend is refused until it is turned back on.
    rx.got.length = 0;
    await createPage(strict, ownerP, { workspace: "down", slug: "down-page-2", title: "T", body_markdown: "x" });
    await webhookPass(strict);
    expect(rx.got).toHaveLength(0);
    const [last] = await listDeliveries(strict, ownerP, { workspace: "down", webhook_id: webhook.webhook_id });
    await expectCode(resendDelivery(strict, ownerP, { workspace: "down", delivery_id: last?.delivery_id ?? "" }), "conflict");
    rx.plan.length = 0;
    expect((await updateWebhook(strict, ownerP, { workspace: "down", webhook_id: webhook.webhook_id, enabled: true })).status).toBe("active");
    await resendDelivery(strict, ownerP, { workspace: "down", delivery_id: last?.delivery_id ?? "" });
    await passUntil(() => rx.got.length === 1, strict);
    rx.got.length = 0;
  });

  it("signs with both secrets after a rotation, so a receiver holding either verifies", async () => {
    await createWorkspaceFor(deps, ownerP, { slug: "rotating", name: "Rotating" });
    const { webhook, secret: old } = await addWebhook(deps, ownerP, { workspace: "rotating", url: rx.url, events: ["page.created"] });
    const rotated = await rotateWebhookSecret(deps, ownerP, { workspace: "rotating", webhook_id: webhook.webhook_id });
    expect(rotated.secret).not.toBe(old);
    expect(rotated.webhook.previous_secret_until).not.toBeNull();
    await createPage(deps, ownerP, { workspace: "rotating", slug: "rotating-page", title: "T", body_markdown: "x" });
    await passUntil(() => rx.got.length === 1);
    const r = rx.got[0] as Received;
    expect(String(r.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verify(old, r)).toBeTruthy();
    expect(verify(rotated.secret, r)).toBeTruthy();
    rx.got.length = 0;
  });
});

describe("access and isolation", () => {
  it("lets only owners manage webhooks, and an endpoint receives only its own workspace's events", async () => {
    await createWorkspaceFor(deps, ownerP, { slug: "mine", name: "Mine" });
    await createWorkspaceFor(deps, ownerP, { slug: "other", name: "Other" });
    const editor = await findOrCreateConfirmedUser(deps, "hook-editor@example.com");
    await addMemberByEmail(deps, ownerP, { workspace: "mine", email: editor.email, role: "editor" });
    const editorP: Principal = { kind: "user", user: editor };
    await expectCode(addWebhook(deps, editorP, { workspace: "mine", url: rx.url }), "forbidden");
    await expectCode(listWebhooks(deps, editorP, "mine"), "forbidden");
    const stranger = await findOrCreateConfirmedUser(deps, "hook-stranger@example.com");
    await expectCode(listWebhooks(deps, { kind: "user", user: stranger }, "mine"), "not_found");
    expect(await database.c.webhooks.countDocuments({ workspaceId: (await database.c.workspaces.findOne({ slug: "mine" }))?._id })).toBe(0);

    const { webhook } = await addWebhook(deps, ownerP, { workspace: "mine", url: rx.url, events: ["page.created"] });
    // A webhook of another workspace cannot be reached through this one.
    await expectCode(removeWebhook(deps, ownerP, { workspace: "other", webhook_id: webhook.webhook_id }), "not_found");
    await createPage(deps, ownerP, { workspace: "other", slug: "other-page", title: "T", body_markdown: "x" });
    await createPage(deps, ownerP, { workspace: "mine", slug: "mine-page", title: "T", body_markdown: "x" });
    await passUntil(() => rx.got.length >= 1);
    await webhookPass(deps);
    const mine = await database.c.workspaces.findOne({ slug: "mine" });
    expect(bodies(rx.got).map((b) => b.data.workspace_id)).toEqual([mine?._id]);
    rx.got.length = 0;
  });
});

describe("where deliveries may go", () => {
  // Production mode's switch, with this process's SECRET_KEY (the endpoints' secrets are encrypted with it).
  const production = () => ({ ...deps.config, WEBHOOK_ALLOW_PRIVATE_TARGETS: false });

  it("is on for loopback in test mode and off in production", () => {
    expect(testConfig().WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(true);
    expect(testConfig({ NODE_ENV: "production", SECRET_KEY: "k".repeat(32) }).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(false);
  });

  it("refuses loopback, private, link-local, metadata and non-https targets in production mode, nothing written", async () => {
    const prod = { ...deps, config: production() };
    for (const url of [
      "https://127.0.0.1/hook",
      "https://10.1.2.3/hook",
      "https://192.168.1.1/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/hook",
      "https://[::ffff:127.0.0.1]/hook",
      "https://[fd00::1]/hook",
      "https://localhost/hook",
      "http://example.com/hook",
    ]) {
      expect(await targetProblem(production(), url), url).not.toBeNull();
    }
    await createWorkspaceFor(deps, ownerP, { slug: "prod-like", name: "Prod" });
    const before = await database.c.webhooks.countDocuments({});
    const err = await expectCode(addWebhook(prod, ownerP, { workspace: "prod-like", url: "https://169.254.169.254/x" }), "invalid_request");
    expect(err.details?.issues?.[0]?.path).toBe("url");
    expect(await database.c.webhooks.countDocuments({})).toBe(before);
  });

  it("refuses at delivery time too: a name that resolves to loopback, checked on the address connected to", async () => {
    const { webhook } = await addWebhook(deps, ownerP, { workspace: "prod-like", url: rx.url });
    const h = await database.c.webhooks.findOne({ _id: webhook.webhook_id });
    if (!h) throw new Error("no webhook");
    const port = new URL(rx.url).port;
    const named = { ...h, url: `https://localhost:${port}/hook` };
    const o = await post({ config: production() }, named, { messageId: "evt_x", payload: "{}" });
    expect(o).toEqual({ status: null, error: expect.stringContaining("Refused") });
    const literal = await post({ config: production() }, h, { messageId: "evt_x", payload: "{}" });
    expect(literal.error).toContain("Refused");
    expect(rx.got).toHaveLength(0);
    await removeWebhook(deps, ownerP, { workspace: "prod-like", webhook_id: webhook.webhook_id });
  });
});
