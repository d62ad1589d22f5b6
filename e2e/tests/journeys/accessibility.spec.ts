// Every main screen passes axe-core (issue 17 item 8): the sign-in screen, the dashboard,
// each workspace tab, a page as read and as edited, the published page, a table's grid and
// its row editor, the connected-agent settings, the OAuth consent screen and the 404 page,
// each at desktop (1280×800) and phone (375×812) width, in the light and the dark theme.
// Any serious or critical violation fails; all findings go to e2e/artifacts/axe.jsonl and
// the screens to e2e/artifacts/screens/a11y-*.png.
import { auth } from "@modelcontextprotocol/client";
import { expect, test } from "@playwright/test";
import { type AxeFinding, checkScreen, describeFindings, isSerious } from "../support/a11y";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { appApi } from "../support/app-api";
import { DESKTOP, signInInBrowser } from "../support/browser";
import { MemoryOAuthProvider, startCallback } from "../support/oauth";
import { stack } from "../support/stack";

test.use({ viewport: DESKTOP });

test("every main screen, at both widths and in both themes, has no serious or critical axe violation", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const findings: AxeFinding[] = [];
  const check = async (name: string, ready?: () => Promise<void>) => {
    findings.push(...(await checkScreen(page, `a11y-${name}`, ready)));
  };

  await test.step("the sign-in screen", async () => {
    await page.goto("/app/");
    await expect(page.getByLabel("E-mail address")).toBeVisible();
    await check("sign-in");
  });

  const owner = uniqueEmail("a11y");
  const ws = uniqueSlug("a11y-ws");
  const pageSlug = uniqueSlug("a11y-page");
  await test.step("a workspace with a page, a table on it, and rows, made through the API", async () => {
    await signInInBrowser(page, owner);
    const api = appApi(page);
    await api.mutation("workspaces.create", { slug: ws, name: "Accessibility review" });
    await api.mutation("collections.create", {
      workspace: ws,
      slug: "tasks",
      name: "Tasks",
      kind: "table",
      columns: [
        { name: "title", type: "text", required: true },
        { name: "estimate", type: "number" },
        { name: "due", type: "date" },
        { name: "status", type: "select", options: ["todo", "doing", "done", "blocked"] },
        { name: "reviewed", type: "boolean" },
        { name: "link", type: "url" },
      ],
    });
    await api.mutation("rows.insert", {
      workspace: ws,
      collection: "tasks",
      rows: [
        {
          title: "Write the release notes for the autumn update",
          estimate: 3,
          due: "2026-11-21",
          status: "done",
          reviewed: true,
          link: "https://example.com/notes",
        },
        { title: "Check contrast", estimate: 1.5, due: "2026-12-01", status: "doing", reviewed: false },
        { title: "Fix the grid", estimate: 12, due: "2026-12-24", status: "todo" },
      ],
    });
    await api.mutation("pages.create", {
      workspace: ws,
      slug: pageSlug,
      title: "Release plan",
      summary: "What ships, and when",
      body_markdown:
        "# Release plan\n\nSome **text** and a [link](https://example.com).\n\n| Item | Cost |\n|:--|--:|\n| Paper | 12.50 |\n\n```ts\nconst x: number = 1;\n```\n",
      tables: [{ collection: "tasks" }],
    });
    await api.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" });
  });

  await test.step("the dashboard", async () => {
    await page.goto("/app/");
    await expect(page.getByRole("list", { name: "Workspaces" })).toBeVisible();
    await check("dashboard");
  });

  await test.step("each workspace tab", async () => {
    await page.goto(`/app/buckets/${ws}`);
    await expect(page.getByRole("heading", { level: 1, name: "Accessibility review" })).toBeVisible();
    const tabs = await page.getByRole("tablist", { name: "Workspace sections" }).getByRole("tab").allTextContents();
    expect(tabs.length).toBeGreaterThanOrEqual(5);
    for (const label of tabs) {
      const name = label.replace(/\d+$/, "").trim();
      await page.getByRole("tab", { name: new RegExp(`^${name}`) }).click();
      await expect(page.getByRole("tabpanel")).toBeVisible();
      // Each panel loads its own data: wait until nothing says "Loading".
      await expect(page.getByRole("tabpanel").getByText(/^Loading/)).toHaveCount(0);
      await check(`workspace-${name.toLowerCase().replace(/\W+/g, "-")}`);
    }
  });

  await test.step("the page as read, and as edited", async () => {
    await page.goto(`/app/buckets/${ws}/${pageSlug}`);
    const frame = page.frameLocator('iframe[title="Release plan (the published page)"]');
    await expect(frame.getByRole("table").first()).toBeVisible();
    // The frame takes its document's height at each width.
    await check("page", () => expect(page.locator(".artifact__frame--sized")).toBeVisible());
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    await expect(page.getByRole("form", { name: "Edit Release plan" })).toBeVisible();
    await check("page-editor");
  });

  await test.step("the published page", async () => {
    await page.goto(`/a/${pageSlug}`);
    await expect(page.getByRole("heading", { level: 1, name: "Release plan" })).toBeVisible();
    await check("published-page");
  });

  await test.step("the table grid and the row editor", async () => {
    await page.goto(`/app/buckets/${ws}/tables/tasks`);
    const grid = page.getByRole("table", { name: /Tasks/ });
    await expect(grid.getByRole("row")).toHaveCount(4);
    await check("table");
    await page.getByRole("button", { name: "Edit “Check contrast”" }).click();
    await expect(page.locator("[data-column='title']").first()).toBeVisible();
    await check("row-editor");
  });

  await test.step("the connected-agent settings", async () => {
    await page.goto("/app/settings/agents");
    await expect(page.getByRole("heading", { name: "Connected agents" })).toBeVisible();
    await check("agent-settings");
  });

  await test.step("the 404 page", async () => {
    await page.goto("/app/no-such-screen");
    await expect(page.getByRole("heading", { name: "There’s nothing here" })).toBeVisible();
    await check("not-found");
  });

  await test.step("the OAuth consent screen", async () => {
    const callback = await startCallback();
    try {
      const provider = new MemoryOAuthProvider(callback.url, "Accessibility client (e2e)");
      expect(await auth(provider, { serverUrl: `${stack.baseUrl}/mcp` })).toBe("REDIRECT");
      await page.goto(provider.authorizationUrl?.href ?? "");
      await expect(page.getByRole("heading", { name: "Connect Accessibility client (e2e) to your Atelier?" })).toBeVisible();
      await check("consent");
    } finally {
      await callback.close();
    }
  });

  await test.step("a visitor's read-only view of the public workspace", async () => {
    const visitor = await browser.newContext({ viewport: DESKTOP });
    const v = await visitor.newPage();
    await v.goto(`/app/buckets/${ws}`);
    await expect(v.getByRole("heading", { level: 1, name: "Accessibility review" })).toBeVisible();
    findings.push(...(await checkScreen(v, "a11y-visitor-workspace")));
    await visitor.close();
  });

  const serious = findings.filter(isSerious);
  test.info().annotations.push({ type: "axe", description: `${findings.length} findings, ${serious.length} serious or critical` });
  expect(serious, describeFindings(serious)).toEqual([]);
});
