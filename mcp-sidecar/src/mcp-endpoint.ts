// POST /mcp: Streamable HTTP, stateless. Auth, scopes and throttling are answered here at
// the HTTP level (DESIGN §5); everything else is the MCP server's.
import type { Principal } from "@atelier/shared/domain/access";
import { mcpToolAccess, scopeFor } from "@atelier/shared/domain/access";
import { bearerChallenge } from "@atelier/shared/domain/discovery";
import { isCrossSite, originOf } from "@atelier/shared/domain/origin";
import { hit } from "@atelier/shared/domain/rate-limits";
import { authenticateBearer } from "@atelier/shared/domain/tokens";
import { AppError } from "@atelier/shared/errors";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import express, { Router, type NextFunction, type Request, type Response } from "express";
import type { SidecarDeps } from "./app";
import { createMcpServer } from "./mcp-server";
import { findTool } from "./tools/index";

const ALLOW_HEADERS = "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID";
const EXPOSE_HEADERS = "WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version, Retry-After";

function jsonError(res: Response, status: number, error: string, description: string, headers: Record<string, string> = {}): void {
  res.status(status).set(headers).json({ error, error_description: description });
}

interface JsonRpcMessage {
  method?: unknown;
  params?: { name?: unknown };
}

/** The kinds of tool a request's messages call ("read" for resource reads), to check before running them. */
function accessNeeded(body: unknown): ("read" | "write" | "admin")[] {
  const messages: JsonRpcMessage[] = Array.isArray(body) ? (body as JsonRpcMessage[]) : [body as JsonRpcMessage];
  const out: ("read" | "write" | "admin")[] = [];
  for (const m of messages) {
    if (!m || typeof m !== "object") continue;
    if (m.method === "tools/call" && typeof m.params?.name === "string") {
      const tool = findTool(m.params.name);
      if (tool) out.push(tool.access);
    } else if (m.method === "resources/read") out.push("read");
  }
  return out;
}

export function mcpRoutes(deps: SidecarDeps): Router {
  const { config } = deps;
  const publicOrigin = originOf(config.BASE_URL);
  const r = Router();

  r.use("/mcp", (req, res, next) => {
    const origin = req.get("origin");
    const own = `${req.protocol}://${req.host}`.toLowerCase();
    if (origin !== undefined && isCrossSite({ origin }, [publicOrigin, own])) {
      return jsonError(res, 403, "forbidden", "Requests from this origin are not allowed.");
    }
    if (origin !== undefined) {
      res.set({ "Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": EXPOSE_HEADERS, Vary: "Origin" });
    }
    if (req.method === "OPTIONS") {
      res.set({ "Access-Control-Allow-Methods": "POST, GET, DELETE, OPTIONS", "Access-Control-Allow-Headers": ALLOW_HEADERS, "Access-Control-Max-Age": "600" });
      res.status(204).end();
      return;
    }
    next();
  });

  const methodNotAllowed = (req: Request, res: Response) => {
    res.set("Allow", "POST, OPTIONS");
    if (req.method === "GET" && req.accepts(["json", "html"]) === "html") {
      res
        .status(405)
        .type("html")
        .send(`<!doctype html><meta charset="utf-8"><title>Atelier MCP</title><p>This is Atelier's MCP endpoint; MCP clients POST to it. To connect an agent, see <a href="/docs/connect/agents">the connection guide</a>.</p>`);
      return;
    }
    jsonError(res, 405, "method_not_allowed", "This MCP server is stateless: POST JSON-RPC messages to /mcp. There is no server-sent event stream to open or session to end.");
  };
  r.get("/mcp", methodNotAllowed);
  r.delete("/mcp", methodNotAllowed);

  r.post(
    "/mcp",
    express.json({ limit: "4mb", strict: true }),
    (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
      const status = (err as { status?: number }).status;
      res.status(status === 413 ? 413 : 400).json({
        jsonrpc: "2.0",
        error: { code: -32700, message: status === 413 ? "Request too large (4 MB at most)." : "Parse error: the body is not valid JSON." },
        id: null,
      });
    },
    async (req: Request, res: Response) => {
      // Who is asking.
      let principal: Principal = { kind: "nobody" };
      const authz = req.get("authorization");
      if (authz !== undefined) {
        const m = /^Bearer\s+(\S+)\s*$/i.exec(authz);
        try {
          if (!m?.[1]) throw new AppError("invalid_token", "Send the token as: Authorization: Bearer <token>.");
          principal = { kind: "token", token: await authenticateBearer(deps, m[1]) };
        } catch (err) {
          if (err instanceof AppError && err.code === "invalid_token") {
            return jsonError(res, 401, "invalid_token", err.message, {
              "WWW-Authenticate": bearerChallenge(config.BASE_URL, { error: "invalid_token", description: err.message }),
            });
          }
          throw err;
        }
      }

      // What it asks for, checked against what it may do.
      const needed = accessNeeded(req.body);
      const allowed = mcpToolAccess(principal);
      for (const access of needed) {
        if (allowed.has(access)) continue;
        const scope = scopeFor(access);
        if (principal.kind === "nobody") {
          return jsonError(res, 401, "unauthorized", `This call needs a token with ${scope}.`, {
            "WWW-Authenticate": bearerChallenge(config.BASE_URL, { scope }),
          });
        }
        const description =
          access === "admin" && allowed.has("write")
            ? "An unclaimed sandbox token cannot publish, share or manage collaborators."
            : `This call needs the ${scope} scope.`;
        return jsonError(res, 403, "insufficient_scope", description, {
          "WWW-Authenticate": bearerChallenge(config.BASE_URL, { error: "insufficient_scope", scope }),
        });
      }

      // An unclaimed sandbox token writes at most ANON_WRITES_PER_MINUTE times a minute.
      if (principal.kind === "token" && principal.token.kind === "anonymous" && needed.some((a) => a !== "read")) {
        try {
          await hit(deps, { bucket: "sandbox-writes", key: principal.token._id, max: config.ANON_WRITES_PER_MINUTE, windowSeconds: 60 }, "This sandbox token has reached its writes per minute; wait before writing again.");
        } catch (err) {
          if (err instanceof AppError && err.code === "rate_limited") {
            return jsonError(res, 429, "rate_limited", err.message, { "Retry-After": String(err.retryAfter ?? 60) });
          }
          throw err;
        }
      }

      const server = createMcpServer(deps, principal);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    },
  );
  return r;
}
