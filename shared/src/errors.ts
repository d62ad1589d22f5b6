// One domain error type and the one table that says how each code is answered by every
// adapter: HTTP routes ({error, error_description}), tRPC, and MCP. Browser-safe: the SPA
// imports the issue codes from here.

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
 * transport: docs/contract.md#answers-and-errors) with `{error, error_description}`, or, where `jsonrpc` is set, with
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
  invalid_cursor: { http: 400, trpc: "BAD_REQUEST", mcp: "tool" },
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
  registration_not_found: { http: 404, trpc: "NOT_FOUND", mcp: "tool" },
  method_not_allowed: { http: 405, trpc: "METHOD_NOT_SUPPORTED", mcp: "http" },
  not_acceptable: { http: 406, trpc: "BAD_REQUEST", mcp: "http" },
  conflict: { http: 409, trpc: "CONFLICT", mcp: "tool" },
  version_conflict: { http: 409, trpc: "CONFLICT", mcp: "tool" },
  already_claimed: { http: 409, trpc: "CONFLICT", mcp: "tool" },
  claim_window_expired: { http: 410, trpc: "BAD_REQUEST", mcp: "tool" },
  cursor_expired: { http: 410, trpc: "BAD_REQUEST", mcp: "tool" },
  payload_too_large: { http: 413, trpc: "PAYLOAD_TOO_LARGE", mcp: "tool" },
  unsupported_media_type: { http: 415, trpc: "BAD_REQUEST", mcp: "tool" },
  limit_exceeded: { http: 403, trpc: "FORBIDDEN", mcp: "tool" },
  rate_limited: { http: 429, trpc: "TOO_MANY_REQUESTS", mcp: "http" },
  unavailable: { http: 503, trpc: "SERVICE_UNAVAILABLE", mcp: "http" },
  internal_error: { http: 500, trpc: "INTERNAL_SERVER_ERROR", mcp: "http" },
} as const satisfies Record<string, ErrorRule>;

export type ErrorCode = keyof typeof ERROR_TABLE;

/**
 * Why one field of a request was refused, as a stable code a client can act on (the SPA
 * words its advice from these, never from our sentences). Zod's own issue codes
 * (`too_small`, `too_big`, `invalid_type`, `invalid_format`, …) pass through as they are.
 */
export type IssueCode =
  | "required"
  | "not_text"
  | "not_number"
  | "not_boolean"
  | "not_date"
  | "not_url"
  | "not_option"
  | "not_object"
  | "too_long"
  | "too_large"
  | "too_many"
  | "too_few"
  | "unknown_column"
  | "duplicate"
  | "invalid_name"
  | "reserved_name"
  | "not_allowed"
  | "not_member"
  | "invalid_cursor"
  | "invalid"
  | (string & {});

export interface FieldIssue {
  /** Dotted path of the field at fault (`rows.0.score`, `slug`), or "" for the whole input. */
  path: string;
  code: IssueCode;
  /** A sentence fragment for people and logs ("must be a finite number"). */
  message: string;
  /** What the code needs to be explained: `max`, `options`, `column`, … */
  params?: Record<string, string | number | string[]>;
}

export interface ErrorDetails {
  issues?: FieldIssue[];
  /** The version a `version_conflict` found. */
  current_version?: number;
  [key: string]: unknown;
}

export class AppError extends Error {
  /** Whole seconds until a throttled caller may retry (rate_limited only). */
  readonly retryAfter: number | undefined;
  /** Machine-readable detail that is safe to show the caller (field issues, versions). */
  readonly details: ErrorDetails | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    opts: { retryAfter?: number; details?: ErrorDetails; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AppError";
    this.retryAfter = opts.retryAfter;
    this.details = opts.details;
  }

  get rule(): ErrorRule {
    return ERROR_TABLE[this.code];
  }

  /** The body every plain HTTP route answers with (docs/contract.md#answers-and-errors). */
  toHttpBody(): { error: ErrorCode; error_description: string; details?: ErrorDetails } {
    return this.details ? { error: this.code, error_description: this.message, details: this.details } : { error: this.code, error_description: this.message };
  }
}

/** `invalid_request` for field problems; the message names each field, `details.issues` carries the codes. */
export function invalidInput(issues: FieldIssue[]): AppError {
  const message = issues
    .slice(0, 5)
    .map((i) => (i.path ? `${i.path}: ${i.message}` : i.message))
    .join("; ");
  return new AppError("invalid_request", message || "The request is invalid.", { details: { issues } });
}

/** One field at fault. */
export function invalidField(path: string, code: IssueCode, message: string, params?: FieldIssue["params"]): AppError {
  return invalidInput([params ? { path, code, message, params } : { path, code, message }]);
}

export function invalidCursor(path = "cursor"): AppError {
  return new AppError("invalid_cursor", `${path}: is not one we gave out; start again without it.`, {
    details: { issues: [{ path, code: "invalid_cursor", message: "is not one we gave out" }] },
  });
}

/** A write refused by a unique key (MongoDB's E11000), whoever the driver reports it as. */
export function isDuplicateKey(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === 11000;
}

/** Runs an upsert once more when it lost a race to create the same document (the second finds it). */
export async function retryOnDuplicate<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return await write();
  }
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
  const name = typeof err === "object" && err !== null ? (err as { name?: unknown }).name : undefined;
  if (name === "MongoServerError" && isDuplicateKey(err)) {
    return new AppError("conflict", conflictMessage, { cause: err });
  }
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

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: { error: string; error_description: string; details?: ErrorDetails } | { jsonrpc: "2.0"; error: { code: number; message: string }; id: null };
}

const INTERNAL: HttpAnswer = {
  status: 500,
  headers: {},
  body: { error: "internal_error", error_description: "Something went wrong on our side." },
};

/**
 * How any failure is answered over plain HTTP — the one mapping both Express apps and the
 * /mcp gate use. `null` means "unexpected": the caller logs it and answers the 500 body.
 * Express's own refusals (body-parser, static files) carry a 4xx `status` and are answered
 * as the request's fault.
 */
export function httpAnswerOf(raw: unknown): HttpAnswer | null {
  const err = translateDbError(raw);
  if (err instanceof AppError) {
    const headers: Record<string, string> = {};
    if (err.retryAfter !== undefined) headers["Retry-After"] = String(err.retryAfter);
    const rule: ErrorRule = err.rule;
    // A refusal the table gives a JSON-RPC code (a body that is not JSON-RPC at all) is answered in JSON-RPC.
    if (rule.jsonrpc !== undefined)
      return { status: rule.http, headers, body: { jsonrpc: "2.0", error: { code: rule.jsonrpc, message: err.message }, id: null } };
    return { status: rule.http, headers, body: err.toHttpBody() };
  }
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status !== "number" || status < 400 || status >= 500) return null;
  if (typeof (err as { type?: unknown }).type === "string") {
    // body-parser names its failures (malformed JSON, too large, bad charset) with `type`.
    // docs/contract.md#answers-and-errors: an invalid body is a 400, whatever is wrong with it (too large included).
    return {
      status: 400,
      headers: {},
      body: { error: "invalid_request", error_description: status === 413 ? "The request body is too large." : "The request body could not be read as JSON." },
    };
  }
  if (status === 404) return { status: 404, headers: {}, body: { error: "not_found", error_description: "Nothing here." } };
  // Static files' other refusals (412 precondition failed, 416 range not satisfiable)
  // keep their status and headers.
  const given = (err as { headers?: unknown }).headers;
  const headers = given && typeof given === "object" ? (given as Record<string, string>) : {};
  return { status, headers, body: { error: "invalid_request", error_description: "The request cannot be served as asked." } };
}

export function internalAnswer(): HttpAnswer {
  return INTERNAL;
}
