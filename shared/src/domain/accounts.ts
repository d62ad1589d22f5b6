// Passwordless sign-in: a six-digit code by e-mail, then a session.
import type { UserDoc } from "../db/index";
import { consumeCode, issueCode } from "./codes";
import type { Deps } from "./deps";
import { codeMail } from "./mail";
import { hit } from "./rate-limits";
import { createSession } from "./sessions";
import { normalizeEmail, findOrCreateConfirmedUser } from "./users";

export const SIGN_IN_CODE_TTL_SECONDS = 600;

/** Sends a sign-in code. The answer is the same whether or not the account exists. */
export async function requestSignInCode(deps: Deps, rawEmail: string): Promise<{ expiresAt: Date }> {
  const email = normalizeEmail(rawEmail);
  await hit(
    deps,
    { bucket: "code-email", key: email, max: deps.config.OTP_SENDS_PER_EMAIL_PER_HOUR, windowSeconds: 3600 },
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
