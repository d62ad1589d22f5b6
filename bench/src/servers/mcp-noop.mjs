// The floor the MCP SDK itself sets: the same SDK v2 packages as the sidecar
// (@modelcontextprotocol/server and the node adapter), in their default configuration:
// `createMcpHandler` with a factory that builds a fresh McpServer per request (one no-op tool
// that returns a constant text), mounted on node:http with `toNodeHandler`. It serves both
// protocol generations from one endpoint, as the sidecar does (2025-era requests through the
// handler's stateless legacy leg, 2026-07-28 requests through its modern leg). No Express, no
// auth, no database, no logs: what is left is Node's http module, the SDK's Node <-> Web
// Request adapter, era classification, JSON-RPC parsing and validation, and the dispatch.
//   node mcp-noop.mjs SERVER_DIR NODE_DIR PORT [shared-validator]
// SERVER_DIR and NODE_DIR are the SDK package directories the sidecar resolves (the bench
// package does not depend on the SDK itself, so the runner passes them). With
// `shared-validator`, every McpServer gets one process-wide JSON Schema validator instead of
// building its own (by default each new server builds an Ajv instance with its formats): a
// reference for what that costs. With `answer=FILE`, the tool answers the tool result stored
// in FILE (the bench stores get_page's own: its text and structured content) instead of "ok":
// what the SDK's default path costs for an answer of that size.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";

const [serverDir, nodeDir, port, variant] = process.argv.slice(2);
const load = (dir, rel) => import(pathToFileURL(path.join(dir, rel)).href);
const { createMcpHandler, McpServer } = await load(serverDir, "dist/index.mjs");
const { AjvJsonSchemaValidator } = await load(serverDir, "dist/validators/ajv.mjs");
const { toNodeHandler } = await load(nodeDir, "dist/index.mjs");
const serverOptions = {};
if (variant === "shared-validator") serverOptions.jsonSchemaValidator = new AjvJsonSchemaValidator();

const RESULT = variant?.startsWith("answer=") ? JSON.parse(readFileSync(variant.slice("answer=".length), "utf8")) : { content: [{ type: "text", text: "ok" }] };
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: "noop", version: "1.0.0" }, serverOptions);
  server.registerTool("noop", { title: "No-op", description: "Does nothing and answers a constant text.", annotations: ANNOTATIONS }, () => RESULT);
  return server;
});
const serve = toNodeHandler(handler);

const http = createServer((req, res) => {
  if (req.method === "GET" && req.url === "/healthz") {
    res.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    return;
  }
  if (req.url !== "/mcp") {
    res.writeHead(404).end();
    return;
  }
  serve(req, res).catch((err) => {
    process.stderr.write(`mcp-noop: ${err instanceof Error ? err.stack : String(err)}\n`);
    if (!res.headersSent) res.writeHead(500).end();
  });
});
http.listen(Number(port), "127.0.0.1");
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    http.close(() => process.exit(0));
    http.closeAllConnections();
  });
}
