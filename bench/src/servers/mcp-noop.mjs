// The floor the MCP SDK itself sets: the same @modelcontextprotocol/sdk version as the
// sidecar, in the same stateless JSON-response configuration (a fresh low-level Server and
// StreamableHTTPServerTransport per request, as mcp-sidecar/src/mcp-endpoint.ts does), with
// one no-op tool that returns a constant text. No Express, no auth, no database, no logs:
// what is left is Node's http module, the SDK's Node <-> Web Request adapter, JSON-RPC
// parsing and validation, and the tool handler dispatch.
//   node mcp-noop.mjs SDK_DIR PORT [shared-validator]
// SDK_DIR is the SDK package directory the sidecar resolves (the bench package does not
// depend on the SDK itself, so the runner passes it). With `shared-validator`, every Server
// gets one process-wide JSON Schema validator instead of building its own (by default each
// `new Server()` builds an Ajv instance with its formats): a reference for what that costs.
import { Buffer } from "node:buffer";
import { createServer } from "node:http";
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";

const [sdkDir, port, variant] = process.argv.slice(2);
const load = (rel) => import(pathToFileURL(path.join(sdkDir, "dist/esm", rel)).href);
const { Server } = await load("server/index.js");
const { StreamableHTTPServerTransport } = await load("server/streamableHttp.js");
const { CallToolRequestSchema, ListToolsRequestSchema } = await load("types.js");
const { AjvJsonSchemaValidator } = await load("validation/ajv-provider.js");
const serverOptions = { capabilities: { tools: { listChanged: false } } };
if (variant === "shared-validator") serverOptions.jsonSchemaValidator = new AjvJsonSchemaValidator();

const TOOLS = {
  tools: [
    {
      name: "noop",
      title: "No-op",
      description: "Does nothing and answers a constant text.",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
  ],
};
const RESULT = { content: [{ type: "text", text: "ok" }] };

const http = createServer(async (req, res) => {
  try {
    if (req.method === "GET" && req.url === "/healthz") {
      res.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
      return;
    }
    if (req.method !== "POST" || req.url !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      res.writeHead(400, { "Content-Type": "application/json" }).end('{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}');
      return;
    }
    const server = new Server({ name: "noop", version: "1.0.0" }, serverOptions);
    server.setRequestHandler(ListToolsRequestSchema, () => TOOLS);
    server.setRequestHandler(CallToolRequestSchema, () => RESULT);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  } catch (err) {
    process.stderr.write(`mcp-noop: ${err instanceof Error ? err.stack : String(err)}\n`);
    if (!res.headersSent) res.writeHead(500).end();
  }
});
http.listen(Number(port), "127.0.0.1");
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    http.close(() => process.exit(0));
    http.closeAllConnections();
  });
}
