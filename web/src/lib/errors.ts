// Reading tRPC failures in one place: the server puts a stable `appCode` and the HTTP status
// in `error.data` (server/src/trpc.ts); a 429 also carries Retry-After on the HTTP response.
import type { FieldIssue } from "@atelier/shared/errors";
import type { AppRouter } from "@atelier/server/router";
import { isTRPCClientError, type TRPCClientError } from "@trpc/client";

type ClientError = TRPCClientError<AppRouter>;

function clientError(err: unknown): ClientError | null {
  return isTRPCClientError<AppRouter>(err) ? err : null;
}

/** The server's stable error code (`rate_limited`, `invalid_otp`, …), if it sent one. */
export function appCodeOf(err: unknown): string | null {
  return clientError(err)?.data?.appCode ?? null;
}

export function httpStatusOf(err: unknown): number | null {
  return clientError(err)?.data?.httpStatus ?? null;
}

/** The request needs a session and there is none (or it has ended). */
export function isUnauthorized(err: unknown): boolean {
  const e = clientError(err);
  return e?.data?.httpStatus === 401 || e?.data?.code === "UNAUTHORIZED";
}

/** The server answered, but said the request itself is at fault: retrying will not help. */
export function isClientFault(err: unknown): boolean {
  const status = httpStatusOf(err);
  return status !== null && status >= 400 && status < 500;
}

/** No answer from the server at all: offline, DNS, a proxy that dropped the connection. */
export function isNetworkFailure(err: unknown): boolean {
  const e = clientError(err);
  if (e) return !e.data && !responseOf(e);
  return err instanceof TypeError;
}

function responseOf(e: ClientError): Response | null {
  const response = (e.meta as { response?: unknown } | undefined)?.response;
  return response instanceof Response ? response : null;
}

/** Seconds from the Retry-After header (delta-seconds or an HTTP date), or null. */
export function retryAfterSeconds(err: unknown): number | null {
  const e = clientError(err);
  const header = e ? responseOf(e)?.headers.get("Retry-After") : null;
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** "in about 12 minutes" — how long to wait, rounded up to what a person cares about. */
export function formatWait(seconds: number): string {
  if (seconds <= 60) return "in about a minute";
  const minutes = Math.ceil(seconds / 60);
  if (minutes >= 60) return "in about an hour";
  return `in about ${minutes} minutes`;
}

/** The field-by-field problems of a request the server refused as invalid (400): path, code, params. */
export function fieldIssuesOf(err: unknown): FieldIssue[] {
  const issues: unknown = clientError(err)?.data?.issues;
  return Array.isArray(issues) ? (issues as FieldIssue[]) : [];
}

/** A field's problem in words, from its code and bounds (the message only as a last resort). */
function issueWords(issue: FieldIssue): string {
  const max = issue.params?.max;
  const min = issue.params?.min;
  switch (issue.code) {
    case "too_big":
    case "too_long":
      return typeof max === "number" ? `must be at most ${max} characters` : "is too long";
    case "too_small":
      return min === 1 ? "must not be empty" : typeof min === "number" ? `must be at least ${min} characters` : "is too short";
    case "required":
      return "is required";
    case "not_member":
      return "names a workspace you are not a member of";
    default:
      return issue.message;
  }
}

/** The problem with one field (`slug`, `title`, …) as a sentence, if the server named one. */
export function fieldIssue(err: unknown, field: string): string | null {
  const issue = fieldIssuesOf(err).find((i) => i.path === field || i.path.startsWith(`${field}.`));
  return issue ? sentence(`${FIELD_NAMES[field] ?? capitalize(field)} ${issueWords(issue)}`) : null;
}

const FIELD_NAMES: Record<string, string> = {
  slug: "The slug",
  name: "The name",
  title: "The title",
  summary: "The summary",
  body_markdown: "The text",
  body_html: "The HTML",
  label: "The name",
  email: "The e-mail address",
  expiresInDays: "The expiry",
  scopes: "Permissions:",
  workspaces: "Workspaces:",
};

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function sentence(s: string): string {
  const t = s.trim();
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}

/**
 * The server has no such procedure (yet): tRPC answers 404 with its own code and no appCode.
 * Used where the app calls procedures that are still being added to the server.
 */
export function isMissingProcedure(err: unknown): boolean {
  const e = clientError(err);
  return e?.data?.httpStatus === 404 && e.data.appCode === null && /no procedure found/i.test(e.message);
}

/** A plain sentence for any failure: the network, the server, or what the server refused. */
export function describeError(err: unknown): string {
  if (isNetworkFailure(err)) return "Couldn’t reach Atelier. Check your connection and retry.";
  const status = httpStatusOf(err);
  const code = appCodeOf(err);
  if (code === "unavailable" || (status !== null && status >= 500)) {
    return "Atelier is having trouble right now. Please try again in a moment.";
  }
  if (code === "rate_limited") {
    const wait = retryAfterSeconds(err);
    return wait === null ? "That was a lot of requests at once. Wait a little and try again." : `Too many requests. Try again ${formatWait(wait)}.`;
  }
  if (isUnauthorized(err)) return "Your session has ended. Sign in again to continue.";
  if (isMissingProcedure(err)) return "This server doesn’t offer that yet. It may need an update.";
  const issues = fieldIssuesOf(err);
  if (issues.length > 0) {
    return issues.map((i) => sentence(`${FIELD_NAMES[i.path] ?? capitalize(i.path)} ${issueWords(i)}`)).join(" ");
  }
  // The server's own sentences are written for people (shared/src/errors.ts); these codes
  // get a steadier wording when the server's sentence is missing.
  const message = err instanceof Error ? err.message.trim() : "";
  if (message) return sentence(message);
  switch (code) {
    case "not_found":
      return "It isn’t there any more, or you don’t have access to it.";
    case "forbidden":
      return "You don’t have permission to do that.";
    case "conflict":
      return "That name is already taken. Try another one.";
    case "version_conflict":
      return "Someone changed this meanwhile.";
    case "limit_exceeded":
      return "This workspace has reached its limit.";
    case "payload_too_large":
      return "That’s too large to save (the limit is 1 MiB).";
    case null:
    default:
      return "Something went wrong. Please try again.";
  }
}

/** "Already taken" and friends, for the create forms: 409 conflict on a slug. */
export function isConflict(err: unknown): boolean {
  return appCodeOf(err) === "conflict";
}

export function isVersionConflict(err: unknown): boolean {
  return appCodeOf(err) === "version_conflict";
}

export function isNotFound(err: unknown): boolean {
  return appCodeOf(err) === "not_found" || (httpStatusOf(err) === 404 && !isMissingProcedure(err));
}

export function isForbidden(err: unknown): boolean {
  return httpStatusOf(err) === 403;
}
