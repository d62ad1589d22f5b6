// Webhook endpoints (docs/events.md#webhooks): owners of a workspace add, list, change, rotate
// and remove them, read their delivery log and send a delivery again. Every rule here is the
// one the app (tRPC) and the MCP tools share; deliveries themselves are in delivery.ts.
import { lookup } from "node:dns/promises";
import type { Config } from "../../config";
import type { WebhookDeliveryDoc, WebhookDoc, WorkspaceDoc } from "../../db/index";
import { AppError, invalidInput } from "../../errors";
import { newId } from "../../ids";
import { WEBHOOK_MAX_PER_WORKSPACE, type AddWebhookInput, type DeliveryView, type WebhookView } from "../../schemas/webhooks";
import { actorOf, assertCan, type Principal } from "../access";
import { latestPosition } from "../changes/feed";
import { addSeconds, now } from "../clock";
import type { StoreDeps } from "../deps";
import { recordEvent } from "../events";
import { isNonPublicLiteral, isPublicAddress } from "../outbound";
import { readableWorkspace } from "../workspaces";
import { encryptSecret, newSigningSecret } from "./secrets";

/** How long a rotated-out secret keeps signing next to the new one. */
export const ROTATION_GRACE_SECONDS = 24 * 3600;

const LOG_PAGE = 50;

export function webhookView(h: WebhookDoc): WebhookView {
  const t = now();
  const previous = h.secrets.find((s) => s.until !== null && s.until > t);
  return {
    webhook_id: h._id,
    url: h.url,
    events: h.events,
    description: h.description,
    status: h.status,
    disabled_reason: h.disabledReason,
    failing_since: h.failingSince ? h.failingSince.toISOString() : null,
    previous_secret_until: previous?.until ? previous.until.toISOString() : null,
    created_at: h.createdAt.toISOString(),
  };
}

export function deliveryView(d: WebhookDeliveryDoc): DeliveryView {
  const last = d.log[d.log.length - 1];
  return {
    delivery_id: d._id,
    message_id: d.messageId,
    seq: d.seq,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.status === "pending" ? d.nextAttemptAt.toISOString() : null,
    last_status: last?.status ?? null,
    last_error: last?.error ?? null,
    log: d.log.map((l) => ({ at: l.at.toISOString(), status: l.status, error: l.error })),
    created_at: d.createdAt.toISOString(),
  };
}

/** The workspace, if the principal may manage its webhooks (owners, and their agents with mcp:write). */
async function managedWorkspace(deps: StoreDeps, principal: Principal, slug: string): Promise<WorkspaceDoc> {
  const ws = await readableWorkspace(deps, principal, slug);
  assertCan(principal, ws, "manage");
  if (ws.sandbox?.state === "unclaimed") throw new AppError("forbidden", "An unclaimed sandbox cannot have webhooks.");
  return ws;
}

async function endpointOf(deps: StoreDeps, ws: WorkspaceDoc, webhookId: string): Promise<WebhookDoc> {
  const h = await deps.database.c.webhooks.findOne({ _id: webhookId, workspaceId: ws._id });
  if (!h) throw new AppError("not_found", "No such webhook in this workspace.");
  return h;
}

/**
 * Why a URL may not receive deliveries, or null. https only and public addresses only,
 * unless WEBHOOK_ALLOW_PRIVATE_TARGETS (development and tests). A name is resolved here to
 * refuse an obvious mistake at once; every delivery checks the address it connects to again
 * (outbound.ts), so a name that later resolves elsewhere gains nothing.
 */
export async function targetProblem(config: Pick<Config, "WEBHOOK_ALLOW_PRIVATE_TARGETS">, raw: string): Promise<string | null> {
  const url = new URL(raw);
  if (config.WEBHOOK_ALLOW_PRIVATE_TARGETS) return null;
  if (url.protocol !== "https:") return "must be an https:// URL";
  if (isNonPublicLiteral(url.hostname)) return "must not be a loopback, private, link-local or metadata address";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "must not be a loopback, private, link-local or metadata address";
  try {
    const addresses = await lookup(host, { all: true });
    if (!addresses.some((a) => isPublicAddress(a.address))) return "must not resolve to a loopback, private, link-local or metadata address";
  } catch {
    return "must be a host name that resolves";
  }
  return null;
}

async function checkTarget(deps: StoreDeps, url: string): Promise<void> {
  const problem = await targetProblem(deps.config, url);
  if (problem) throw invalidInput([{ path: "url", code: "not_url", message: problem }]);
}

export async function addWebhook(deps: StoreDeps, principal: Principal, input: AddWebhookInput): Promise<{ webhook: WebhookView; secret: string }> {
  const ws = await managedWorkspace(deps, principal, input.workspace);
  await checkTarget(deps, input.url);
  const count = await deps.database.c.webhooks.countDocuments({ workspaceId: ws._id });
  if (count >= WEBHOOK_MAX_PER_WORKSPACE) throw new AppError("limit_exceeded", `A workspace can have at most ${WEBHOOK_MAX_PER_WORKSPACE} webhooks.`);
  const secret = newSigningSecret();
  const t = now();
  const doc: WebhookDoc = {
    _id: newId("whk"),
    workspaceId: ws._id,
    url: input.url,
    events: [...new Set(input.events ?? [])],
    description: input.description ?? "",
    secrets: [{ enc: encryptSecret(deps.config.SECRET_KEY, secret), createdAt: t, until: null }],
    status: "active",
    disabledAt: null,
    disabledReason: null,
    // From the newest change on: its own webhook.created is its first delivery.
    cursor: await latestPosition(deps, ws._id),
    failingSince: null,
    createdBy: actorOf(principal),
    createdAt: t,
  };
  await deps.database.c.webhooks.insertOne(doc);
  await recordEvent(deps, {
    workspaceId: ws._id,
    type: "webhook.created",
    actor: actorOf(principal),
    target: { kind: "webhook", id: doc._id, label: ws.name },
  });
  return { webhook: webhookView(doc), secret };
}

export async function listWebhooks(deps: StoreDeps, principal: Principal, workspace: string): Promise<WebhookView[]> {
  const ws = await managedWorkspace(deps, principal, workspace);
  const hooks = await deps.database.c.webhooks.find({ workspaceId: ws._id }).sort({ createdAt: 1, _id: 1 }).limit(WEBHOOK_MAX_PER_WORKSPACE).toArray();
  return hooks.map(webhookView);
}

/** Changes the event types, or turns a disabled endpoint back on (from the newest change: what it missed is in no queue). */
export async function updateWebhook(
  deps: StoreDeps,
  principal: Principal,
  input: { workspace: string; webhook_id: string; events?: string[] | undefined; enabled?: boolean | undefined },
): Promise<WebhookView> {
  const ws = await managedWorkspace(deps, principal, input.workspace);
  const h = await endpointOf(deps, ws, input.webhook_id);
  const set: Partial<WebhookDoc> = {};
  if (input.events) set.events = [...new Set(input.events)];
  if (input.enabled === true && h.status === "disabled") {
    Object.assign(set, { status: "active", disabledAt: null, disabledReason: null, failingSince: null, cursor: await latestPosition(deps, ws._id) });
  }
  if (input.enabled === false && h.status === "active") Object.assign(set, { status: "disabled", disabledAt: now(), disabledReason: null });
  if (Object.keys(set).length > 0) await deps.database.c.webhooks.updateOne({ _id: h._id }, { $set: set });
  return webhookView({ ...h, ...set });
}

/** A new secret, shown once; the previous one keeps signing too for ROTATION_GRACE_SECONDS. */
export async function rotateWebhookSecret(
  deps: StoreDeps,
  principal: Principal,
  input: { workspace: string; webhook_id: string },
): Promise<{ webhook: WebhookView; secret: string }> {
  const ws = await managedWorkspace(deps, principal, input.workspace);
  const h = await endpointOf(deps, ws, input.webhook_id);
  const t = now();
  const secret = newSigningSecret();
  const current = h.secrets.find((s) => s.until === null);
  // The one in use until now keeps signing for the grace period; any older one ends now.
  const secrets = [
    { enc: encryptSecret(deps.config.SECRET_KEY, secret), createdAt: t, until: null },
    ...(current ? [{ ...current, until: addSeconds(t, ROTATION_GRACE_SECONDS) }] : []),
  ];
  await deps.database.c.webhooks.updateOne({ _id: h._id }, { $set: { secrets } });
  return { webhook: webhookView({ ...h, secrets }), secret };
}

export async function removeWebhook(deps: StoreDeps, principal: Principal, input: { workspace: string; webhook_id: string }): Promise<void> {
  const ws = await managedWorkspace(deps, principal, input.workspace);
  const r = await deps.database.c.webhooks.deleteOne({ _id: input.webhook_id, workspaceId: ws._id });
  if (r.deletedCount !== 1) throw new AppError("not_found", "No such webhook in this workspace.");
  await deps.database.c.webhookDeliveries.deleteMany({ webhookId: input.webhook_id });
  await recordEvent(deps, {
    workspaceId: ws._id,
    type: "webhook.removed",
    actor: actorOf(principal),
    target: { kind: "webhook", id: input.webhook_id, label: ws.name },
  });
}

/** The newest deliveries of an endpoint, newest first. */
export async function listDeliveries(deps: StoreDeps, principal: Principal, input: { workspace: string; webhook_id: string }): Promise<DeliveryView[]> {
  const ws = await managedWorkspace(deps, principal, input.workspace);
  const h = await endpointOf(deps, ws, input.webhook_id);
  const found = await deps.database.c.webhookDeliveries.find({ webhookId: h._id }).sort({ webhookId: 1, seq: -1 }).limit(LOG_PAGE).toArray();
  return found.map(deliveryView);
}

/** Sends a delivery again (same body, same `webhook-id`), now and with a fresh retry schedule. */
export async function resendDelivery(deps: StoreDeps, principal: Principal, input: { workspace: string; delivery_id: string }): Promise<DeliveryView> {
  const ws = await managedWorkspace(deps, principal, input.workspace);
  const found = await deps.database.c.webhookDeliveries.findOne({ _id: input.delivery_id, workspaceId: ws._id });
  if (!found) throw new AppError("not_found", "No such delivery in this workspace.");
  const h = await deps.database.c.webhooks.findOne({ _id: found.webhookId });
  if (h?.status !== "active") throw new AppError("conflict", "This webhook is disabled: turn it back on first.");
  const d = await deps.database.c.webhookDeliveries.findOneAndUpdate(
    { _id: found._id },
    { $set: { status: "pending", attempts: 0, nextAttemptAt: now(), doneAt: null } },
    { returnDocument: "after" },
  );
  if (!d) throw new AppError("not_found", "No such delivery in this workspace.");
  return deliveryView(d);
}
