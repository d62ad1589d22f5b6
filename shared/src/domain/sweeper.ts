// The lifecycle sweeper (docs/contract.md#sandboxes-limits-and-lifecycle). Each transition is one conditional update that picks a
// single winner, followed by idempotent steps, so any number of server processes can sweep
// at once and an interrupted sweep (or claim, or write) is finished by the next one.
import { backfillSearchIndex } from "./search-index";
import { sweepAnalytics } from "./analytics/retention";
import type { Collection, Document, Filter, WithId } from "mongodb";
import type { RegistrationDoc } from "../db/index";
import { isHidden } from "./access";
import { syncArtifactVisibility } from "./artifacts";
import { addSeconds, now } from "./clock";
import type { StoreDeps } from "./deps";
import { dropUnfinishedFile } from "./files";
import { countUsage } from "./limits";
import { finishDelete } from "./pages/delete-page";
import { PAGES } from "./pages/page-versions";
import { finishClaim } from "./registrations";
import { clearEndedWindows } from "./rate-limits";
import { pruneChanges } from "./changes/feed";
import { pruneDeliveries } from "./webhooks/delivery";
import { clearExpiredOAuthRecords } from "./oauth-store";
import { ROWS } from "./tables/row-versions";
import { finishPendingVersions, finishVersion } from "./versioned-write";
import { finishWorkspaceDelete } from "./workspaces";

type SweepDeps = StoreDeps;

export interface SweepReport {
  expired: number;
  purged: number;
  claimsFinished: number;
  repaired: number;
  cleared: number;
}

const BATCH = 100;

/** Up to BATCH documents of `c` that `filter` finds (with only the `projection`'s fields, when given). */
function dueBatch<T extends Document>(c: Collection<T>, filter: Filter<T>, projection?: Document): Promise<WithId<T>[]> {
  return c
    .find(filter, projection ? { projection } : {})
    .limit(BATCH)
    .toArray();
}

/** Runs `fix` on each document found, in turn; how many there were. */
async function repairEach<T>(found: Promise<T[]>, fix: (doc: T) => Promise<unknown>): Promise<number> {
  const docs = await found;
  for (const doc of docs) await fix(doc);
  return docs.length;
}

async function applyExpiry(deps: SweepDeps, reg: RegistrationDoc): Promise<void> {
  const { database, cache } = deps;
  const t = reg.claimDeadline;
  if (reg.tokenId) {
    const token = await database.c.tokens.findOneAndUpdate({ _id: reg.tokenId, revokedAt: null }, { $set: { revokedAt: now() } });
    if (token) cache.delete(`tok:${token.hash}`);
  }
  if (reg.workspaceId) {
    await database.c.workspaces.updateOne(
      { _id: reg.workspaceId, $or: [{ "sandbox.state": "unclaimed" }, { "sandbox.state": "expired" }] },
      { $set: { "sandbox.state": "expired", "sandbox.hiddenAt": t, "sandbox.deleteAfter": addSeconds(t, deps.config.ANON_RETENTION_SECONDS) } },
    );
    cache.delete(`ws:${reg.workspaceId}`);
    const ws = await database.c.workspaces.findOne({ _id: reg.workspaceId });
    if (ws) await syncArtifactVisibility(deps, ws);
  }
  await database.c.registrations.updateOne({ _id: reg._id, status: "expiring" }, { $set: { status: "expired" } });
}

/**
 * Deletes everything a sandbox stored, in every collection that can hold it (docs/contract.md#sandboxes-limits-and-lifecycle:
 * permanently deleted), and keeps only a stripped registration record whose status says so.
 */
export async function purgeSandbox({ database, cache }: Pick<SweepDeps, "database" | "cache">, reg: RegistrationDoc): Promise<void> {
  const wsId = reg.workspaceId;
  if (wsId) {
    const ws = await database.c.workspaces.findOne({ _id: wsId }, { projection: { slug: 1, sandbox: 1 } });
    // Only a sandbox that is still hidden and unclaimed is ever purged.
    if (ws && (ws.sandbox?.state !== "expired" || !isHidden(ws))) return;
    const byWorkspace = [
      "pageViews",
      "pages",
      "artifacts",
      "revisions",
      "rows",
      "rowRevisions",
      "rowChanges",
      "events",
      "collections",
      "shareLinks",
      "comments",
      "workspaceSlugs",
      "changes",
      "uploads",
      "files",
      "fileChunks",
      "searchTerms",
      "searchDocs",
      "webhooks",
      "webhookDeliveries",
      "mentionMails",
    ] as const;
    for (const name of byWorkspace) await (database.c[name] as unknown as typeof database.c.pages).deleteMany({ workspaceId: wsId });
    await database.c.changeHeads.deleteOne({ _id: wsId });
    await database.c.workspaces.deleteOne({ _id: wsId, "sandbox.state": "expired" });
    cache.delete(`ws:${wsId}`);
    cache.deleteTag(`artws:${wsId}`);
  }
  if (reg.tokenId) {
    await database.c.tokenKeys.deleteMany({ tokenId: reg.tokenId });
    await database.c.tokens.deleteOne({ _id: reg.tokenId, ownerId: null });
  }
  await database.c.loginCodes.deleteMany({ subject: reg._id });
  await database.c.registrations.updateOne(
    { _id: reg._id, status: "deleting" },
    { $set: { status: "deleted", tokenId: null, workspaceId: null, agentLabel: null, email: null } },
  );
}

export async function sweepOnce(deps: SweepDeps): Promise<SweepReport> {
  const { database } = deps;
  const t = now();
  const report: SweepReport = { expired: 0, purged: 0, claimsFinished: 0, repaired: 0, cleared: 0 };

  // Unclaimed past the window → expired: token revoked, sandbox hidden.
  const due = await database.c.registrations
    .find({ type: "anonymous", status: "unclaimed", claimDeadline: { $lte: t } })
    .limit(BATCH)
    .toArray();
  for (const reg of due) {
    const won = await database.c.registrations.updateOne({ _id: reg._id, status: "unclaimed" }, { $set: { status: "expiring" } });
    if (won.modifiedCount === 1) {
      await applyExpiry(deps, reg);
      report.expired++;
    }
  }

  // Hidden and still unclaimed past the retention → everything it stored is deleted.
  const stale = await database.c.workspaces
    .find({ "sandbox.state": "expired", "sandbox.deleteAfter": { $lte: t } }, { projection: { _id: 1, sandbox: 1 } })
    .limit(BATCH)
    .toArray();
  for (const ws of stale) {
    const regId = ws.sandbox?.registrationId;
    if (!regId) continue;
    const won = await database.c.registrations.updateOne({ _id: regId, status: "expired" }, { $set: { status: "deleting" } });
    const reg = await database.c.registrations.findOne({ _id: regId });
    if (won.modifiedCount === 1 && reg) {
      await purgeSandbox(deps, reg);
      report.purged++;
    }
  }

  // Whatever an interrupted process left half-done.
  for (const reg of await database.c.registrations
    .find({ status: { $in: ["claiming", "expiring", "deleting"] } })
    .limit(BATCH)
    .toArray()) {
    if (reg.status === "claiming" && reg.claimedBy) {
      await finishClaim(deps, reg, reg.claimedBy);
      report.claimsFinished++;
    } else if (reg.status === "expiring") await applyExpiry(deps, reg);
    else if (reg.status === "deleting") await purgeSandbox(deps, reg);
  }

  // Content writes cut off between their steps, once older than the grace period: a page
  // version without its revision or document, a slug reserved for a page never written,
  // a workspace slug whose workspace never came, a file whose chunks were cut short (expired
  // upload URLs go below, with the other expired records), a visibility not yet copied to its pages,
  // and usage or row counters that a reservation moved but no write followed.
  const settled = addSeconds(t, -deps.config.SWEEP_GRACE_SECONDS);
  report.repaired += await repairEach(dueBatch(database.c.pages, { deletingAt: { $lte: settled } }), (page) => finishDelete(deps, page));
  report.repaired += await finishPendingVersions(deps, PAGES, settled, BATCH, (page) => Boolean(page.deletingAt));
  report.repaired += await finishPendingVersions(deps, ROWS, settled, BATCH);
  report.repaired += await repairEach(
    dueBatch(database.c.artifacts, { html: null, redirect: null, updatedAt: { $lte: settled } }, { pageId: 1 }),
    async (a) => {
      const page = await database.c.pages.findOne({ _id: a.pageId });
      const ws = page ? await database.c.workspaces.findOne({ _id: page.workspaceId }) : null;
      if (page && ws && page.slug === a._id) await finishVersion(deps, PAGES, page, ws);
      else await database.c.artifacts.deleteOne({ _id: a._id, pageId: a.pageId, html: null });
    },
  );
  report.repaired += await repairEach(dueBatch(database.c.workspaceSlugs, { pending: true, createdAt: { $lte: settled } }), async (key) => {
    const ws = await database.c.workspaces.findOne({ _id: key.workspaceId }, { projection: { slug: 1 } });
    if (ws?.slug === key._id) await database.c.workspaceSlugs.updateOne({ _id: key._id }, { $set: { pending: false } });
    else await database.c.workspaceSlugs.deleteOne({ _id: key._id, workspaceId: key.workspaceId, pending: true });
  });
  report.repaired += await repairEach(dueBatch(database.c.workspaces, { deletingAt: { $lte: settled } }, { _id: 1, slug: 1 }), (ws) =>
    finishWorkspaceDelete(deps, ws),
  );
  // A file whose chunks were being written, or deleted, when its process stopped.
  report.repaired += await repairEach(dueBatch(database.c.files, { complete: false, createdAt: { $lte: settled } }, { _id: 1 }), (f) =>
    dropUnfinishedFile(deps, f),
  );
  report.repaired += await repairEach(dueBatch(database.c.workspaces, { visibilitySyncAt: { $lte: settled } }), (ws) => syncArtifactVisibility(deps, ws));
  report.repaired += await repairEach(dueBatch(database.c.workspaces, { usageDirtyAt: { $lte: settled } }, { _id: 1, usageDirtyAt: 1 }), async (ws) => {
    const usage = await countUsage({ database }, ws._id);
    await database.c.workspaces.updateOne({ _id: ws._id, usageDirtyAt: ws.usageDirtyAt }, { $set: { usage, usageDirtyAt: null } });
  });
  report.repaired += await repairEach(dueBatch(database.c.collections, { countDirtyAt: { $lte: settled } }, { _id: 1, countDirtyAt: 1 }), async (c) => {
    const rowCount = await database.c.rows.countDocuments({ collectionId: c._id });
    await database.c.collections.updateOne({ _id: c._id, countDirtyAt: c.countDirtyAt }, { $set: { rowCount, countDirtyAt: null } });
  });

  // Verified-email registrations whose code window passed.
  await database.c.registrations.updateMany({ type: "verified_email", status: "otp_sent", claimDeadline: { $lte: t } }, { $set: { status: "expired" } });

  // Old counters, codes, sessions and assertion ids.
  report.cleared += await clearEndedWindows(deps);
  report.cleared += (await database.c.loginCodes.deleteMany({ expiresAt: { $lte: addSeconds(t, -86_400) } })).deletedCount;
  report.cleared += (await database.c.sessions.deleteMany({ expiresAt: { $lte: t } })).deletedCount;
  report.cleared += (await database.c.assertionReplays.deleteMany({ expiresAt: { $lte: t } })).deletedCount;
  report.cleared += (await database.c.uploads.deleteMany({ expiresAt: { $lte: t } })).deletedCount;
  // The authorization server's codes, tokens, sessions and interactions past their expiry.
  report.cleared += await clearExpiredOAuthRecords({ database });
  // The change feed past its retention (CHANGES_RETENTION_SECONDS).
  report.cleared += await pruneChanges(deps);
  // Webhook deliveries done longer ago than that (their log).
  report.cleared += await pruneDeliveries(deps);
  // Reading figures: the visitors and salts of days that are over, daily rows past the retention folded into months.
  report.cleared += await sweepAnalytics(deps);
  return report;
}

/** Runs the sweeper every `intervalSeconds` until stopped; runs never overlap within a process. */
export function startSweeper(deps: SweepDeps, intervalSeconds: number, onError: (err: unknown) => void): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = sweepOnce(deps)
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalSeconds * 1000);
  timer.unref();
  tick();
  // The search index's backfill of what was stored before it (search-index.ts): one background
  // pass per process start, unless done already or another process holds its lease.
  const backfill = { stopped: false };
  const backfilling = backfillSearchIndex(deps, backfill).catch(onError);
  return {
    async stop() {
      clearInterval(timer);
      backfill.stopped = true;
      await running;
      await backfilling;
    },
  };
}
