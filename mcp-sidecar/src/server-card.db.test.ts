// The server card tells the truth about the running server (issue 26 item 6): every protocol
// revision it names is answered, its identity is the serverInfo clients get, and every tool
// in tools/list has an icon the app serves.
import { MCP_PROTOCOL_VERSIONS, serverInfo, toolFamily } from "@atelier/shared/domain/server-card";
import { TOOL_CATALOG, TOOL_NAMES } from "@atelier/shared/domain/agent-catalog";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, modernCall, rawCall, startTestSidecar, type TestSidecar } from "./testing";

let sc: TestSidecar;
beforeAll(async () => {
  sc = await startTestSidecar({}, "servercard");
});
afterAll(async () => {
  await sc.close();
});

type Answer = { result?: Record<string, unknown> };

describe("the server card's claims", () => {
  it("every protocol revision it names is answered: 2026-07-28 by server/discover, the others by initialize", async () => {
    const { body, headers } = modernCall("server/discover");
    const discovered = ((await (await rawCall(sc, body, headers)).json()) as Answer).result;
    expect(discovered?.supportedVersions).toContain("2026-07-28");
    expect((discovered?._meta as Record<string, unknown> | undefined)?.["io.modelcontextprotocol/serverInfo"]).toEqual(serverInfo(sc.config));
    for (const version of MCP_PROTOCOL_VERSIONS.filter((v) => v !== "2026-07-28")) {
      const init = {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "card", version: "1" } },
      };
      const res = await rawCall(sc, init);
      expect(res.status, version).toBe(200);
      const result = ((await res.json()) as Answer).result;
      expect(result?.protocolVersion, version).toBe(version);
      expect(result?.serverInfo, version).toEqual(serverInfo(sc.config));
    }
  });

  it("every tool has an icon of its family, served by the app", async () => {
    const client = await connectClient(sc);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const t of tools) {
      expect(t.icons, t.name).toEqual([{ src: `${sc.config.BASE_URL}/app/icons/${toolFamily(t.name)}.svg`, mimeType: "image/svg+xml", sizes: ["any"] }]);
    }
    // The app serves web/public as /app/: each picture named exists there.
    for (const family of new Set(tools.map((t) => toolFamily(t.name)))) {
      expect(existsSync(path.resolve(import.meta.dirname, `../../web/public/icons/${family}.svg`)), family).toBe(true);
    }
    await client.close();
  });

  it("annotations say what each tool does: reads are read-only; what overwrites, removes or exposes is destructive; nothing reaches outside", async () => {
    // docs/decisions.md#agents-send-and-read-little-issue-26. Tools added later must at least keep the general rules below.
    const destructive = new Set([
      "update_page",
      "edit_page",
      "update_row",
      "delete_page",
      "delete_row",
      "change_table",
      "set_workspace_visibility",
      "add_collaborator",
      "create_share_link",
    ]);
    const additive = new Set(["create_page", "create_workspace", "create_collection", "insert_rows", "move_page", "import_workspace"]);
    const idempotentWrites = new Set(["delete_page", "delete_row", "set_workspace_visibility", "add_collaborator"]);
    const client = await connectClient(sc);
    const { tools } = await client.listTools();
    for (const t of tools) {
      const a = t.annotations ?? {};
      // export_workspace reads only; it is an owner's tool because the whole workspace leaves with it.
      const reads = TOOL_CATALOG[t.name as keyof typeof TOOL_CATALOG].access === "read" || t.name === "export_workspace";
      expect(a.readOnlyHint, t.name).toBe(reads);
      expect(a.openWorldHint, t.name).toBe(false);
      if (reads) expect([a.destructiveHint, a.idempotentHint], t.name).toEqual([false, true]);
      if (destructive.has(t.name)) expect(a.destructiveHint, t.name).toBe(true);
      if (additive.has(t.name)) expect(a.destructiveHint, t.name).toBe(false);
      if (destructive.has(t.name) || additive.has(t.name)) expect(a.idempotentHint, t.name).toBe(idempotentWrites.has(t.name));
    }
    await client.close();
  });
});
