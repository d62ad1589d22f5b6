// Issue 25: living artifacts. An open published page shows an agent's update_page (the real
// MCP SDK client, through nginx) without anyone reloading it, and the app's workspace view
// shows the agent's new pages in place, at desktop and phone widths. Both ride the live
// streams through the shipped nginx config (deploy/nginx.conf, /api/events).
import { expect, test } from "@playwright/test";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { appApi } from "../support/app-api";
import { DESKTOP, keepScreenshot, PHONE, signInInBrowser } from "../support/browser";
import { callTool, mcpClient } from "../support/mcp";
import { stack } from "../support/stack";

test.use({ viewport: DESKTOP });

test("an open public page and the app's workspace view show an agent's changes without a reload", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const ws = uniqueSlug("live-room");
  const slug = uniqueSlug("live-notes");

  await signInInBrowser(page, uniqueEmail("live"));
  const api = appApi(page);
  await api.mutation("workspaces.create", { slug: ws, name: "Live room" });
  await api.mutation("pages.create", { workspace: ws, slug, title: "Live notes", body_markdown: "# Live notes\n\nThe first word." });
  await api.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" });
  const { credential } = await api.mutation<{ credential: string }>("tokens.create", {
    label: "live writer",
    scopes: ["mcp:read", "mcp:write"],
    expiresInDays: 1,
  });
  const agent = await mcpClient(credential);

  const visitor = await browser.newContext({ viewport: DESKTOP, baseURL: stack.baseUrl });
  try {
    const reader = await visitor.newPage();
    await test.step("a visitor's open /a/{slug} shows the agent's update_page by itself", async () => {
      // The page listens before the agent writes: its stream has answered.
      const listening = reader.waitForResponse((r) => r.url().includes("/api/events/page?"));
      await reader.goto(`/a/${slug}`);
      await expect(reader.getByText("The first word.")).toBeVisible();
      const stream = await listening;
      expect(stream.status()).toBe(200);
      expect(stream.headers()["content-type"]).toMatch(/^text\/event-stream/);
      await callTool(agent, "update_page", { slug, body_markdown: "# Live notes\n\nThe agent's second word.", expected_version: 1 });
      await expect(reader.getByText("The agent's second word.")).toBeVisible({ timeout: 15_000 });
      await keepScreenshot(reader, "live-public-page-updated");
    });

    await test.step("the app's workspace view lists the agent's new page in place, desktop then phone", async () => {
      await page.goto(`/app/buckets/${ws}`);
      await expect(page.getByText("Live notes").first()).toBeVisible();
      await callTool(agent, "create_page", { workspace: ws, slug: uniqueSlug("desk"), title: "Written at the desk", body_markdown: "x" });
      await expect(page.getByRole("main").getByText("Written at the desk").first()).toBeVisible({ timeout: 15_000 });
      await page.setViewportSize(PHONE);
      await callTool(agent, "create_page", { workspace: ws, slug: uniqueSlug("phone"), title: "Written for the phone", body_markdown: "x" });
      // In the workspace's own list: on a phone the sidebar (a closed drawer) lists it too, hidden.
      await expect(page.getByRole("main").getByText("Written for the phone").first()).toBeVisible({ timeout: 15_000 });
      await keepScreenshot(page, "live-workspace-phone");
    });
  } finally {
    await agent.close();
    await visitor.close();
  }
});
