// Passwordless sign-in: a six-digit code by e-mail, then a session.
import type { UserDoc } from "../db/index";
import { sha256 } from "../ids";
import { consumeCode, issueCode } from "./codes";
import type { Deps } from "./deps";
import { codeMail } from "./mail";
import { hit } from "./rate-limits";
import { createSession } from "./sessions";
import { normalizeEmail, findOrCreateConfirmedUser } from "./users";

export const SIGN_IN_CODE_TTL_SECONDS = 600;

/**
 * Sends a sign-in code. The answer is the same whether or not the account exists. Each call
 * is counted (so each call of a tRPC batch is), first per requester address across every
 * address it asks for, then in all, then per address asked for: a requester who spreads
 * codes over many addresses is stopped by the first, and refused calls do not spend the
 * per-address budget of the person they name.
 */
export async function requestSignInCode(deps: Deps, rawEmail: string, requesterIp: string | null = null): Promise<{ expiresAt: Date }> {
  const email = normalizeEmail(rawEmail);
  await hit(
    deps,
    { counter: "code-ip", key: sha256(requesterIp ?? "unknown").slice(0, 32), max: deps.config.SIGNIN_CODES_PER_IP_PER_HOUR, windowSeconds: 3600 },
    "Too many sign-in codes were asked for from this network; wait before asking again.",
  );
  await hit(
    deps,
    { counter: "code-all", key: "all", max: deps.config.SIGNIN_CODES_GLOBAL_PER_HOUR, windowSeconds: 3600 },
    "Atelier is sending too many sign-in codes right now; try again in a few minutes.",
  );
  await hit(
    deps,
    { counter: "code-email", key: email, max: deps.config.OTP_SENDS_PER_EMAIL_PER_HOUR, windowSeconds: 3600 },
    "Too many codes were sent to this address; wait before asking again.",
  );
  const { code, expiresAt } = await issueCode(deps, {
    purpose: "sign_in",
    subject: email,
    email,
    ttlSeconds: SIGN_IN_CODE_TTL_SECONDS,
  });
  await deps.mailer.send(codeMail({ purpose: "sign_in", to: email, code, ttlSeconds: SIGN_IN_CODE_TTL_SECONDS, baseUrl: deps.config.BASE_URL }));
  return { expiresAt };
}

/** Checks the code; on success the account exists, is confirmed, and a session is open. */
export async function verifySignInCode(deps: Deps, rawEmail: string, code: string): Promise<{ user: UserDoc; sessionId: string; expiresAt: Date }> {
  const email = normalizeEmail(rawEmail);
  await consumeCode(deps, { purpose: "sign_in", subject: email, code });
  const user = await findOrCreateConfirmedUser(deps, email);
  const { sessionId, expiresAt } = await createSession(deps, user._id);
  return { user, sessionId, expiresAt };
}
