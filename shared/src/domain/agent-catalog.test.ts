// What the catalog prints for real clients (issue 23 items 12–14): a pinned Inspector that
// says it needs Node 22, the public https address vendor-hosted apps need, and file snippets
// that carry no token.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { clientConfigs, INSPECTOR_SPEC, INSPECTOR_VERSION, signInGuides, TOKEN_ENV, unreachableFromVendors } from "./agent-catalog";
import { authMarkdown, connectGuideHtml } from "./discovery";

const TOKEN = "service_mcp_0123456789abcdefghijklmnopqrstuv";

describe("the Inspector command (item 12)", () => {
  it("pins the version .ci/setup installs for the conformance run, and says it needs Node 22", () => {
    const inspector = clientConfigs("https://atelier.example.com", TOKEN).find((c) => c.id === "inspector");
    expect(inspector?.text.startsWith(`npx @modelcontextprotocol/inspector@${INSPECTOR_VERSION} --cli `)).toBe(true);
    expect(INSPECTOR_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(inspector?.hint).toMatch(/Node 22/);
    const setup = readFileSync(new URL("../../../.ci/setup", import.meta.url), "utf8");
    const packages = /NODE22_PACKAGES=\(([^)]*)\)/.exec(setup)?.[1]?.split(/\s+/) ?? [];
    expect(packages).toContain(INSPECTOR_SPEC);
  });
});

describe("apps that connect from their vendors' servers (item 13)", () => {
  it("knows which addresses those apps cannot reach", () => {
    for (const origin of [
      "http://localhost:3000",
      "http://127.0.0.1:3000",
      "https://localhost",
      "http://192.168.1.20:3000",
      "http://10.0.0.5",
      "https://atelier.local",
      "https://atelier",
      "http://[::1]:3000",
      "http://atelier.example.com",
    ]) {
      expect(unreachableFromVendors(origin), origin).not.toBeNull();
    }
    expect(unreachableFromVendors("https://atelier.example.com")).toBeNull();
    expect(unreachableFromVendors("https://atelier.example.com:8443")).toBeNull();
  });

  it("says so next to the Claude and ChatGPT steps for a localhost BASE_URL, and how to fix it; not for a public https one", () => {
    const local = signInGuides("http://localhost:3000");
    for (const id of ["claude", "chatgpt"]) {
      const g = local.find((x) => x.id === id);
      expect(g?.fromVendorServers, id).toBe(true);
      expect(g?.notice, id).toContain("http://localhost:3000");
      expect(g?.notice, id).toMatch(/reverse proxy with a TLS certificate/);
      expect(g?.notice, id).toMatch(/cloudflared tunnel --url|ngrok http/);
      expect(g?.steps.join(" "), id).toMatch(/public https address/);
    }
    for (const g of local.filter((x) => !["claude", "chatgpt"].includes(x.id))) expect(g.notice, g.id).toBeUndefined();
    const pub = signInGuides("https://atelier.example.com");
    for (const g of pub) expect(g.notice, g.id).toBeUndefined();
    expect(pub.find((g) => g.id === "claude")?.steps.join(" ")).toMatch(/public https address/);
  });

  it("the connection guide says it too, and names the fix", () => {
    const local = connectGuideHtml(loadConfig({ NODE_ENV: "test", BASE_URL: "http://localhost:3000" }));
    expect(local.match(/Not from this address/g)).toHaveLength(2);
    expect(local).toContain("http://localhost:3000 is not one");
    expect(local).toContain("<code>cloudflared tunnel --url http://localhost:3000</code>");
    const pub = connectGuideHtml(loadConfig({ NODE_ENV: "test", BASE_URL: "https://atelier.example.com" }));
    expect(pub).not.toContain("Not from this address");
    expect(pub).toContain("need Atelier\nat a public https address");
  });
});

describe("file snippets carry no token (item 14)", () => {
  it(".mcp.json refers to an environment variable, says why, and prints the line that sets it; VS Code asks for the token", () => {
    const configs = clientConfigs("https://atelier.example.com", TOKEN);
    const mcpJson = configs.find((c) => c.id === "mcp-json");
    const vscode = configs.find((c) => c.id === "vscode");
    for (const c of [mcpJson, vscode]) expect(c?.text, c?.id).not.toContain(TOKEN);
    expect(JSON.parse(mcpJson?.text ?? "")).toMatchObject({ mcpServers: { atelier: { headers: { Authorization: `Bearer \${${TOKEN_ENV}}` } } } });
    expect(mcpJson?.hint).toMatch(/committed/);
    expect(mcpJson?.env).toEqual({ name: TOKEN_ENV, text: `export ${TOKEN_ENV}=${TOKEN}` });
    expect(JSON.parse(vscode?.text ?? "")).toMatchObject({
      inputs: [{ type: "promptString", id: "atelier-token", password: true }],
      servers: { atelier: { headers: { Authorization: "Bearer ${input:atelier-token}" } } },
    });
  });
});

describe("following changes (issue 25 item 5)", () => {
  it("the guide and auth.md name the three ways: list_changes with a cursor, subscriptions on 2026-07-28, webhooks for owners", () => {
    const config = loadConfig({ NODE_ENV: "test", BASE_URL: "https://atelier.example.com" });
    for (const doc of [connectGuideHtml(config), authMarkdown(config)]) {
      expect(doc).toContain("list_changes");
      expect(doc).toContain("next_cursor");
      expect(doc).toContain("subscriptions/listen");
      expect(doc).toContain("notifications/resources/updated");
      expect(doc).toContain("add_webhook");
    }
  });
});
