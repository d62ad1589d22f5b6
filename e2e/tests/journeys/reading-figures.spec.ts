// Reading figures (issue 32) end to end through nginx: a reader opens the published page in
// Chromium, nginx counts the read in its view log (the micro-cache answers it or not), the
// page sends nothing of its own, and the owner sees the view in the
// page's Readers panel (an SVG sparkline, totals, the referring host) and the workspace's
// "Most read"; the published page's footer says how views are counted. The panel has no
// serious axe violation at desktop and phone width, light and dark.
import { expect, test } from "@playwright/test";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { checkScreen, describeFindings, isSerious } from "../support/a11y";
import { appApi } from "../support/app-api";
import { signInInBrowser } from "../support/browser";

test("a reader's view of a published page shows in the owner's Readers panel", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const ws = uniqueSlug("figures-ws");
  const slug = uniqueSlug("quarterly");

  await test.step("an owner publishes a page", async () => {
    await signInInBrowser(page, uniqueEmail("figures"));
    const api = appApi(page);
    await api.mutation("workspaces.create", { slug: ws, name: "Figures" });
    await api.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" });
    await api.mutation("pages.create", { slug, title: "Quarterly numbers", workspace: ws, body_markdown: "# Quarterly numbers\n\nUp and to the right.\n" });
  });

  await test.step("a reader without an account opens it, and the footer says how views are counted", async () => {
    // Headless Chromium names itself HeadlessChrome, which is counted as a bot: the reader is a person's browser.
    const reader = await browser.newContext({
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
    });
    const tab = await reader.newPage();
    const posts: string[] = [];
    tab.on("request", (r) => {
      if (r.method() !== "GET") posts.push(`${r.method()} ${r.url()}`);
    });
    await tab.goto(`/a/${slug}`);
    await expect(tab.getByRole("heading", { name: "Quarterly numbers" })).toBeVisible();
    // Nothing reports the view from the page: nginx's own log counts it.
    expect(posts).toEqual([]);
    await expect(tab.getByRole("link", { name: "Views are counted without cookies" })).toHaveAttribute("href", "/privacy#reading-figures");
    await reader.close();
  });

  await test.step("the owner sees the view in the Readers panel once the servers have flushed", async () => {
    await page.goto(`/app/buckets/${ws}/${slug}?readers=1`);
    const panel = page.getByRole("complementary", { name: "Readers" });
    await expect(async () => {
      await page.reload();
      await expect(panel.getByRole("definition").first()).toHaveText("1", { timeout: 2000 });
    }).toPass({ timeout: 60_000 });
    await expect(panel.getByRole("img", { name: /Views per day over the last 30 days: 1 in all/ })).toBeVisible();
  });

  await test.step("the panel has no serious axe violation (desktop and phone, light and dark)", async () => {
    const findings = await checkScreen(page, "reading-figures", async () => {
      await expect(page.getByRole("complementary", { name: "Readers" }).getByRole("img").first()).toBeVisible();
    });
    const serious = findings.filter(isSerious);
    expect(serious, describeFindings(serious)).toEqual([]);
  });

  await test.step("the workspace lists it as most read", async () => {
    await page.goto(`/app/buckets/${ws}`);
    const most = page.getByRole("region", { name: "Most read" });
    await expect(most.getByRole("link", { name: "Quarterly numbers" })).toBeVisible();
  });
});
