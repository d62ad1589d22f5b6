// One domain error type and the one table that says how each code is answered by every
// adapter: HTTP routes ({error, error_description}), tRPC, and MCP.
import type { MongoServerError } from "mongodb";

type TrpcCode =
  | "BAD_REQUEST"
  | "PARSE_ERROR"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_SUPPORTED"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "TOO_MANY_REQUESTS"
  | "INTERNAL_SERVER_ERROR"
  | "SERVICE_UNAVAILABLE";

/**
 * `mcp`: how /mcp answers the code when a tool meets it: "tool" is an `isError` tool result
 * carrying the code; "http" refuses the whole request at the HTTP level (auth, throttling,
 * transport: DESIGN §5) with `{error, error_description}`, or, where `jsonrpc` is set, with
 * that JSON-RPC error (a body that is not JSON at all gets the JSON-RPC parse error).
 * Whatever /mcp refuses before any tool runs is answered at the HTTP level.
 */
interface ErrorRule {
  http: number;
  trpc: TrpcCode;
  mcp: "tool" | "http";
  jsonrpc?: number;
}

export const ERROR_TABLE = {
  invalid_request: { http: 400, trpc: "BAD_REQUEST", mcp: "tool" },
  invalid_json: { http: 400, trpc: "PARSE_ERROR", mcp: "http", jsonrpc: -32700 },
  batch_not_supported: { http: 400, trpc: "BAD_REQUEST", mcp: "http", jsonrpc: -32600 },
  unsupported_registration_type: { http: 400, trpc: "BAD_REQUEST", mcp: "tool" },
  invalid_otp: { http: 400, trpc: "BAD_REQUEST", mcp: "tool" },
  unauthorized: { http: 401, trpc: "UNAUTHORIZED", mcp: "http" },
  invalid_token: { http: 401, trpc: "UNAUTHORIZED", mcp: "http" },
  invalid_assertion: { http: 401, trpc: "UNAUTHORIZED", mcp: "http" },
  forbidden: { http: 403, trpc: "FORBIDDEN", mcp: "tool" },
  insufficient_scope: { http: 403, trpc: "FORBIDDEN", mcp: "http" },
  registration_disabled: { http: 403, trpc: "FORBIDDEN", mcp: "tool" },
  account_not_confirmed: { http: 403, trpc: "FORBIDDEN", mcp: "tool" },
  not_found: { http: 404, trpc: "NOT_FOUND", mcp: "tool" },
  method_not_allowed: { http: 405, trpc: "METHOD_NOT_SUPPORTED", mcp: "http" },
  registration_not_found: { http: 404, trpc: "NOT_FOUND", mcp: "tool" },
  conflict: { http: 409, trpc: "CONFLICT", mcp: "tool" },
  version_conflict: { http: 409, trpc: "CONFLICT", mcp: "tool" },
  already_claimed: { http: 409, trpc: "CONFLICT", mcp: "tool" },
  claim_window_expired: { http: 410, trpc: "BAD_REQUEST", mcp: "tool" },
  payload_too_large: { http: 413, trpc: "PAYLOAD_TOO_LARGE", mcp: "tool" },
  limit_exceeded: { http: 403, trpc: "FORBIDDEN", mcp: "tool" },
  rate_limited: { http: 429, trpc: "TOO_MANY_REQUESTS", mcp: "http" },
  unavailable: { http: 503, trpc: "SERVICE_UNAVAILABLE", mcp: "http" },
  internal_error: { http: 500, trpc: "INTERNAL_SERVER_ERROR", mcp: "http" },
} as const satisfies Record<string, ErrorRule>;

export type ErrorCode = keyof typeof ERROR_TABLE;

export class AppError extends Error {
  /** Whole seconds until a throttled caller may retry (rate_limited only). */
  readonly retryAfter: number | undefined;
  /** Extra machine-readable detail that is safe to show the caller (e.g. the field at fault). */
  readonly details: Record<string, unknown> | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    opts: { retryAfter?: number; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AppError";
    this.retryAfter = opts.retryAfter;
    this.details = opts.details;
  }

  get rule(): ErrorRule {
    return ERROR_TABLE[this.code];
  }

  /** The body every plain HTTP route answers with (DESIGN §5). */
  toHttpBody(): { error: ErrorCode; error_description: string } {
    return { error: this.code, error_description: this.message };
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

function isMongoServerError(err: unknown): err is MongoServerError {
  return typeof err === "object" && err !== null && (err as { name?: unknown }).name === "MongoServerError";
}

const NETWORK_ERRORS = new Set([
  "MongoNetworkError",
  "MongoNetworkTimeoutError",
  "MongoServerSelectionError",
  "MongoTopologyClosedError",
  "MongoOperationTimeoutError",
  "MongoNotConnectedError",
]);

const SOCKET_ERRORS = new Set(["EPIPE", "ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "ERR_SOCKET_CLOSED", "ERR_STREAM_DESTROYED"]);

/**
 * Translates driver errors once, at the boundary: a duplicate key becomes `conflict`,
 * an unreachable database `unavailable`; anything else is left as it is.
 */
export function translateDbError(err: unknown, conflictMessage = "That already exists."): unknown {
  if (err instanceof AppError) return err;
  if (isMongoServerError(err) && err.code === 11000) {
    return new AppError("conflict", conflictMessage, { cause: err });
  }
  const name = typeof err === "object" && err !== null ? (err as { name?: unknown }).name : undefined;
  const sysCode = typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
  if (typeof name === "string" && NETWORK_ERRORS.has(name)) {
    return new AppError("unavailable", "The database is unreachable; try again shortly.", { cause: err });
  }
  // The driver sometimes surfaces a dropped pooled connection as Node's own socket error
  // (and the mailer an unreachable SMTP server): a passing outage, not a bug.
  if (typeof sysCode === "string" && SOCKET_ERRORS.has(sysCode)) {
    return new AppError("unavailable", "A service Atelier depends on is unreachable; try again shortly.", { cause: err });
  }
  return err;
}

/** Runs a database operation and rethrows driver errors as domain errors. */
export async function withDbErrors<T>(op: () => Promise<T>, conflictMessage?: string): Promise<T> {
  try {
    return await op();
  } catch (err) {
    throw translateDbError(err, conflictMessage);
  }
}
