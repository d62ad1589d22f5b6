// Reading tRPC failures in one place: the server puts a stable `appCode` and the HTTP status
// in `error.data` (server/src/trpc.ts); a 429 also carries Retry-After on the HTTP response.
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

/** A plain sentence for failures that are nobody's fault in particular. */
export function describeError(err: unknown): string {
  if (isNetworkFailure(err)) return "We couldn’t reach Atelier. Check your connection and try again.";
  const status = httpStatusOf(err);
  if (appCodeOf(err) === "unavailable" || (status !== null && status >= 500)) {
    return "Atelier is having trouble right now. Please try again in a moment.";
  }
  if (appCodeOf(err) === "rate_limited") {
    const wait = retryAfterSeconds(err);
    return wait === null ? "That was a lot of requests at once. Wait a little and try again." : `Too many requests. Try again ${formatWait(wait)}.`;
  }
  const message = err instanceof Error ? err.message : "";
  return message || "Something went wrong. Please try again.";
}
