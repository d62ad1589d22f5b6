// Issue 25: an HTML artifact (a page that is exactly one HTML part) updates itself while open,
// without our script in the author's document: the browser's navigation to /a/{slug} gets the
// live wrapper, which frames the author's document (sandboxed: its scripts see an opaque
// origin) and reloads the frame when the agent's update_page lands (real MCP SDK client,
// through the shipped nginx). The top document is never reloaded.
import { expect, test } from "@playwright/test";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { appApi } from "../support/app-api";
import { DESKTOP, keepScreenshot, signInInBrowser } from "../support/browser";
import { callTool, mcpClient } from "../support/mcp";
import { stack } from "../support/stack";

test.use({ viewport: DESKTOP });

const doc = (word: string) =>
  `<!doctype html><html><head><title>Live HTML</title></head><body><p id="word">${word}</p><p id="origin"></p><script>document.getElementById("origin").textContent="origin:"+String(window.origin)</script></body></html>`;

test("an open HTML page shows an agent's update_page without a reload, still in its sandbox", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const ws = uniqueSlug("live-html");
  const slug = uniqueSlug("live-doc");
  await signInInBrowser(page, uniqueEmail("livehtml"));
  const api = appApi(page);
  await api.mutation("workspaces.create", { slug: ws, name: "Live HTML" });
  await api.mutation("pages.create", { workspace: ws, slug, title: "Live HTML", body_html: doc("first word") });
  await api.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" });
  const { credential } = await api.mutation<{ credential: string }>("tokens.create", {
    label: "html writer",
    scopes: ["mcp:read", "mcp:write"],
    expiresInDays: 1,
  });
  const agent = await mcpClient(credential);
  const visitor = await browser.newContext({ viewport: DESKTOP, baseURL: stack.baseUrl });
  try {
    const reader = await visitor.newPage();
    const listening = reader.waitForResponse((r) => r.url().includes("/api/events/page?"));
    await reader.goto(`/a/${slug}`);
    const frame = reader.frameLocator("#atelier-doc");
    await expect(frame.locator("#word")).toHaveText("first word");
    // The author's script runs in an opaque origin, as before.
    await expect(frame.locator("#origin")).toHaveText("origin:null");
    expect((await listening).status()).toBe(200);
    // A mark on the top document: it would be gone after a reload.
    await reader.evaluate(() => ((window as unknown as { atelierMark: number }).atelierMark = 42));
    await callTool(agent, "update_page", { slug, body_html: doc("second word"), expected_version: 1 });
    await expect(frame.locator("#word")).toHaveText("second word", { timeout: 15_000 });
    expect(await reader.evaluate(() => (window as unknown as { atelierMark?: number }).atelierMark)).toBe(42);
    await keepScreenshot(reader, "live-html-page-updated");
    // A client that is not a browser navigating still gets the author's bytes as given.
    // (nginx's micro-cache may hold the first version for up to 2 s.)
    await expect.poll(async () => (await fetch(`${stack.baseUrl}/a/${slug}`)).text(), { timeout: 10_000 }).toBe(doc("second word"));
  } finally {
    await agent.close();
    await visitor.close();
  }
});
