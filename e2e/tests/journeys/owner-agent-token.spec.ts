// Journey 1: an owner signs in, makes a token in the connected-agent settings, an agent uses
// it through nginx to create a page, the owner publishes the workspace, a signed-out visitor
// reads /a/{slug}, the owner revokes the token and the agent is refused within the cache bound.
import { expect, test } from "@playwright/test";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { keepScreenshot, signInInBrowser } from "../support/browser";
import { callTool, mcpClient, mcpPost, toolCall } from "../support/mcp";
import { appApi } from "../support/app-api";
import { EDGE_CACHE_MS, stack, withinCacheBound } from "../support/stack";

test("owner makes a token, agent writes, owner publishes, visitor reads, revoked token gets 401", async ({ page, browser }) => {
  const owner = uniqueEmail("owner");
  const slug = uniqueSlug("agent-notes");
  const tokenName = `E2E agent ${slug.slice(-5)}`;

  await test.step("the owner signs in with the code from the mail", async () => {
    await signInInBrowser(page, owner);
  });

  let credential = "";
  await test.step("the owner makes a token in the connected-agent settings", async () => {
    await page.getByRole("link", { name: "Connect an agent" }).click();
    await expect(page.getByRole("heading", { name: "Connected agents" })).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill(tokenName);
    await page.getByRole("button", { name: "Create token" }).click();
    const shown = page.getByLabel("Token credential");
    await expect(shown).toContainText("service_mcp_");
    credential = ((await shown.textContent()) ?? "").trim();
    expect(credential).toMatch(/^service_mcp_[A-Za-z0-9_-]{20,}$/);
    await page.getByRole("button", { name: /hide the credential/ }).click();
    await expect(page.getByRole("list", { name: "Your tokens" }).getByText(tokenName)).toBeVisible();
  });

  let workspace = "";
  await test.step("an agent creates a page with the token through nginx /mcp", async () => {
    const agent = await mcpClient(credential);
    const created = (await callTool(agent, "create_page", {
      slug,
      title: "Field notes from an agent",
      body_markdown: "# Field notes\n\nWritten by an agent through **MCP**.",
    })) as { page: { workspace: string; version: number; created_by: { kind: string } } };
    expect(created.page.version).toBe(1);
    expect(created.page.created_by.kind).toBe("agent");
    workspace = created.page.workspace;
    await agent.close();
  });

  await test.step("the owner sees the page and publishes the workspace", async () => {
    await page.goto(`/app/buckets/${workspace}`);
    await expect(page.getByText("Field notes from an agent").first()).toBeVisible();
    await page.getByRole("tab", { name: "Sharing" }).click();
    await page.getByRole("button", { name: "Make public…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Make public", exact: true }).click();
    await expect(page.getByText("Public: anyone with the link").first()).toBeVisible();
  });

  await test.step("a signed-out visitor reads /a/{slug}", async () => {
    const visitor = await browser.newContext();
    const v = await visitor.newPage();
    const res = await v.goto(`/a/${slug}`);
    expect(res?.status()).toBe(200);
    await expect(v.getByRole("heading", { name: "Field notes", exact: true })).toBeVisible();
    await expect(v.getByText("Written by an agent through")).toBeVisible();
    expect((await visitor.cookies()).length).toBe(0);
    await keepScreenshot(v, "journey-1-visitor-reads-artifact");
    await visitor.close();
  });

  await test.step("nginx micro-caches the public page; made private, it is refused through nginx within the bound", async () => {
    // Signed-out reads through the shipped nginx.conf: after the first, they come from its cache.
    const read = () => fetch(`${stack.baseUrl}/a/${slug}`, { signal: AbortSignal.timeout(10_000) });
    const statuses: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await read();
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=1, stale-while-revalidate=1");
      statuses.push(res.headers.get("x-cache-status") ?? "");
      await res.arrayBuffer();
    }
    expect(statuses).toContain("HIT");
    // The owner's own request carries the session cookie: never answered from the shared cache.
    const own = await page.request.get(`/a/${slug}`);
    expect(own.status()).toBe(200);
    expect(own.headers()["x-cache-status"]).toBe("BYPASS");

    await appApi(page).mutation("workspaces.setVisibility", { slug: workspace, visibility: "private" });
    // Keep the cache hot while waiting, as traffic would: a stale copy must still run out.
    const took = await withinCacheBound(
      "the page made private is refused through nginx",
      async () => {
        const res = await read();
        await res.arrayBuffer();
        return res.status === 404;
      },
      500 + EDGE_CACHE_MS,
    );
    for (let i = 0; i < 4; i++) expect((await read()).status).toBe(404);
    test.info().annotations.push({ type: "private within", description: `${took} ms (bound ${stack.cacheTtlMs} + ${EDGE_CACHE_MS} ms)` });
    // Public again for what follows.
    await appApi(page).mutation("workspaces.setVisibility", { slug: workspace, visibility: "public" });
  });

  await test.step("the owner revokes the token; the agent's calls get 401 within the cache bound", async () => {
    await page.goto("/app/settings/agents");
    const item = page.getByRole("listitem").filter({ hasText: tokenName });
    await item.getByRole("button", { name: "Revoke…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke", exact: true }).click();
    await expect(page.getByRole("dialog")).toBeHidden();
    await expect(page.getByText("No active tokens")).toBeVisible();
    await page.getByRole("button", { name: /Show \d+ revoked or expired/ }).click();
    await expect(page.getByRole("listitem").filter({ hasText: tokenName }).getByText("Revoked", { exact: true }).first()).toBeVisible();

    // Every process refuses a revoked token within CACHE_TTL_MS (docs/ARCHITECTURE.md#state); through nginx, then always.
    let res = await mcpPost(toolCall("whoami"), { authorization: `Bearer ${credential}` });
    await withinCacheBound("the revoked token is refused", async () => {
      res = await mcpPost(toolCall("whoami"), { authorization: `Bearer ${credential}` });
      return res.status === 401;
    });
    expect(res.headers.get("www-authenticate") ?? "").toContain('error="invalid_token"');
    for (let i = 0; i < 4; i++) expect((await mcpPost(toolCall("whoami"), { authorization: `Bearer ${credential}` })).status).toBe(401);
    await expect(mcpClient(credential)).rejects.toThrow(/401|invalid_token|Unauthorized/i);
    await keepScreenshot(page, "journey-1-owner-revoked-token");
  });
});
