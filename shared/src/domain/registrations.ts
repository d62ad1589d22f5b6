// Agent self-registration (docs/contract.md#registration-and-claim): anonymous sandboxes that a person
// claims by e-mail code, and the verified-email preview. Multi-step changes are ordered so
// that one atomic status change picks the winner and every later step is idempotent; the
// sweeper finishes what an interrupted process left.
// Longer than 300 lines: one state machine (register, claim start, claim, expire), whose
// steps share the ordering rule above.
import type { Database, RegistrationDoc, UserDoc } from "../db/index";
import { AppError } from "../errors";
import { newId, newSecret, sha256 } from "../ids";
import { addSeconds, now } from "./clock";
import { consumeCode, issueCode } from "./codes";
import type { Deps } from "./deps";
import { codeMail } from "./mail";
import { hit } from "./rate-limits";
import { issueToken } from "./tokens";
import { findOrCreateConfirmedUser, normalizeEmail } from "./users";
import { createWorkspace } from "./workspaces";
import { verifyIdentityAssertion } from "./assertions";

export const SANDBOX_PREFIX = "anonymous-sandbox-";
const SCOPES: ("mcp:read" | "mcp:write")[] = ["mcp:read", "mcp:write"];

function days(seconds: number): string {
  const d = seconds / 86_400;
  return Number.isInteger(d) ? `${d} day${d === 1 ? "" : "s"}` : `${Math.round(seconds / 3600)} hours`;
}

function lowerId(len: number): string {
  return newSecret(16)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")
    .slice(0, len)
    .padEnd(len, "0");
}

/** POST /agent/auth with type anonymous: one private sandbox and one token confined to it. */
export async function registerAnonymous(deps: Deps, input: { agentLabel?: string | undefined; requesterIp: string }) {
  const { config, database } = deps;
  if (!config.ANONYMOUS_REGISTRATION_ENABLED) {
    throw new AppError("registration_disabled", "Anonymous registration is switched off on this server; ask its owner for a token.");
  }
  const busy = "Too many anonymous registrations; try again later.";
  await hit(deps, { counter: "anon-reg-ip", key: sha256(input.requesterIp).slice(0, 32), max: config.ANON_REG_PER_IP_PER_DAY, windowSeconds: 86_400 }, busy);
  await hit(deps, { counter: "anon-reg-global", key: "all", max: config.ANON_REG_GLOBAL_PER_HOUR, windowSeconds: 3_600 }, busy);

  const registrationId = `reg_${newSecret(32)}`;
  const t = now();
  const deadline = addSeconds(t, config.ANON_CLAIM_WINDOW_SECONDS);
  const workspaceId = newId("ws");
  const slug = `${SANDBOX_PREFIX}${lowerId(12)}`;
  const label = input.agentLabel?.trim() || "Anonymous agent";

  // The token first (it carries the credential we must return), then the registration that
  // names everything, then the sandbox. Should the process stop between them, the token
  // expires at the deadline and the sweeper retires the rest.
  const { token, credential } = await issueToken(deps, {
    ownerId: null,
    kind: "anonymous",
    scopes: SCOPES,
    workspaceIds: [workspaceId],
    label,
    agentLabel: label,
    expiresAt: deadline,
  });
  const reg: RegistrationDoc = {
    _id: sha256(registrationId),
    publicId: null,
    type: "anonymous",
    status: "unclaimed",
    tokenId: token._id,
    workspaceId,
    agentLabel: label,
    email: null,
    claimDeadline: deadline,
    claimedBy: null,
    claimedAt: null,
    createdAt: t,
  };
  await database.c.registrations.insertOne(reg);
  await createWorkspace(deps, {
    id: workspaceId,
    slug,
    name: `${label}'s sandbox`,
    ownerId: null,
    visibility: "private",
    sandbox: { registrationId: reg._id, state: "unclaimed", hiddenAt: null, deleteAfter: null },
  });
  return {
    registration_id: registrationId,
    registration_type: "anonymous" as const,
    credential_type: "mcp_write_token" as const,
    credential,
    token_id: token._id,
    expires_at: deadline.toISOString(),
    scopes: SCOPES,
    sandbox_bucket: { id: workspaceId, slug },
    status: "unclaimed" as const,
    claim_url: `${config.BASE_URL}/agent/auth/claim`,
    claim_instructions:
      `This sandbox is private and temporary. A person can keep it by claiming it within ${days(config.ANON_CLAIM_WINDOW_SECONDS)} ` +
      `(until ${deadline.toISOString()}): POST {"claim_token": "<registration_id>", "email": "<their address>"} to ${config.BASE_URL}/agent/auth/claim, ` +
      `then POST {"claim_token": "<registration_id>", "otp": "<the six-digit code they received>"} within ${Math.round(config.CLAIM_OTP_TTL_SECONDS / 60)} minutes. ` +
      `Unclaimed sandboxes are hidden after ${days(config.ANON_CLAIM_WINDOW_SECONDS)} and deleted ${days(config.ANON_RETENTION_SECONDS)} later.`,
  };
}

async function findRegistration(database: Database, claimToken: string): Promise<RegistrationDoc> {
  const reg = claimToken.length <= 200 ? await database.c.registrations.findOne({ _id: sha256(claimToken) }) : null;
  if (!reg) throw new AppError("registration_not_found", "No registration has that claim token.");
  return reg;
}

function assertClaimable(reg: RegistrationDoc): void {
  if (reg.status === "claimed" || reg.status === "claiming") throw new AppError("already_claimed", "This registration has already been claimed.");
  if (reg.status !== "unclaimed" && reg.status !== "otp_sent") throw new AppError("claim_window_expired", "The claim window of this registration is over.");
  if (reg.claimDeadline <= now()) throw new AppError("claim_window_expired", "The claim window of this registration is over.");
}

/** The send limits of a claim code (per registration, per address), counted before anything is written. */
async function chargeCodeSend(deps: Deps, regId: string, email: string): Promise<void> {
  const { config } = deps;
  await hit(
    deps,
    { counter: "claim-reg", key: regId, max: config.OTP_SENDS_PER_REGISTRATION_PER_HOUR, windowSeconds: 3_600 },
    "Too many codes were sent for this registration; wait before asking again.",
  );
  await hit(
    deps,
    { counter: "code-email", key: email, max: config.OTP_SENDS_PER_EMAIL_PER_HOUR, windowSeconds: 3_600 },
    "Too many codes were sent to this address; wait before asking again.",
  );
}

async function sendCode(deps: Deps, regId: string, email: string, purpose: "claim" | "verified_email"): Promise<void> {
  const { config } = deps;
  const { code } = await issueCode(deps, { purpose, subject: regId, email, ttlSeconds: config.CLAIM_OTP_TTL_SECONDS });
  await deps.mailer.send(codeMail({ purpose, to: email, code, ttlSeconds: config.CLAIM_OTP_TTL_SECONDS, baseUrl: config.BASE_URL }));
}

/** Claim-start: e-mails a six-digit code to the person who will own the sandbox. */
export async function startAnonymousClaim(deps: Deps, input: { claimToken: string; email: string }) {
  const reg = await findRegistration(deps.database, input.claimToken);
  if (reg.type !== "anonymous") throw new AppError("invalid_request", "This registration is completed with its code only: send claim_token and otp.");
  assertClaimable(reg);
  const email = normalizeEmail(input.email);
  await chargeCodeSend(deps, reg._id, email);
  await sendCode(deps, reg._id, email, "claim");
  await deps.database.c.registrations.updateOne({ _id: reg._id }, { $set: { email } });
  return { status: "otp_sent" as const, registration_id: input.claimToken, claim_token_expires: reg.claimDeadline.toISOString() };
}

/**
 * The steps after a claim is won, each idempotent: the sandbox moves to its new owner and
 * becomes permanent; the token becomes claimed-from-anonymous with a fresh expiry, still
 * confined to the sandbox; then the registration is marked claimed.
 */
export async function finishClaim(
  deps: { database: Database; config: Pick<Deps["config"], "CLAIMED_TOKEN_TTL_SECONDS">; cache: Deps["cache"] },
  reg: RegistrationDoc,
  userId: string,
): Promise<{ expiresAt: Date }> {
  const { database, config } = deps;
  const t = reg.claimedAt ?? now();
  if (reg.workspaceId) {
    await database.c.workspaces.updateOne(
      { _id: reg.workspaceId },
      {
        $set: {
          ownerId: userId,
          members: [{ userId, role: "owner", addedAt: t }],
          "sandbox.state": "claimed",
          "sandbox.hiddenAt": null,
          "sandbox.deleteAfter": null,
          capped: false,
          updatedAt: t,
        },
        $inc: { membersVersion: 1 },
      },
    );
    deps.cache.delete(`ws:${reg.workspaceId}`);
  }
  const expiresAt = addSeconds(t, config.CLAIMED_TOKEN_TTL_SECONDS);
  if (reg.tokenId) {
    const token = await database.c.tokens.findOneAndUpdate(
      { _id: reg.tokenId, revokedAt: null },
      { $set: { kind: "claimed_anonymous", ownerId: userId, expiresAt } },
    );
    if (token) deps.cache.delete(`tok:${token.hash}`);
  }
  await database.c.registrations.updateOne({ _id: reg._id, status: "claiming" }, { $set: { status: "claimed" } });
  return { expiresAt };
}

/** Claim-complete: the right code binds the sandbox to the account for the address it was sent to. */
export async function completeAnonymousClaim(deps: Deps, input: { claimToken: string; otp: string }) {
  const { database } = deps;
  const reg = await findRegistration(database, input.claimToken);
  if (reg.type !== "anonymous") throw new AppError("invalid_request", "Not an anonymous registration.");
  assertClaimable(reg);
  const { email } = await consumeCode(deps, { purpose: "claim", subject: reg._id, code: input.otp });
  const user: UserDoc = await findOrCreateConfirmedUser(deps, email);
  const claimedAt = now();
  const won = await database.c.registrations.updateOne(
    { _id: reg._id, status: "unclaimed", claimDeadline: { $gt: claimedAt } },
    { $set: { status: "claiming", claimedBy: user._id, claimedAt, email } },
  );
  if (won.modifiedCount !== 1) {
    assertClaimable((await database.c.registrations.findOne({ _id: reg._id })) ?? reg);
    throw new AppError("already_claimed", "This registration has already been claimed.");
  }
  const { expiresAt } = await finishClaim(deps, { ...reg, status: "claiming", claimedBy: user._id, claimedAt }, user._id);
  const ws = reg.workspaceId ? await database.c.workspaces.findOne({ _id: reg.workspaceId }, { projection: { slug: 1 } }) : null;
  return {
    registration_id: input.claimToken,
    status: "claimed" as const,
    token_id: reg.tokenId,
    expires_at: expiresAt.toISOString(),
    scopes: SCOPES,
    sandbox_bucket: { id: reg.workspaceId, slug: ws?.slug ?? null },
    account: { email },
  };
}

/** POST /agent/auth with type verified_email (preview): an OTP to the asserted address, no credential yet. */
export async function registerVerifiedEmail(deps: Deps, input: { assertion: string; agentLabel?: string | undefined }) {
  const { config, database } = deps;
  if (!config.VERIFIED_EMAIL_REGISTRATION_ENABLED) {
    throw new AppError("unsupported_registration_type", "Verified-email registration is a preview that is switched off on this server.");
  }
  const { email } = await verifyIdentityAssertion(deps, input.assertion);
  const claimToken = `ct_${newSecret(32)}`;
  const t = now();
  const deadline = addSeconds(t, config.CLAIM_OTP_TTL_SECONDS);
  const reg: RegistrationDoc = {
    _id: sha256(claimToken),
    publicId: newId("reg"),
    type: "verified_email",
    status: "otp_sent",
    tokenId: null,
    workspaceId: null,
    agentLabel: input.agentLabel?.trim() || null,
    email,
    claimDeadline: deadline,
    claimedBy: null,
    claimedAt: null,
    createdAt: t,
  };
  // Throttled before anything is written: a refused registration leaves no record.
  await chargeCodeSend(deps, reg._id, email);
  await database.c.registrations.insertOne(reg);
  await sendCode(deps, reg._id, email, "verified_email");
  return {
    registration_id: reg.publicId,
    registration_type: "verified_email" as const,
    claim_token: claimToken,
    status: "otp_sent" as const,
    claim_token_expires: deadline.toISOString(),
    claim_url: `${config.BASE_URL}/agent/auth/claim`,
  };
}

/** The verified-email claim: the right code and a confirmed account issue a token, shown once. */
export async function completeVerifiedEmailClaim(deps: Deps, input: { claimToken: string; otp: string }) {
  const { config, database } = deps;
  const reg = await findRegistration(database, input.claimToken);
  assertClaimable(reg);
  const { email } = await consumeCode(deps, { purpose: "verified_email", subject: reg._id, code: input.otp });
  const user = await database.c.users.findOne({ email });
  if (!user?.confirmedAt) {
    throw new AppError(
      "account_not_confirmed",
      "There is no confirmed Atelier account for this address; sign in to the app once to create it, then register again.",
    );
  }
  const won = await database.c.registrations.updateOne(
    { _id: reg._id, status: "otp_sent" },
    { $set: { status: "claimed", claimedBy: user._id, claimedAt: now() } },
  );
  if (won.modifiedCount !== 1) throw new AppError("already_claimed", "This registration has already been claimed.");
  const { token, credential } = await issueToken(deps, {
    ownerId: user._id,
    kind: "verified_email",
    scopes: SCOPES,
    workspaceIds: null,
    label: reg.agentLabel ?? "Agent (verified e-mail)",
    agentLabel: reg.agentLabel,
    expiresAt: addSeconds(now(), config.CLAIMED_TOKEN_TTL_SECONDS),
  });
  await database.c.registrations.updateOne({ _id: reg._id }, { $set: { tokenId: token._id } });
  return {
    credential,
    credential_type: "mcp_write_token" as const,
    token_id: token._id,
    scopes: token.scopes,
    expires_at: token.expiresAt.toISOString(),
  };
}

/** POST /agent/auth/claim: which flow a body belongs to is decided by the registration. */
export async function claim(deps: Deps, input: { claimToken: string; email?: string | undefined; otp?: string | undefined }) {
  const reg = await findRegistration(deps.database, input.claimToken);
  if (reg.type === "verified_email") {
    if (input.otp === undefined) throw new AppError("invalid_request", "This registration is completed with its code: send claim_token and otp.");
    return { status: 201, body: await completeVerifiedEmailClaim(deps, { claimToken: input.claimToken, otp: input.otp }) };
  }
  if (input.email !== undefined) return { status: 200, body: await startAnonymousClaim(deps, { claimToken: input.claimToken, email: input.email }) };
  return { status: 200, body: await completeAnonymousClaim(deps, { claimToken: input.claimToken, otp: input.otp ?? "" }) };
}
