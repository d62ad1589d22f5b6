// The MCP server for one request: a low-level SDK Server whose handlers close over the
// request's scope (request-scope.ts: the caller, what it may call, the protocol era, the
// HTTP-level failure). Everything that does not
// depend on the caller (tool listings with their JSON schemas, the JSON Schema validator, the
// cache hints) is built once per process.
import { PROMPT_CATALOG, PROMPT_NAMES, promptText, type PromptName } from "@atelier/shared/domain/agent-catalog";
import type { ChangeFollower } from "@atelier/shared/domain/changes/follower";
import type { Deps } from "@atelier/shared/domain/deps";
import { listPageResources, readPageResource } from "@atelier/shared/domain/resources";
import { AppError, invalidInput, translateDbError, type ErrorDetails } from "@atelier/shared/errors";
import type { Logger } from "@atelier/shared/logger";
import { serverInfo } from "@atelier/shared/domain/server-card";
import type { Config } from "@atelier/shared/config";
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, Server, type CallToolResult, type ServerOptions } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { fieldIssuesOf } from "@atelier/shared/schemas/parse";
import { noteHttpLevel, type McpRequestScope } from "./request-scope";
import { type ToolContext, type ToolDef, WithContent } from "./tools/define";
import { findTool, toolsListFor } from "./tools/index";

export { RESOURCES_PAGE_SIZE } from "@atelier/shared/domain/resources";

const INSTRUCTIONS =
  "Atelier keeps living artifacts: Markdown or HTML pages and data tables in workspaces. Read with list_workspaces, list_pages, get_page, search_pages; " +
  "write with create_page and update_page (pass expected_version to avoid overwriting someone else's change). Every write is recorded in the page history under this token's name. " +
  "Tools that write need sign-in: without a token, calling one starts it. The prompts publish_page, summarise_workspace, update_page and address_comments walk through the common tasks.";

// One JSON Schema validator for the whole process: by default every SDK Server builds its own
// (an Ajv instance with its formats), which would be one per request here.
const VALIDATOR = new AjvJsonSchemaValidator();

// Cache hints of the 2026-07-28 revision (ttlMs / cacheScope). Tool and template lists change
// only with a deployment; what a caller may read changes at any time. Everything that depends
// on who asks is private; a page of a public workspace is public (set on the result itself).
const TTL_STATIC_MS = 300_000;
const SERVER_OPTIONS: ServerOptions = {
  capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } },
  instructions: INSTRUCTIONS,
  jsonSchemaValidator: VALIDATOR,
  cacheHints: {
    "server/discover": { ttlMs: TTL_STATIC_MS, cacheScope: "public" },
    "tools/list": { ttlMs: TTL_STATIC_MS, cacheScope: "private" },
    "prompts/list": { ttlMs: TTL_STATIC_MS, cacheScope: "public" },
    "resources/templates/list": { ttlMs: TTL_STATIC_MS, cacheScope: "public" },
    "resources/list": { ttlMs: 0, cacheScope: "private" },
    "resources/read": { ttlMs: 0, cacheScope: "private" },
  },
};

// Resource subscriptions on 2026-07-28 only, where `subscriptions/listen` holds a stream and
// every delivery is checked (subscriptions.ts). The 2025 generation's `resources/subscribe`
// needs a session and a held GET stream; this sidecar is stateless, so it is not declared
// there (docs/decisions.md#mcp-resource-subscriptions-issue-25).
const MODERN_OPTIONS: ServerOptions = {
  ...SERVER_OPTIONS,
  capabilities: { ...SERVER_OPTIONS.capabilities, resources: { listChanged: false, subscribe: true } },
};

const RESOURCE_TEMPLATES = {
  resourceTemplates: [
    {
      uriTemplate: "artifact://{slug}",
      name: "artifact",
      title: "Atelier page",
      description: "A page's Markdown (or HTML) by its slug.",
      mimeType: "text/markdown",
    },
  ],
};

// Prompts are the same for everyone: what they ask for is done by tools, which check access.
const PROMPTS = {
  prompts: PROMPT_NAMES.map((name) => {
    const p = PROMPT_CATALOG[name];
    return { name, title: p.title, description: p.description, arguments: p.arguments.map((a) => ({ ...a })) };
  }),
};

function isPromptName(name: string): name is PromptName {
  return Object.hasOwn(PROMPT_CATALOG, name);
}

/** prompts/get: the prompt's one user message, or invalid params for an unknown prompt or a missing argument. */
function getPrompt(name: string, args: Record<string, string> | undefined) {
  if (!isPromptName(name)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Unknown prompt: prompts/list names the prompts this server offers.");
  const entry = PROMPT_CATALOG[name];
  const given = new Map(Object.entries(args ?? {}));
  const missing = entry.arguments.filter((a) => a.required && !given.get(a.name)?.trim());
  if (missing.length > 0) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Missing argument: ${missing.map((a) => a.name).join(", ")}.`);
  const known = Object.fromEntries(entry.arguments.map((a) => [a.name, given.get(a.name)?.trim() || undefined]));
  return {
    description: entry.description,
    messages: [{ role: "user" as const, content: { type: "text" as const, text: promptText(name, known) } }],
  };
}

/**
 * A tool error: its code, its sentence and, as on tRPC, its machine-readable details
 * (`current_version` of a version conflict, field `issues` with paths and codes). The text
 * carries all of it as JSON, for every client. On 2026-07-28 it is `structuredContent` too;
 * 2025-era clients of the 1.x SDK check any `structuredContent` against the tool's output
 * schema, error or not, so there it stays in the text (docs/decisions.md, issue 24).
 */
function errorResult(era: McpRequestScope["era"], code: string, message: string, details?: ErrorDetails): CallToolResult {
  const body = { error: code, message, ...(details ? { details } : {}) };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }], ...(era === "modern" ? { structuredContent: body } : {}) };
}

// Built once per process: who this server is (shared/src/domain/server-card.ts).
let info: { baseUrl: string; value: ReturnType<typeof serverInfo> } | null = null;
function serverInfoOf(config: Pick<Config, "BASE_URL">) {
  if (info?.baseUrl !== config.BASE_URL) info = { baseUrl: config.BASE_URL, value: serverInfo(config) };
  return info.value;
}

/**
 * A tool's output checked against its schema, and its JSON text. An output the tool hands out
 * frozen is shared between calls (get_page's view of a page, once per version): it is checked
 * and serialised once, and every later call reuses both (issue 30).
 */
const CHECKED = new WeakMap<object, { out: Record<string, unknown>; text: string }>();
function checkedOutput(tool: ToolDef, raw: unknown): { out: Record<string, unknown>; text: string } {
  const shared = raw !== null && typeof raw === "object" && Object.isFrozen(raw);
  const hit = shared ? CHECKED.get(raw) : undefined;
  if (hit) return hit;
  const out = tool.output.parse(raw);
  const checked = { out, text: JSON.stringify(out) };
  if (shared) CHECKED.set(raw, checked);
  return checked;
}

export interface McpServerDeps extends Deps {
  logger: Logger;
  /** This process's follower of the change feed: where there is one, 2026-07-28 clients may subscribe to resources. */
  follower?: ChangeFollower;
}

export function createMcpServer(deps: McpServerDeps, scope: McpRequestScope): Server {
  const { principal, allowed, era } = scope;
  // The low-level Server (the SDK marks it "advanced use"): we own dispatch, so that tool
  // listings and their JSON schemas are built once per process, not per request.
  const server = new Server(serverInfoOf(deps.config), era === "modern" && deps.follower ? MODERN_OPTIONS : SERVER_OPTIONS);
  const ctx: ToolContext = { config: deps.config, database: deps.database, mailer: deps.mailer, cache: deps.cache, views: deps.views, principal };

  server.setRequestHandler("tools/list", () => toolsListFor(principal, deps.config.BASE_URL));

  server.setRequestHandler("tools/call", async (request): Promise<CallToolResult> => {
    const tool = findTool(request.params.name);
    // An unknown tool is a protocol error (the spec's "Unknown tool"), not a tool result.
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Unknown tool: tools/list names the tools this server offers.");
    // Scope problems were answered at the HTTP level (401/403) before this runs; what is
    // left is a refusal that signing in again cannot fix: an unclaimed sandbox's token
    // calling an owner's tool.
    if (!allowed.has(tool.access)) {
      return errorResult(
        era,
        "forbidden",
        "An unclaimed sandbox token cannot publish, share, add collaborators or create workspaces; a person must claim the sandbox first.",
      );
    }
    const parsed = tool.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      const message = parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.map(String).join(".") || "(arguments)"}: ${i.message}`)
        .join("; ");
      return errorResult(era, "invalid_request", message, invalidInput(fieldIssuesOf(parsed.error.issues)).details);
    }
    try {
      const ran = await tool.run(ctx, parsed.data);
      const [raw, extra] = ran instanceof WithContent ? [ran.output, ran.content] : [ran, []];
      const { out, text } = checkedOutput(tool, raw);
      // The JSON first (clients that read only the first item still get the whole result), then any image.
      return { content: [{ type: "text", text }, ...extra], structuredContent: out };
    } catch (raw) {
      const err = translateDbError(raw);
      noteHttpLevel(scope, err);
      if (err instanceof AppError) return errorResult(era, err.code, err.message, err.details);
      deps.logger.error({ err, tool: tool.name }, "tool failed");
      return errorResult(era, "internal_error", "Something went wrong on our side.");
    }
  });

  server.setRequestHandler("prompts/list", () => PROMPTS);
  server.setRequestHandler("prompts/get", (request) => getPrompt(request.params.name, request.params.arguments));

  server.setRequestHandler("resources/templates/list", () => RESOURCE_TEMPLATES);

  server.setRequestHandler("resources/list", async (request) => {
    try {
      const { resources, nextCursor } = await listPageResources(deps, principal, request.params?.cursor);
      return nextCursor ? { resources, nextCursor } : { resources };
    } catch (raw) {
      throw protocolErrorOf(raw, scope, deps.logger);
    }
  });

  server.setRequestHandler("resources/read", async (request) => {
    const uri = request.params.uri;
    try {
      const { mimeType, text, isPublic } = await readPageResource(deps, principal, uri);
      return {
        contents: [{ uri, mimeType, text }],
        // 2025-era results never carry cache fields; a page anyone may read may be cached by anyone.
        ...(era === "modern" && isPublic ? { ttlMs: 0, cacheScope: "public" as const } : {}),
      };
    } catch (raw) {
      // Missing and unreadable read alike (existence does not leak): the SDK answers
      // -32602 with data {uri} (2026-07-28); the 2025 leg turns it into -32002.
      const err = translateDbError(raw);
      if (err instanceof AppError && (err.code === "not_found" || err.code === "forbidden")) throw new ResourceNotFoundError(uri, "Resource not found.");
      throw protocolErrorOf(err, scope, deps.logger);
    }
  });

  return server;
}

/** A failure in a resource handler as the JSON-RPC error it is: a bad cursor is invalid params, anything else internal. */
function protocolErrorOf(raw: unknown, scope: McpRequestScope, logger: Logger): ProtocolError {
  const err = translateDbError(raw);
  noteHttpLevel(scope, err);
  if (err instanceof AppError && err.code === "invalid_cursor") {
    return new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid cursor: pass the nextCursor of the previous resources/list answer.");
  }
  if (!(err instanceof AppError)) logger.error({ err }, "resource handler failed");
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    err instanceof AppError && err.code === "unavailable" ? err.message : "Something went wrong on our side.",
  );
}
