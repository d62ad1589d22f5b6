// What each sign-in failure means to the person in front of the screen.
import { appCodeOf, describeError, formatWait, retryAfterSeconds } from "../../lib/errors";

function tooManyCodes(err: unknown): string {
  const wait = retryAfterSeconds(err);
  return wait === null
    ? "Too many codes were sent to this address in the last hour. Please wait a while before asking for another one."
    : `Too many codes were sent to this address in the last hour. You can ask for a new one ${formatWait(wait)}.`;
}

/** Asking for a code failed (step 1, or "send a new code" on step 2). */
export function requestCodeError(err: unknown): string {
  const code = appCodeOf(err);
  if (code === "rate_limited") return tooManyCodes(err);
  if (code === "invalid_request") return "That doesn’t look like an e-mail address. Check it for typos and try again.";
  return describeError(err);
}

/** Checking the code failed (step 2). */
export function verifyCodeError(err: unknown): string {
  const code = appCodeOf(err);
  if (code === "invalid_otp") {
    return "That code didn’t work. It may be mistyped, expired or already used. Check the newest e-mail we sent, or send a new code.";
  }
  if (code === "invalid_request") return "Enter the six digits from the e-mail.";
  return describeError(err);
}

/** A quick check before asking the server; the server has the last word. */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}
