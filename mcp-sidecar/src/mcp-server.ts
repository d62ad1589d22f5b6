// The MCP server for one request: a low-level SDK Server whose handlers close over the
// caller's principal. Tool definitions and JSON schemas are built once per process (tools/).
import type { Principal } from "@atelier/shared/domain/access";
import { mcpToolAccess } from "@atelier/shared/domain/access";
import type { Deps } from "@atelier/shared/domain/deps";
import { listPageResources, readPageResource } from "@atelier/shared/domain/resources";
import { AppError, translateDbError } from "@atelier/shared/errors";
import type { Logger } from "@atelier/shared/logger";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { ToolContext } from "./tools/define";
import { findTool, toolsListFor } from "./tools/index";

export const SERVER_INFO = { name: "atelier", title: "Atelier", version: "0.1.0" };

const INSTRUCTIONS =
  "Atelier keeps living artifacts: Markdown or HTML pages in workspaces. Read with list_workspaces, list_pages, get_page, search_pages; " +
  "write with create_page and update_page (pass expected_version to avoid overwriting someone else's change). Every write is recorded in the page history under this token's name.";

function errorResult(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify({ error: code, message }) }] };
}

export function createMcpServer(deps: Deps & { logger: Logger }, principal: Principal): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
    instructions: INSTRUCTIONS,
  });
  const ctx: ToolContext = { config: deps.config, database: deps.database, mailer: deps.mailer, cache: deps.cache, principal };
  const allowed = mcpToolAccess(principal);

  server.setRequestHandler(ListToolsRequestSchema, () => toolsListFor(allowed));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = findTool(request.params.name);
    if (!tool || !allowed.has(tool.access)) return errorResult("not_found", `No tool named "${request.params.name}" is available to this caller.`);
    const parsed = tool.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      const message = parsed.error.issues.slice(0, 5).map((i) => `${i.path.map(String).join(".") || "(arguments)"}: ${i.message}`).join("; ");
      return errorResult("invalid_request", message);
    }
    try {
      const out = tool.output.parse(await tool.run(ctx, parsed.data));
      return { content: [{ type: "text", text: JSON.stringify(out) }], structuredContent: out };
    } catch (raw) {
      const err = translateDbError(raw);
      if (err instanceof AppError) return errorResult(err.code, err.message);
      deps.logger.error({ err, tool: tool.name }, "tool failed");
      return errorResult("internal_error", "Something went wrong on our side.");
    }
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      { uriTemplate: "artifact://{slug}", name: "artifact", title: "Atelier page", description: "A page's Markdown (or HTML) by its slug.", mimeType: "text/markdown" },
    ],
  }));

  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const { resources, nextCursor } = await listPageResources(deps, principal, request.params?.cursor);
    return nextCursor ? { resources, nextCursor } : { resources };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri, mimeType, text } = await readPageResource(deps, principal, request.params.uri);
    return { contents: [{ uri, mimeType, text }] };
  });

  return server;
}
