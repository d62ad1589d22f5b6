// The lifecycle sweeper (DESIGN §8). Each transition is one conditional update that picks a
// single winner, followed by idempotent steps, so any number of server processes can sweep
// at once and an interrupted sweep (or claim) is finished by the next one.
import type { Config } from "../config";
import type { Database, RegistrationDoc } from "../db/index";
import { addSeconds, now } from "./clock";
import { countUsage } from "./limits";
import { storeRevision } from "./pages";
import { finishClaim } from "./registrations";
import { clearEndedWindows } from "./rate-limits";
import { clearExpiredOAuthRecords } from "./oauth-store";

type SweepDeps = { database: Database; config: Pick<Config, "ANON_RETENTION_SECONDS" | "CLAIMED_TOKEN_TTL_SECONDS" | "SWEEP_GRACE_SECONDS"> };

export interface SweepReport {
  expired: number;
  purged: number;
  claimsFinished: number;
  repaired: number;
  cleared: number;
}


const BATCH = 100;

async function applyExpiry({ database, config }: SweepDeps, reg: RegistrationDoc): Promise<void> {
  const t = reg.claimDeadline;
  if (reg.tokenId) await database.c.tokens.updateOne({ _id: reg.tokenId, revokedAt: null }, { $set: { revokedAt: now() } });
  if (reg.workspaceId) {
    await database.c.workspaces.updateOne(
      { _id: reg.workspaceId, "sandbox.state": { $in: ["unclaimed", "expired"] } },
      { $set: { "sandbox.state": "expired", "sandbox.hiddenAt": t, "sandbox.deleteAfter": addSeconds(t, config.ANON_RETENTION_SECONDS) } },
    );
  }
  await database.c.registrations.updateOne({ _id: reg._id, status: "expiring" }, { $set: { status: "expired" } });
}

async function applyPurge({ database }: SweepDeps, reg: RegistrationDoc): Promise<void> {
  const wsId = reg.workspaceId;
  if (wsId) {
    for (const name of ["pages", "revisions", "rows", "events"] as const) {
      await database.c[name].deleteMany({ workspaceId: wsId });
    }
    await database.c.collections.deleteMany({ workspaceId: wsId });
    await database.c.workspaces.deleteOne({ _id: wsId, "sandbox.state": "expired" });
  }
  if (reg.tokenId) await database.c.tokens.deleteOne({ _id: reg.tokenId, ownerId: null });
  await database.c.registrations.updateOne({ _id: reg._id, status: "deleting" }, { $set: { status: "deleted" } });
}

export async function sweepOnce(deps: SweepDeps): Promise<SweepReport> {
  const { database } = deps;
  const t = now();
  const report: SweepReport = { expired: 0, purged: 0, claimsFinished: 0, repaired: 0, cleared: 0 };

  // Unclaimed past the window → expired: token revoked, sandbox hidden.
  const due = await database.c.registrations.find({ type: "anonymous", status: "unclaimed", claimDeadline: { $lte: t } }).limit(BATCH).toArray();
  for (const reg of due) {
    const won = await database.c.registrations.updateOne({ _id: reg._id, status: "unclaimed" }, { $set: { status: "expiring" } });
    if (won.modifiedCount === 1) {
      await applyExpiry(deps, reg);
      report.expired++;
    }
  }

  // Hidden and still unclaimed past the retention → sandbox, pages, history removed.
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
      await applyPurge(deps, reg);
      report.purged++;
    }
  }

  // Whatever an interrupted process left half-done.
  for (const reg of await database.c.registrations.find({ status: { $in: ["claiming", "expiring", "deleting"] } }).limit(BATCH).toArray()) {
    if (reg.status === "claiming" && reg.claimedBy) {
      await finishClaim(deps, reg, reg.claimedBy);
      report.claimsFinished++;
    } else if (reg.status === "expiring") await applyExpiry(deps, reg);
    else if (reg.status === "deleting") await applyPurge(deps, reg);
  }

  // Content writes cut off between their steps: a page version without its revision, and
  // usage or row counters that a reservation moved but no write followed.
  // How long a write may take before its half-done state is treated as abandoned.
  const settled = addSeconds(t, -deps.config.SWEEP_GRACE_SECONDS);
  for (const page of await database.c.pages.find({ revisionPending: true, updatedAt: { $lte: settled } }, { projection: { html: 0 } }).limit(BATCH).toArray()) {
    await storeRevision(database, page);
    report.repaired++;
  }
  for (const ws of await database.c.workspaces.find({ usageDirtyAt: { $lte: settled } }, { projection: { _id: 1, usageDirtyAt: 1 } }).limit(BATCH).toArray()) {
    const usage = await countUsage(database, ws._id);
    await database.c.workspaces.updateOne({ _id: ws._id, usageDirtyAt: ws.usageDirtyAt }, { $set: { usage, usageDirtyAt: null } });
    report.repaired++;
  }
  for (const c of await database.c.collections.find({ countDirtyAt: { $lte: settled } }, { projection: { _id: 1, countDirtyAt: 1 } }).limit(BATCH).toArray()) {
    const rowCount = await database.c.rows.countDocuments({ collectionId: c._id });
    await database.c.collections.updateOne({ _id: c._id, countDirtyAt: c.countDirtyAt }, { $set: { rowCount, countDirtyAt: null } });
    report.repaired++;
  }

  // Verified-email registrations whose code window passed.
  await database.c.registrations.updateMany({ type: "verified_email", status: "otp_sent", claimDeadline: { $lte: t } }, { $set: { status: "expired" } });

  // Old counters, codes, sessions and assertion ids.
  report.cleared += await clearEndedWindows(database);
  report.cleared += (await database.c.loginCodes.deleteMany({ expiresAt: { $lte: addSeconds(t, -86_400) } })).deletedCount;
  report.cleared += (await database.c.sessions.deleteMany({ expiresAt: { $lte: t } })).deletedCount;
  report.cleared += (await database.c.assertionReplays.deleteMany({ expiresAt: { $lte: t } })).deletedCount;
  // The authorization server's codes, tokens, sessions and interactions past their expiry.
  report.cleared += await clearExpiredOAuthRecords(database);
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
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
