// /mcp: Streamable HTTP, stateless, both protocol generations from one endpoint (docs/contract.md#answers-and-errors,
// docs/mcp-conformance.md). Who is asking, what they may call, and the sandbox write throttle are decided here at
// the HTTP level, from the body, before any of it runs; refusals are AppErrors answered by
// the app's one error handler. Everything else is the SDK's:
//   2024-11-05 … 2025-11-25 (no per-request `_meta`): a fresh Server and stateless transport
//     per POST, answering JSON (curl-friendly, as before), batches included;
//   2026-07-28 (`_meta` on every request): createMcpHandler, which answers server/discover,
//     validates MCP-Protocol-Version / Mcp-Method / Mcp-Name against the body (400, -32020)
//     and adds ttlMs / cacheScope to cacheable results.
import type { Principal } from "@atelier/shared/domain/access";
import { hasScope, scopeFor } from "@atelier/shared/domain/access";
import { isCrossSite, originOf } from "@atelier/shared/domain/origin";
import { chargeSandboxWrites } from "@atelier/shared/domain/rate-limits";
import { authenticateBearer } from "@atelier/shared/domain/tokens";
import { MCP_ACCEPT } from "@atelier/shared/domain/agent-catalog";
import { AppError, httpAnswerOf } from "@atelier/shared/errors";
import { toNodeHandler } from "@modelcontextprotocol/node";
import {
  createMcpHandler,
  isLegacyRequest,
  ProtocolError,
  ProtocolErrorCode,
  WebStandardStreamableHTTPServerTransport,
  type McpRequestContext,
} from "@modelcontextprotocol/server";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { SidecarDeps } from "./app";
import { readJsonBody } from "./json-body";
import { createMcpServer } from "./mcp-server";
import { isListenRequest, ResourceSubscriptions } from "./subscriptions";
import { callerOf, requestScope, type McpCaller, type McpRequestScope } from "./request-scope";
import type { ToolAccess } from "./tools/define";
import { findTool } from "./tools/index";

const ALLOW_HEADERS = "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID";
const EXPOSE_HEADERS = "WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version, Retry-After";
/** The /mcp body limit: a 1 MiB page body, JSON-escaped, fits, and push_image's 5 MB of image in base64 (6.7 MB). */
const BODY_LIMIT_BYTES = 8 * 1024 * 1024;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
/**
 * JSON-RPC batches belong to protocol versions 2024-11-05 and 2025-03-26 (a request without
 * MCP-Protocol-Version is 2025-03-26, as the spec allows); 2025-06-18 removed them and
 * 2026-07-28 has none. The SDK's 2025 transport would run a batch whatever the version says.
 */
const LAST_VERSION_WITH_BATCHES = "2025-03-26";

/** JSON-RPC codes that blame the request, not the server. */
const CLIENT_PROTOCOL_ERRORS = new Set<number>([
  ProtocolErrorCode.ParseError,
  ProtocolErrorCode.InvalidRequest,
  ProtocolErrorCode.MethodNotFound,
  ProtocolErrorCode.InvalidParams,
  ProtocolErrorCode.MissingRequiredClientCapability,
  ProtocolErrorCode.UnsupportedProtocolVersion,
]);

/** Whether the SDK's report is about a request it refused (the client's mistake) rather than a failure of ours. */
export function isClientMistake(err: Error): boolean {
  if (err instanceof ProtocolError) return CLIENT_PROTOCOL_ERRORS.has(err.code);
  return /^(Rejected |Unsupported Media Type|Not Acceptable|Bad Request|Invalid Request|Parse error|Method not allowed)/.test(err.message);
}

/**
 * Closes a request's transport and server once it has answered. Closing makes the SDK build a
 * "Connection closed" error for handlers that might still wait (none do here: the answer is
 * out), and capturing that error's stack cost about 18 µs a request, 2 % of a get_page
 * (issue 30, docs/performance.md). The error is built with no stack: it is never thrown to us
 * or logged. The close itself (aborting anything still running) happens as before.
 */
function closeQuietly(transport: { close(): Promise<void> }, server: { close(): Promise<void> }): void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    void transport.close().catch(() => {});
    void server.close().catch(() => {});
  } finally {
    Error.stackTraceLimit = limit;
  }
}

interface JsonRpcMessage {
  method?: unknown;
  params?: { name?: unknown };
}

/** The access each call of a request needs (a JSON-RPC batch may carry many): tools by their kind, resource reads as reads. */
export function accessNeeded(body: unknown): ToolAccess[] {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const out: ToolAccess[] = [];
  for (const raw of messages) {
    if (!raw || typeof raw !== "object") continue;
    const m = raw as JsonRpcMessage;
    if (m.method === "tools/call" && typeof m.params?.name === "string") {
      const tool = findTool(m.params.name);
      if (tool) out.push(tool.access);
    } else if (m.method === "resources/read") out.push("read");
  }
  return out;
}

/**
 * The HTTP-level refusal for a call of `access` by `principal`, or null when the call may go
 * on. No token: 401, which makes OAuth clients sign in. A token without the scope: 403
 * `insufficient_scope`. An unclaimed sandbox's token calling an owner's tool is not refused
 * here: signing in again cannot fix that, so it becomes a tool error.
 */
function refusalFor({ principal, allowed }: McpCaller, access: ToolAccess): AppError | null {
  if (allowed.has(access)) return null;
  const scope = scopeFor(access);
  if (principal.kind !== "token") return new AppError("unauthorized", `This tool needs sign-in: send a token with ${scope}.`, { details: { scope } });
  if (access === "admin" && hasScope(principal.token, "mcp:write")) return null;
  return new AppError("insufficient_scope", `This tool needs the ${scope} scope, which this token lacks.`, { details: { scope } });
}

/** How deep a body may nest: far beyond any tool's arguments, and well inside what the SDK can re-serialise. */
const MAX_NESTING = 100;

/** Whether `value` nests deeper than `max` (walked without recursion: the body may be 100,000 levels deep). */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 1 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (item.depth > max) return true;
    const { v, depth } = item;
    if (v === null || typeof v !== "object") continue;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === "object") stack.push({ v: child, depth: depth + 1 });
    }
  }
  return false;
}

/** The answer to a request whose handlers met an error the table answers at the HTTP level (see McpRequestScope.failure). */
function httpLevelAnswer(failure: AppError): globalThis.Response | null {
  const answer = httpAnswerOf(failure);
  if (!answer) return null;
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { ...answer.headers, "Content-Type": "application/json" } });
}

/** A refusal the table answers at the HTTP level, as a Response. */
function httpAnswer(refusal: AppError): globalThis.Response {
  return httpLevelAnswer(refusal) ?? new Response(null, { status: 500 });
}

function readsResource(body: unknown): boolean {
  return (Array.isArray(body) ? body : [body]).some((m) => (m as JsonRpcMessage | null)?.method === "resources/read");
}

/**
 * Up to 2025-11-25 the resource-not-found error is -32002; the SDK answers -32602 (the
 * 2026-07-28 code, with `data: {uri}`) on every revision. Put the revision's own code back on
 * the 2025 leg's JSON answers.
 */
async function withLegacyResourceNotFound(response: globalThis.Response): Promise<globalThis.Response> {
  if (!(response.headers.get("content-type") ?? "").includes("application/json")) return response;
  const answer = (await response.json()) as unknown;
  const fix = (m: unknown) => {
    const error = (m as { error?: { code?: unknown; data?: unknown } } | null)?.error;
    const data = error?.data;
    if (error && error.code === -32602 && data && typeof data === "object" && Object.keys(data).join() === "uri") error.code = -32002;
    return m;
  };
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(Array.isArray(answer) ? answer.map(fix) : fix(answer)), { status: response.status, headers });
}

/**
 * The /mcp endpoint as a plain node:http handler (issue 15: no Express router, body parser or
 * per-request middleware in front of the SDK). Refusals are thrown as AppErrors; the
 * sidecar's front answers them (app.ts).
 */
export function mcpEndpoint(
  deps: SidecarDeps,
  requestProtocol: (req: IncomingMessage) => string,
): ((req: IncomingMessage, res: ServerResponse) => Promise<void>) & { closeStreams(): Promise<void> } {
  const { config, logger } = deps;
  const publicOrigin = originOf(config.BASE_URL);
  const publicHostname = new URL(config.BASE_URL).hostname.toLowerCase();
  // The SDK reports the requests it refuses (a client's mistake: headers, versions, media
  // type) through the same callback as its own failures: a client's mistake is one warn line
  // without a stack (issue 23 item 16), anything else an error with its stack.
  const onerror = (err: Error) => {
    if (isClientMistake(err)) logger.warn({ reason: err.message }, "mcp request refused");
    else logger.error({ err }, "mcp transport error");
  };

  // 2026-07-28: the SDK's entry, modern only (the 2025 generation is routed below). The SDK
  // hands the factory the Request it was given, by which the request's scope is found.
  const modernScopes = new WeakMap<globalThis.Request, McpRequestScope>();
  const modernServer = (ctx: McpRequestContext) => {
    const scope = ctx.requestInfo ? modernScopes.get(ctx.requestInfo) : undefined;
    if (!scope) throw new Error("An MCP request reached the server without its scope.");
    return createMcpServer(deps, scope);
  };
  const modern = createMcpHandler(modernServer, { legacy: "reject", onerror });
  // 2026-07-28 `subscriptions/listen`: a stream of its own per request, every delivery
  // checked against the subscriber's access then (subscriptions.ts). Only where this process
  // follows the change feed; the server declares `resources.subscribe` on the same condition.
  const subscriptions = deps.follower ? new ResourceSubscriptions(deps, deps.follower, modernServer, onerror) : null;

  // 2024-11-05 … 2025-11-25: one stateless transport and server per POST, answering JSON.
  const legacy = async (request: globalThis.Request, parsedBody: unknown, scope: McpRequestScope): Promise<globalThis.Response> => {
    // The 2025 transport needs both media types in Accept; the SDK's own 406 is a JSON-RPC
    // error, so refuse it first in the documented {error, error_description} shape.
    const accept = request.headers.get("accept") ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
      logger.warn({ reason: "Not Acceptable: Accept lacks application/json or text/event-stream" }, "mcp request refused");
      return httpAnswer(new AppError("not_acceptable", `Not Acceptable: send Accept: ${MCP_ACCEPT} (the MCP transport may answer in either).`));
    }
    const server = createMcpServer(deps, scope);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    transport.onerror = onerror;
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(request, parsedBody !== undefined ? { parsedBody } : {});
      return readsResource(parsedBody) ? withLegacyResourceNotFound(response) : response;
    } finally {
      closeQuietly(transport, server);
    }
  };

  // The SDK's own classification decides the generation, so routing never disagrees with it.
  const route = async (request: globalThis.Request, parsedBody: unknown, caller: McpCaller, credential: string | null): Promise<globalThis.Response> => {
    const scope = requestScope(caller, (await isLegacyRequest(request, parsedBody)) ? "legacy" : "modern");
    let response: globalThis.Response;
    if (scope.era === "legacy") response = await legacy(request, parsedBody, scope);
    else {
      modernScopes.set(request, scope);
      response =
        subscriptions && isListenRequest(parsedBody)
          ? await subscriptions.serve(request, parsedBody, caller.principal, credential)
          : await modern.fetch(request, parsedBody !== undefined ? { parsedBody } : undefined);
    }
    return (scope.failure && httpLevelAnswer(scope.failure)) ?? response;
  };

  /** The node:http face for one request, its caller decided. */
  const serve = (caller: McpCaller, credential: string | null) =>
    toNodeHandler({ fetch: (request, options) => route(request, options?.parsedBody, caller, credential) }, { onerror, maxRequestBodySize: BODY_LIMIT_BYTES });

  const endpoint = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // DNS rebinding and cross-site requests: the Host's name must be ours (or loopback, for
    // processes on this machine; the port is not compared, proxies often drop it) and a
    // browser's Origin must be ours.
    const host = (req.headers.host ?? "").toLowerCase();
    const hostname = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : (host.split(":")[0] ?? "");
    if (hostname !== publicHostname && !LOOPBACK_HOSTS.has(hostname)) {
      throw new AppError("forbidden", "This MCP endpoint does not answer for that host name.");
    }
    const origin = req.headers.origin;
    if (origin !== undefined && isCrossSite({ origin }, [publicOrigin, `${requestProtocol(req)}://${host}`])) {
      throw new AppError("forbidden", "Requests from this origin are not allowed.");
    }
    if (origin !== undefined) {
      res.setHeader("Access-Control-Allow-Origin", origin);
      res.setHeader("Access-Control-Expose-Headers", EXPOSE_HEADERS);
      res.setHeader("Vary", "Origin");
    }
    if (req.method === "OPTIONS") {
      res.writeHead(204, { "Access-Control-Allow-Methods": "POST, OPTIONS", "Access-Control-Allow-Headers": ALLOW_HEADERS, "Access-Control-Max-Age": "600" });
      res.end();
      return;
    }
    // Stateless: no event stream to open (GET), no session to end (DELETE), nothing else.
    if (req.method !== "POST") {
      throw new AppError(
        "method_not_allowed",
        "This MCP server is stateless: POST JSON-RPC messages to /mcp. There is no server-sent event stream to open or session to end.",
      );
    }

    // A JSON body is parsed here (the checks below need it); anything else goes to the SDK
    // unread, which refuses it with 415.
    const body = await readJsonBody(req, BODY_LIMIT_BYTES);
    if (nestsDeeperThan(body, MAX_NESTING)) throw new AppError("invalid_json", `Parse error: the body nests more than ${MAX_NESTING} levels deep.`);
    if (Array.isArray(body)) {
      const version = headerOf(req, "mcp-protocol-version") ?? LAST_VERSION_WITH_BATCHES;
      if (version > LAST_VERSION_WITH_BATCHES) {
        throw new AppError("batch_not_supported", "Invalid Request: JSON-RPC batches are not part of this protocol version; send one message per POST.");
      }
    }
    // Who is asking.
    let principal: Principal = { kind: "nobody" };
    let credential: string | null = null;
    const authz = headerOf(req, "authorization");
    if (authz !== undefined) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(authz);
      if (!m?.[1]) throw new AppError("invalid_token", "Send the token as: Authorization: Bearer <token>.");
      credential = m[1];
      principal = { kind: "token", token: await authenticateBearer(deps, credential) };
    }

    // What every call in the body asks for, checked before any of it runs.
    const caller = callerOf(principal);
    const needed = accessNeeded(body);
    for (const access of needed) {
      const refusal = refusalFor(caller, access);
      if (refusal) throw refusal;
    }
    // The sandbox write throttle counts every write in the body (a batch of 100 is 100), all or nothing.
    if (principal.kind === "token") {
      await chargeSandboxWrites(deps, principal.token, needed.filter((a) => a !== "read").length);
    }

    await serve(caller, credential)(req, res, body);
  };
  return Object.assign(endpoint, {
    /** Ends every open subscription stream (the process is stopping). */
    closeStreams: async () => subscriptions?.closeAll(),
  });
}

/** A request header as one string (repeated headers joined, as Express's req.get does for most). */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
}
