// Webhook deliveries (docs/events.md#webhooks), driven from the change feed and durable:
//  1. Recording: each active endpoint has a cursor in its workspace's feed. A pass reads the
//     changes after it, inserts one delivery per matching change at `${webhookId}:${seq}`
//     (a duplicate key means it was recorded before), then moves the cursor, conditionally.
//     A process stopped in between leaves the cursor behind and the next pass records the
//     same deliveries again, which is no second delivery.
//  2. Sending: any process takes a due delivery with a lease (one conditional update picks
//     one winner, as the sweeper does), sends it, and records the answer. A process stopped
//     mid-send leaves the lease to run out; then another process sends it again, with the
//     same `webhook-id`. So a delivery is sent at least once; receivers dedupe by webhook-id.
//  3. Failing: a failed attempt is retried after WEBHOOK_RETRY_SCHEDULE_SECONDS; after the
//     last one the delivery is failed (an owner may send it again). An endpoint whose every
//     attempt has failed for WEBHOOK_DISABLE_AFTER_SECONDS is disabled, with an event and an
//     e-mail to the workspace's owners.
// Longer than 300 lines on purpose: recording, sending, retrying and disabling are one
// protocol over the same two collections, and each step relies on the others' rules.
import type { IncomingMessage } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { Webhook } from "standardwebhooks";
import type { ChangeDoc, WebhookDeliveryDoc, WebhookDoc } from "../../db/index";
import { AppError, isDuplicateKey } from "../../errors";
import { readChanges } from "../changes/feed";
import { addSeconds, now } from "../clock";
import type { Deps } from "../deps";
import { unlinkableText } from "../display-text";
import { recordEvent } from "../events";
import { guardedLookup, isNonPublicLiteral, NON_PUBLIC_CODE } from "../outbound";
import { decryptSecret } from "./secrets";

type WebhookDeps = Pick<Deps, "config" | "database" | "mailer">;

const RECORD_BATCH = 100;
const SEND_BATCH = 20;
const LOG_KEPT = 10;
const RESPONSE_MAX_BYTES = 64 * 1024;

/** The body of a delivery: the change's type, ids and version, never content or secrets. */
export function deliveryPayload(change: ChangeDoc): string {
  return JSON.stringify({
    type: change.type,
    timestamp: change.at.toISOString(),
    data: {
      workspace_id: change.workspaceId,
      seq: change.seq,
      event_id: change.eventId,
      actor: { kind: change.actor.kind, user_id: change.actor.userId, token_id: change.actor.tokenId ?? null },
      target: { kind: change.target.kind, id: change.target.id },
      version: change.version ?? null,
    },
  });
}

function wants(h: Pick<WebhookDoc, "events">, type: string): boolean {
  return h.events.length === 0 || h.events.includes(type);
}

/** Step 1 for one endpoint: records the deliveries of the changes after its cursor. Returns how many were new. */
async function recordFor(deps: WebhookDeps, h: WebhookDoc): Promise<number> {
  const { database } = deps;
  let page;
  try {
    page = await readChanges(deps, h.workspaceId, h.cursor, RECORD_BATCH);
  } catch (err) {
    // Behind what the feed keeps (an endpoint turned off for longer than the retention): go on from the oldest kept.
    if (err instanceof AppError && err.code === "cursor_expired") {
      const oldest = Number(err.details?.oldest_kept ?? h.cursor + 1);
      await database.c.webhooks.updateOne({ _id: h._id, cursor: h.cursor }, { $set: { cursor: Math.max(h.cursor, oldest - 1) } });
      return 0;
    }
    throw err;
  }
  let added = 0;
  const t = now();
  for (const change of page.changes) {
    if (!wants(h, change.type)) continue;
    try {
      await database.c.webhookDeliveries.insertOne({
        _id: `${h._id}:${change.seq}`,
        webhookId: h._id,
        workspaceId: h.workspaceId,
        seq: change.seq,
        messageId: change.eventId,
        type: change.type,
        payload: deliveryPayload(change),
        status: "pending",
        attempts: 0,
        nextAttemptAt: t,
        leaseUntil: t,
        log: [],
        createdAt: t,
        doneAt: null,
      });
      added++;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
  if (page.next !== h.cursor) await database.c.webhooks.updateOne({ _id: h._id, cursor: h.cursor }, { $set: { cursor: page.next } });
  return added;
}

/** Step 1 for every active endpoint whose workspace has changes after its cursor. */
export async function recordDeliveries(deps: WebhookDeps): Promise<number> {
  const { database } = deps;
  const hooks = await database.c.webhooks.find({ status: "active" }).limit(5000).toArray();
  if (hooks.length === 0) return 0;
  const wsIds = [...new Set(hooks.map((h) => h.workspaceId))];
  const heads = await database.c.changeHeads.find({ _id: { $in: wsIds } }, { projection: { seq: 1 } }).toArray();
  const headOf = new Map(heads.map((h) => [h._id, h.seq]));
  let added = 0;
  let failure: unknown = null;
  for (const h of hooks) {
    // One endpoint's trouble (its feed unreadable for a moment) holds no other back.
    if ((headOf.get(h.workspaceId) ?? 0) > h.cursor) added += await recordFor(deps, h).catch((err: unknown) => ((failure ??= err), 0));
  }
  if (failure) throw failure;
  return added;
}

/** The signatures of a body: one by each secret that still signs (during a rotation, two). */
export function signatures(secretKey: string, h: Pick<WebhookDoc, "secrets">, messageId: string, at: Date, body: string): string {
  const t = now();
  return h.secrets
    .filter((s) => s.until === null || s.until > t)
    .map((s) => new Webhook(decryptSecret(secretKey, s.enc)).sign(messageId, at, body))
    .join(" ");
}

interface Outcome {
  status: number | null;
  error: string | null;
}

/** One POST of a delivery: no redirects followed, public addresses only (unless allowed), one deadline. */
export async function post(deps: Pick<WebhookDeps, "config">, h: WebhookDoc, d: Pick<WebhookDeliveryDoc, "messageId" | "payload">): Promise<Outcome> {
  const { config } = deps;
  const allowPrivate = config.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  let url: URL;
  try {
    url = new URL(h.url);
  } catch {
    return { status: null, error: "The endpoint's URL is not valid." };
  }
  if (!allowPrivate && (url.protocol !== "https:" || isNonPublicLiteral(url.hostname))) {
    return { status: null, error: "Refused: the endpoint is not an https URL on a public address." };
  }
  const at = now();
  const headers = {
    "content-type": "application/json",
    "user-agent": "Atelier-Webhooks",
    "webhook-id": d.messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": "",
  };
  try {
    headers["webhook-signature"] = signatures(config.SECRET_KEY, h, d.messageId, at, d.payload);
  } catch {
    // A secret encrypted under another SECRET_KEY: nothing is sent unsigned.
    return { status: null, error: "Not sent: the signing secret cannot be read (was SECRET_KEY changed?). Rotate the secret." };
  }
  const timeoutMs = config.WEBHOOK_TIMEOUT_SECONDS * 1000;
  return new Promise<Outcome>((resolve) => {
    let settled = false;
    const done = (o: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(o);
    };
    const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(
      url,
      { method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(d.payload) }, lookup: guardedLookup(allowPrivate), timeout: timeoutMs },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        // The body is read (so the connection ends cleanly) and dropped: only the status is kept.
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > RESPONSE_MAX_BYTES) res.destroy();
        });
        const finish = () =>
          done(
            status >= 200 && status < 300
              ? { status, error: null }
              : { status, error: status >= 300 && status < 400 ? "Redirects are not followed: give the final URL." : `The endpoint answered ${status}.` },
          );
        res.on("end", finish);
        res.on("close", finish);
        res.on("error", finish);
      },
    );
    const deadline = setTimeout(() => {
      req.destroy();
      done({ status: null, error: `No answer within ${config.WEBHOOK_TIMEOUT_SECONDS} s.` });
    }, timeoutMs);
    req.on("timeout", () => req.destroy());
    req.on("error", (err: NodeJS.ErrnoException) => {
      done({
        status: null,
        error:
          err.code === NON_PUBLIC_CODE
            ? "Refused: the endpoint's host resolves to a loopback, private, link-local or metadata address."
            : `Could not connect (${err.code ?? "network error"}).`,
      });
    });
    req.end(d.payload);
  });
}

/** How long a process holds a delivery it is sending: longer than one attempt may take. */
function leaseSeconds(config: WebhookDeps["config"]): number {
  return config.WEBHOOK_TIMEOUT_SECONDS * 2 + 1;
}

/** Takes a due delivery for this process, or null when another took it first. */
async function claim(deps: WebhookDeps, d: WebhookDeliveryDoc): Promise<WebhookDeliveryDoc | null> {
  const t = now();
  return deps.database.c.webhookDeliveries.findOneAndUpdate(
    { _id: d._id, status: "pending", leaseUntil: { $lte: t }, nextAttemptAt: { $lte: t } },
    { $set: { leaseUntil: addSeconds(t, leaseSeconds(deps.config)) } },
    { returnDocument: "after" },
  );
}

/** Ends an endpoint whose every attempt has failed for too long: once, with an event and an e-mail to the owners. */
async function disableIfFailing(deps: WebhookDeps, webhookId: string): Promise<void> {
  const { database, config } = deps;
  const t = now();
  const h = await database.c.webhooks.findOne({ _id: webhookId });
  if (!h || h.status !== "active" || !h.failingSince) return;
  if (t.getTime() - h.failingSince.getTime() < config.WEBHOOK_DISABLE_AFTER_SECONDS * 1000) return;
  const won = await database.c.webhooks.updateOne(
    { _id: h._id, status: "active", failingSince: h.failingSince },
    { $set: { status: "disabled", disabledAt: t, disabledReason: "failing" } },
  );
  if (won.modifiedCount !== 1) return;
  // What was still waiting will not be sent: the log says so, and an owner may send it again.
  const waiting = await database.c.webhookDeliveries.find({ webhookId: h._id, status: "pending" }, { projection: { _id: 1, log: 1 } }).toArray();
  for (const w of waiting) {
    await database.c.webhookDeliveries.updateOne(
      { _id: w._id, status: "pending" },
      { $set: { status: "failed", doneAt: t, log: [...w.log, { at: t, status: null, error: "Not sent: the endpoint was disabled." }].slice(-LOG_KEPT) } },
    );
  }
  const ws = await database.c.workspaces.findOne({ _id: h.workspaceId });
  if (!ws) return;
  await recordEvent(deps, {
    workspaceId: ws._id,
    type: "webhook.disabled",
    actor: { kind: "user", userId: null, label: "Atelier" },
    target: { kind: "webhook", id: h._id, label: ws.name },
  });
  const owners = ws.members.filter((m) => m.role === "owner").map((m) => m.userId);
  const users = owners.length > 0 ? await database.c.users.find({ _id: { $in: owners } }, { projection: { email: 1 } }).toArray() : [];
  const name = unlinkableText(ws.name, 100);
  const text = `Atelier stopped sending webhooks of the workspace “${name}” to an endpoint: every delivery has failed since ${h.failingSince.toISOString()}.\n\nThe endpoint's address is not repeated here. Open the workspace's settings, Webhooks, to see its delivery log, fix the receiver and turn it back on:\n\n    ${config.BASE_URL}/buckets/${ws.slug}?tab=settings\n`;
  for (const u of users) {
    await deps.mailer
      .send({
        to: u.email,
        subject: "A webhook of your Atelier workspace was disabled",
        text,
        html: `<pre style="font-family:system-ui,sans-serif;white-space:pre-wrap">${escapeHtml(text)}</pre>`,
      })
      .catch(() => undefined);
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Records one attempt's outcome: delivered, retried later, or failed for good. */
async function settle(deps: WebhookDeps, d: WebhookDeliveryDoc, o: Outcome): Promise<void> {
  const { database, config } = deps;
  const t = now();
  const attempts = d.attempts + 1;
  const log = [...d.log, { at: t, status: o.status, error: o.error }].slice(-LOG_KEPT);
  if (o.error === null) {
    await database.c.webhookDeliveries.updateOne({ _id: d._id, status: "pending" }, { $set: { status: "delivered", attempts, log, doneAt: t, leaseUntil: t } });
    await database.c.webhooks.updateOne({ _id: d.webhookId }, { $set: { failingSince: null } });
    return;
  }
  const wait = config.WEBHOOK_RETRY_SCHEDULE_SECONDS[attempts - 1];
  await database.c.webhookDeliveries.updateOne(
    { _id: d._id, status: "pending" },
    wait === undefined
      ? { $set: { status: "failed", attempts, log, doneAt: t, leaseUntil: t } }
      : { $set: { attempts, log, nextAttemptAt: addSeconds(t, wait), leaseUntil: t } },
  );
  await database.c.webhooks.updateOne({ _id: d.webhookId, failingSince: null }, { $set: { failingSince: t } });
  await disableIfFailing(deps, d.webhookId);
}

/** Step 2: sends the due deliveries this process wins, at once. Returns how many were sent. */
export async function sendDue(deps: WebhookDeps): Promise<number> {
  const { database } = deps;
  const t = now();
  const due = await database.c.webhookDeliveries
    .find({ status: "pending", nextAttemptAt: { $lte: t } })
    .sort({ nextAttemptAt: 1, _id: 1 })
    .limit(SEND_BATCH * 2)
    .toArray();
  const mine: WebhookDeliveryDoc[] = [];
  for (const d of due) {
    if (mine.length >= SEND_BATCH) break;
    if (d.leaseUntil > t) continue;
    const won = await claim(deps, d);
    if (won) mine.push(won);
  }
  // One endpoint's deliveries in feed order, one after the other; endpoints side by side.
  const byEndpoint = new Map<string, WebhookDeliveryDoc[]>();
  for (const d of mine) byEndpoint.set(d.webhookId, [...(byEndpoint.get(d.webhookId) ?? []), d]);
  await Promise.all(
    [...byEndpoint.values()].map(async (list) => {
      for (const d of list.sort((a, b) => a.seq - b.seq)) await sendOne(deps, d);
    }),
  );
  return mine.length;
}

async function sendOne(deps: WebhookDeps, d: WebhookDeliveryDoc): Promise<void> {
  const h = await deps.database.c.webhooks.findOne({ _id: d.webhookId });
  if (!h) {
    await deps.database.c.webhookDeliveries.deleteOne({ _id: d._id }); // its endpoint was removed
    return;
  }
  if (h.status !== "active") return settleDisabled(deps, d);
  await settle(deps, d, await post(deps, h, d));
}

async function settleDisabled(deps: WebhookDeps, d: WebhookDeliveryDoc): Promise<void> {
  const t = now();
  await deps.database.c.webhookDeliveries.updateOne(
    { _id: d._id, status: "pending" },
    {
      $set: {
        status: "failed",
        doneAt: t,
        leaseUntil: t,
        log: [...d.log, { at: t, status: null, error: "Not sent: the endpoint is disabled." }].slice(-LOG_KEPT),
      },
    },
  );
}

/** One pass of both steps (tests call it to skip the wait). */
export async function webhookPass(deps: WebhookDeps): Promise<{ recorded: number; sent: number }> {
  const recorded = await recordDeliveries(deps);
  const sent = await sendDue(deps);
  return { recorded, sent };
}

/** The sweeper's part: deliveries done longer ago than the change feed keeps changes are dropped. */
export async function pruneDeliveries(deps: Pick<Deps, "database" | "config">): Promise<number> {
  const cutoff = addSeconds(now(), -deps.config.CHANGES_RETENTION_SECONDS);
  const r = await deps.database.c.webhookDeliveries.deleteMany({ status: { $in: ["delivered", "failed"] }, doneAt: { $lte: cutoff } });
  return r.deletedCount;
}

/**
 * Runs passes every `intervalMs` (and at once on `kick()`, when the change feed moved) until
 * stopped; passes never overlap within a process. Any number of processes may run it.
 */
export function startWebhookWorker(deps: WebhookDeps, intervalMs: number, onError: (err: unknown) => void): { kick(): void; stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  let again = false;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = webhookPass(deps)
      .catch(onError)
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          tick();
        }
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    kick: tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
