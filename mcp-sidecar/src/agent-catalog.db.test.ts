// What agents are told, as printed: the tool registry is the catalog, every client
// configuration the app and the guide print connects when parsed the way its client reads
// it, and the prompts answer through real SDK clients of both protocol generations.
import { authMarkdown } from "@atelier/shared/domain/discovery";
import { clientConfigs, INSPECTOR_SPEC, PROMPT_NAMES, signInGuides, TOOL_CATALOG, TOOL_NAMES } from "@atelier/shared/domain/agent-catalog";
import type { UserDoc } from "@atelier/shared/db";
import { shellWords } from "@atelier/shared/testing";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOLS } from "./tools/index";
import { connectClient, makeToken, makeUser, modernCall, rawCall, startTestSidecar, type TestSidecar } from "./testing";

let sc: TestSidecar;
let owner: UserDoc;

beforeAll(async () => {
  sc = await startTestSidecar({}, "catalog");
  owner = await makeUser(sc, `catalog-${Date.now()}@example.com`);
});
afterAll(async () => {
  await sc.close();
});

/** "Name: value" as an HTTP header, the way `--header` takes it. */
function header(value: string): [string, string] {
  const i = value.indexOf(":");
  return [value.slice(0, i).trim(), value.slice(i + 1).trim()];
}

/** Connect as a client would with the URL and headers it read from its configuration, and list the tools. */
async function connectAs(url: string, headers: Record<string, string>): Promise<{ tools: string[]; whoami: Record<string, unknown> }> {
  const client = new Client({ name: "snippet-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  const tools = (await client.listTools()).tools.map((t) => t.name);
  const whoami = (await client.callTool({ name: "whoami", arguments: {} })).structuredContent as Record<string, unknown>;
  await client.close();
  return { tools, whoami };
}

describe("the tool registry is the catalog", () => {
  it("offers exactly the catalog's tools, in its order, with its words and access", async () => {
    expect(TOOLS.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const t of TOOLS) expect({ title: t.title, description: t.description, access: t.access }).toMatchObject(TOOL_CATALOG[t.name]);
    const { credential } = await makeToken(sc, owner);
    const client = await connectClient(sc, credential);
    const listed = (await client.listTools()).tools;
    await client.close();
    expect(listed.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const t of listed) expect(t.description).toBe(TOOL_CATALOG[t.name as keyof typeof TOOL_CATALOG].description);
  });
});

describe("client configurations, parsed as each client reads them", () => {
  it("the token snippets (Claude Code, mcp.json, VS Code) connect with the token they carry", async () => {
    const { credential } = await makeToken(sc, owner, { label: "Snippet agent" });
    const configs = clientConfigs(sc.config.BASE_URL, credential);
    const seen: string[] = [];

    // Claude Code: `claude mcp add --transport http <name> <url> --header "<Name: value>"`.
    const claude = configs.find((c) => c.id === "claude-code");
    const words = shellWords(claude?.text ?? "");
    expect(words.slice(0, 5)).toEqual(["claude", "mcp", "add", "--transport", "http"]);
    expect(words[5]).toBe("atelier");
    const [name, value] = header(words[words.indexOf("--header") + 1] ?? "");
    const viaClaude = await connectAs(words[6] ?? "", { [name]: value });
    expect(viaClaude.whoami).toMatchObject({ token: { label: "Snippet agent" } });
    seen.push("claude-code");

    // A project's .mcp.json (Claude Code): a top-level mcpServers map of {url, headers}, with
    // ${VAR} in a header filled from the environment, which the printed shell line sets.
    const mcpJsonConfig = configs.find((c) => c.id === "mcp-json");
    expect(mcpJsonConfig?.text).not.toContain(credential);
    const env = Object.fromEntries([shellWords(mcpJsonConfig?.env?.text ?? "")[1]?.split("=", 2) ?? []]) as Record<string, string>;
    const mcpJson = JSON.parse(mcpJsonConfig?.text ?? "") as {
      mcpServers: Record<string, { url: string; headers: Record<string, string> }>;
    };
    const project = mcpJson.mcpServers.atelier;
    expect(project).toBeDefined();
    const expanded = Object.fromEntries(
      Object.entries(project?.headers ?? {}).map(([k, v]) => [k, v.replace(/\$\{(\w+)\}/g, (_m, name: string) => env[name] ?? "")]),
    );
    expect((await connectAs(project?.url ?? "", expanded)).whoami).toMatchObject({ token: { label: "Snippet agent" } });
    seen.push("mcp-json");

    // VS Code: a top-level servers map; an http server needs "type": "http".
    // The token is an input VS Code asks for (${input:id}), never in the file.
    const vscodeJson = JSON.parse(configs.find((c) => c.id === "vscode")?.text ?? "") as {
      inputs: { id: string; type: string }[];
      servers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
    };
    const vscode = vscodeJson.servers.atelier;
    expect(vscode?.type).toBe("http");
    const answers = Object.fromEntries(vscodeJson.inputs.map((i) => [i.id, credential]));
    const asked = Object.fromEntries(
      Object.entries(vscode?.headers ?? {}).map(([k, v]) => [k, v.replace(/\$\{input:([\w-]+)\}/g, (_m, id: string) => answers[id] ?? "")]),
    );
    const viaVscode = await connectAs(vscode?.url ?? "", asked);
    expect(viaVscode.tools).toEqual(TOOL_NAMES);
    seen.push("vscode");

    // The Inspector command runs as printed on Node 22 in `pnpm test:conformance`; here its URL and header.
    const inspector = shellWords(configs.find((c) => c.id === "inspector")?.text ?? "");
    expect(inspector.slice(0, 3)).toEqual(["npx", INSPECTOR_SPEC, "--cli"]);
    expect(inspector[3]).toBe(`${sc.config.BASE_URL}/mcp`);
    expect(header(inspector[inspector.indexOf("--header") + 1] ?? "")).toEqual(["Authorization", `Bearer ${credential}`]);
    seen.push("inspector");
    expect(seen.sort()).toEqual(configs.map((c) => c.id).sort());
  });

  it("the sign-in snippets point at /mcp, and a call that writes answers the 401 that starts sign-in", async () => {
    for (const g of signInGuides(sc.config.BASE_URL)) {
      if (!g.snippet) continue;
      let url: string;
      if (g.snippet.language === "shell") {
        const words = shellWords(g.snippet.text);
        expect(words.slice(0, 6)).toEqual(["claude", "mcp", "add", "--transport", "http", "atelier"]);
        url = words[6] ?? "";
      } else {
        const parsed = JSON.parse(g.snippet.text) as { mcpServers?: Record<string, { url: string }>; servers?: Record<string, { type: string; url: string }> };
        const entry = g.id === "vscode" ? parsed.servers?.atelier : parsed.mcpServers?.atelier;
        if (g.id === "vscode") expect(parsed.servers?.atelier?.type).toBe("http");
        url = entry?.url ?? "";
      }
      expect(url).toBe(`${sc.config.BASE_URL}/mcp`);
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create_page", arguments: {} } }),
      });
      expect(res.status, g.id).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("resource_metadata=");
    }
  });
});

describe("prompts", () => {
  it("are listed and expand through both protocol generations", async () => {
    for (const era of ["legacy", "modern"] as const) {
      const client = await connectClient(sc, undefined, era);
      const listed = (await client.listPrompts()).prompts;
      expect(listed.map((p) => p.name)).toEqual(PROMPT_NAMES);
      const got = await client.getPrompt({ name: "summarise_workspace", arguments: { workspace: "team-notes" } });
      const text = got.messages[0]?.content.type === "text" ? got.messages[0].content.text : "";
      expect(text).toContain('"team-notes"');
      expect(text).toContain("list_pages");
      const publish = await client.getPrompt({ name: "publish_page", arguments: {} });
      expect(publish.messages[0]?.content).toMatchObject({ type: "text" });
      await client.close();
    }
  });

  it("refuse an unknown prompt or a missing argument with invalid params", async () => {
    for (const params of [
      { name: "no_such_prompt" },
      { name: "summarise_workspace", arguments: {} },
      { name: "update_page", arguments: { slug: "x", change: "  " } },
    ]) {
      const res = await rawCall(sc, { jsonrpc: "2.0", id: 1, method: "prompts/get", params }, { "mcp-protocol-version": "2025-11-25" });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { error?: { code: number; message: string } };
      expect(body.error?.code, JSON.stringify(params)).toBe(-32602);
    }
    const modern = modernCall("prompts/get", { name: "no_such_prompt" });
    const res = await rawCall(sc, modern.body, modern.headers);
    const body = (await res.json()) as { error?: { code: number } };
    expect(body.error?.code).toBe(-32602);
  });
});

/** The request examples of /auth.md: each indented block that starts with a method and a URL. */
function authMdRequests(markdown: string): { method: string; url: string; headers: Record<string, string>; body: string }[] {
  const blocks = markdown.split(/\n(?! {4}|\n {4})/).map((chunk) => chunk.split("\n").filter((l) => l.startsWith("    ") || l === ""));
  const out: { method: string; url: string; headers: Record<string, string>; body: string }[] = [];
  for (const lines of blocks) {
    const text = lines
      .map((l) => l.slice(4))
      .join("\n")
      .trim();
    const m = /^(POST|GET) (\S+)\n([\s\S]*)$/.exec(text);
    if (!m) continue;
    const [head = "", body = ""] = (m[3] ?? "").split("\n\n");
    const headers = Object.fromEntries(head.split("\n").map((l) => header(l)));
    out.push({ method: m[1] ?? "", url: m[2] ?? "", headers, body: body.trim() });
  }
  return out;
}

describe("/auth.md's request examples (issue 23 item 11)", () => {
  it("carry the Accept header /mcp needs, and the /mcp example works when sent exactly as printed", async () => {
    const md = authMarkdown(sc.config);
    const examples = authMdRequests(md);
    expect(examples.length).toBeGreaterThanOrEqual(5);
    for (const e of examples) expect(e.headers.Accept, e.url).toBe("application/json, text/event-stream");
    const mcp = examples.filter((e) => e.url === `${sc.config.BASE_URL}/mcp`);
    expect(mcp).toHaveLength(1);
    const { credential } = await makeToken(sc, owner, { label: "Printed headers" });
    const [example] = mcp;
    if (!example) throw new Error("no /mcp example");
    const headers = { ...example.headers, Authorization: example.headers.Authorization?.replace("<your token>", credential) ?? "" };
    const res = await fetch(example.url, { method: example.method, headers, body: example.body });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { result?: { structuredContent?: Record<string, unknown> } };
    expect(answer.result?.structuredContent).toMatchObject({ token: { label: "Printed headers" } });
    // The error table lists 406.
    expect(md).toMatch(/\| 406 \| `not_acceptable` \| HTTP \|/);
  });

  it("a POST without that Accept is refused 406 with the documented {error, error_description} body", async () => {
    const { credential } = await makeToken(sc, owner);
    for (const accept of [undefined, "application/json", "text/event-stream"]) {
      const res = await fetch(`${sc.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${credential}`, ...(accept ? { accept } : {}) },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
      expect(res.status, accept).toBe(406);
      expect(res.headers.get("content-type")).toContain("application/json");
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(["error", "error_description"]);
      expect(body.error).toBe("not_acceptable");
      expect(body.error_description).toContain("application/json, text/event-stream");
    }
  });
});
