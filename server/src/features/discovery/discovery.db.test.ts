// The MCP server card and catalog (issue 26 item 6): where SEP-2127 reserves the card and where
// earlier drafts looked, with the headers the discovery draft asks for.
import { MCP_PROTOCOL_VERSIONS, serverInfo } from "@atelier/shared/domain/server-card";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../testing";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({}, "discovery");
});
afterAll(async () => {
  await srv.close();
});

describe("the MCP server card", () => {
  it("is served at /mcp/server-card and /.well-known/mcp/server-card.json, names /mcp and the revisions it speaks, open to any origin", async () => {
    const base = srv.config.BASE_URL;
    for (const path of ["/mcp/server-card", "/.well-known/mcp/server-card.json"]) {
      const res = await fetch(`${srv.url}${path}`, { headers: { accept: "application/mcp-server-card+json" } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/mcp-server-card+json; charset=utf-8");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
      const card = (await res.json()) as Record<string, unknown>;
      expect(card).toMatchObject({
        $schema: "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json",
        version: serverInfo(srv.config).version,
        title: "Atelier",
        remotes: [{ type: "streamable-http", url: `${base}/mcp`, supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS] }],
      });
      expect(card.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
      expect(String(card.description).length).toBeLessThanOrEqual(100);
    }
    // Plain JSON to a client that does not ask for the card's type.
    const plain = await fetch(`${srv.url}/mcp/server-card`);
    expect(plain.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });

  it("the catalog at /.well-known/mcp/catalog.json points to the card", async () => {
    const res = await fetch(`${srv.url}/.well-known/mcp/catalog.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await res.json()).toEqual({
      specVersion: "draft",
      entries: [
        {
          identifier: expect.stringMatching(/^urn:air:[^:]+:atelier$/),
          displayName: "Atelier",
          type: "application/mcp-server-card+json",
          url: `${srv.config.BASE_URL}/mcp/server-card`,
        },
      ],
    });
  });
});
