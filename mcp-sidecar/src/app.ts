// The sidecar's HTTP front: node:http with the two routes it has (/healthz and /mcp), one
// error path and one request log line, and no framework in between (issue 15: Express's
// router, body parser and pino-http took about a quarter of the CPU of every MCP call).
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { TLSSocket } from "node:tls";
import type { Config } from "@atelier/shared/config";
import { trustProxySetting } from "@atelier/shared/config";
import type { ChangeFollower } from "@atelier/shared/domain/changes/follower";
import type { Deps } from "@atelier/shared/domain/deps";
import { bearerChallenge } from "@atelier/shared/domain/discovery";
import { AppError, translateDbError } from "@atelier/shared/errors";
import { healthStatus } from "@atelier/shared/health";
import { requestLineWriter } from "@atelier/shared/http-log";
import { sendError } from "@atelier/shared/http-errors";
import type { Logger } from "@atelier/shared/logger";
import proxyaddr from "proxy-addr";
import { drainRequest } from "./json-body";
import { mcpEndpoint } from "./mcp-endpoint";

/** What the sidecar process builds once: the domain's deps and its logger. */
export interface SidecarDeps extends Deps {
  logger: Logger;
  /** Where request lines go (a buffered logger in production); the logger when absent. */
  requestLogger?: Logger;
  /** This process's follower of the change feed; without one, no resource subscriptions are offered. */
  follower?: ChangeFollower;
}

/** TRUST_PROXY as a function of (address, hop), the way Express reads its `trust proxy` setting. */
function trustFunction(value: string): (addr: string, hop: number) => boolean {
  const setting = trustProxySetting(value);
  if (typeof setting === "number") return (_addr, hop) => hop < setting;
  return proxyaddr.compile(
    setting
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

/** The scheme the client used: TLS here, or X-Forwarded-Proto from a trusted proxy. */
function protocolOf(trust: (addr: string, hop: number) => boolean) {
  return (req: IncomingMessage): string => {
    const own = req.socket instanceof TLSSocket && req.socket.encrypted ? "https" : "http";
    if (!trust(req.socket.remoteAddress ?? "", 0)) return own;
    const forwarded = req.headers["x-forwarded-proto"];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",", 1)[0]?.trim();
    return first || own;
  };
}

/** Whether a browser that asked prefers HTML to JSON (a person who opened /mcp in a tab). */
function prefersHtml(req: IncomingMessage): boolean {
  const accept = req.headers.accept ?? "";
  const html = accept.indexOf("text/html");
  const json = accept.indexOf("application/json");
  return html !== -1 && (json === -1 || html < json);
}

const BROWSER_405 = `<!doctype html><meta charset="utf-8"><title>Atelier MCP</title><p>This is Atelier's MCP endpoint; MCP clients POST to it. To connect an agent, see <a href="/docs/connect/agents">the connection guide</a>.</p>`;

/**
 * /mcp's refusals: the one shared mapping (@atelier/shared/errors: status, body, Retry-After,
 * JSON-RPC codes) with the headers that belong to an MCP endpoint added — the RFC 9728
 * challenge on 401/403 and Allow on 405. Never a stack.
 */
async function answerError(config: Config, logger: Logger, req: IncomingMessage, res: ServerResponse, raw: unknown): Promise<void> {
  const err = translateDbError(raw);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // A refusal before the body was read (too large, another host, a bad charset): read the rest first.
  await drainRequest(req);
  if (res.headersSent || res.destroyed) return;
  if (err instanceof AppError) {
    const scope = typeof err.details?.scope === "string" ? err.details.scope : undefined;
    if (err.code === "unauthorized") res.setHeader("WWW-Authenticate", bearerChallenge(config.BASE_URL, { scope }));
    if (err.code === "invalid_token") res.setHeader("WWW-Authenticate", bearerChallenge(config.BASE_URL, { error: "invalid_token", description: err.message }));
    if (err.code === "insufficient_scope")
      res.setHeader("WWW-Authenticate", bearerChallenge(config.BASE_URL, { error: "insufficient_scope", description: err.message, scope }));
    if (err.code === "method_not_allowed") {
      res.setHeader("Allow", "POST, OPTIONS");
      if (req.method === "GET" && prefersHtml(req)) {
        res.writeHead(405, { "Content-Type": "text/html; charset=utf-8", "Content-Length": Buffer.byteLength(BROWSER_405) });
        res.end(BROWSER_405);
        return;
      }
    }
  }
  sendError(res, err, logger);
}

export function createSidecarApp(deps: SidecarDeps): RequestListener & { closeStreams(): Promise<void> } {
  const { config, logger } = deps;
  const requestLogger = deps.requestLogger ?? logger;
  const mcp = mcpEndpoint(deps, protocolOf(trustFunction(config.TRUST_PROXY)));
  let nextId = 0;
  // Request lines from a template (the bytes pino would write; shared/src/http-log.ts).
  const completed = requestLineWriter(requestLogger, "request completed");
  const aborted = requestLineWriter(requestLogger, "request aborted");

  const route = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (path === "/mcp") return mcp(req, res);
    if (path === "/healthz" && (req.method === "GET" || req.method === "HEAD")) {
      const { status, body } = await healthStatus(deps.database);
      const text = JSON.stringify(body);
      res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : text);
      return;
    }
    throw new AppError("not_found", "The MCP endpoint is /mcp.");
  };

  const listener: RequestListener = (req, res) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    if (path !== "/healthz") {
      const id = ++nextId;
      const startedAt = performance.now();
      res.once("close", () => (res.writableFinished ? completed : aborted)({ id, method: req.method, url, statusCode: res.statusCode, startedAt }));
    }
    route(req, res, path).catch((err: unknown) =>
      answerError(config, logger, req, res, err).catch((e: unknown) => {
        logger.error({ err: e }, "answering an error failed");
        res.destroy();
      }),
    );
  };
  // Open subscription streams never finish on their own: ended when the process stops.
  return Object.assign(listener, { closeStreams: () => mcp.closeStreams() });
}
