// Finding your way (issue 27 item 4), through nginx in Chromium: the sidebar lists what was
// opened lately and every workspace with its pages and tables, marks where you are, hides and
// comes back on a wide screen; ⌘K / Ctrl-K shows recent items before anything is typed, and
// finds a page by a word of its text (issue 30 item 2) with the word marked; on a
// phone (dark theme) the sidebar is a drawer from the Menu button that closes on the way to
// a link. axe finds nothing serious or critical with the sidebar and with the drawer open.
import { expect as baseExpect, test } from "@playwright/test";
import { type AxeFinding, checkScreen, describeFindings, isSerious } from "../support/a11y";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { appApi } from "../support/app-api";
import { DESKTOP, PHONE, signInInBrowser } from "../support/browser";

const expect = baseExpect.configure({ timeout: 30_000 });
test.use({ viewport: DESKTOP, actionTimeout: 30_000 });

test("finding your way: the sidebar, recent items and page text in ⌘K, the drawer on a phone", async ({ page, browser }) => {
  test.setTimeout(600_000);
  const owner = uniqueEmail("wayfinder");
  const ws = uniqueSlug("garden-ws");
  const compost = uniqueSlug("compost");
  const seeds = uniqueSlug("seeds");
  const api = appApi(page);
  const findings: AxeFinding[] = [];

  await test.step("a workspace with two pages and a table, made through the API", async () => {
    await signInInBrowser(page, owner);
    await api.mutation("workspaces.create", { slug: ws, name: "Garden club" });
    await api.mutation("pages.create", { workspace: ws, slug: compost, title: "Compost guide", body_markdown: "# Compost\n\nGreens and browns." });
    await api.mutation("pages.create", { workspace: ws, slug: seeds, title: "Seed swap", body_markdown: "Bring seeds." });
    await api.mutation("collections.create", { workspace: ws, slug: "plots", name: "Plots", kind: "table", columns: [{ name: "name", type: "text" }] });
  });

  const sidebar = page.getByRole("navigation", { name: "Sidebar" });

  await test.step("wide screen: the sidebar shows the workspace's pages and tables, marks the current page, and remembers what was opened", async () => {
    await page.goto(`/app/buckets/${ws}/${compost}`);
    await expect(page.getByRole("heading", { level: 1, name: "Compost guide" })).toBeVisible();
    const inWs = sidebar.getByRole("list", { name: "In Garden club" });
    await expect(inWs.getByRole("link", { name: "Compost guide" })).toHaveAttribute("aria-current", "page");
    await expect(inWs.getByRole("link", { name: "Plots" })).toHaveAttribute("href", `/app/buckets/${ws}/tables/plots`);
    await inWs.getByRole("link", { name: "Seed swap" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Seed swap" })).toBeVisible();
    const recent = sidebar.getByRole("list", { name: "Recent" });
    await expect(recent.getByRole("link", { name: "Compost guide" })).toBeVisible();
    findings.push(...(await checkScreen(page, "sidebar", () => expect(page.getByRole("heading", { level: 1, name: "Seed swap" })).toBeVisible())));
  });

  await test.step("the sidebar hides and comes back, and stays as it was left", async () => {
    await page.getByRole("button", { name: "Hide sidebar" }).click();
    await expect(sidebar).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole("button", { name: "Show sidebar" })).toHaveAttribute("aria-expanded", "false");
    await expect(sidebar).toHaveCount(0);
    await page.getByRole("button", { name: "Show sidebar" }).click();
    await expect(sidebar.getByRole("list", { name: "Recent" })).toBeVisible();
  });

  await test.step("Ctrl-K shows recent items before anything is typed; Enter opens one", async () => {
    await page.getByRole("heading", { level: 1 }).click();
    await page.keyboard.press("Control+k");
    const dialog = page.getByRole("dialog", { name: "Search" });
    const group = dialog.getByRole("group", { name: "Recent" });
    await expect(group.getByRole("option", { name: /Compost guide/ })).toBeVisible();
    await expect(dialog.getByRole("status")).toContainText("Recently opened");
    // The newest other item first: the page opened before this one.
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "Compost guide" })).toBeVisible();
  });

  await test.step("Ctrl-K finds a page by a word of its text, with the word marked in the passage", async () => {
    await page.keyboard.press("Control+k");
    const dialog = page.getByRole("dialog", { name: "Search" });
    await dialog.getByRole("combobox").fill("browns");
    const option = dialog.getByRole("group", { name: "Pages" }).getByRole("option", { name: /Compost guide/ });
    await expect(option).toBeVisible();
    await expect(option.locator("mark")).toHaveText("browns");
    findings.push(...(await checkScreen(page, "search-text", () => expect(option).toBeVisible())));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "Compost guide" })).toBeVisible();
  });

  await test.step("phone, dark: the sidebar is a drawer from Menu, closed on the way to a link", async () => {
    const phone = await browser.newContext({ viewport: PHONE, hasTouch: true, colorScheme: "dark", storageState: await page.context().storageState() });
    const p = await phone.newPage();
    await p.goto(`/app/buckets/${ws}`);
    await expect(p.getByRole("heading", { level: 1, name: "Garden club" })).toBeVisible();
    await expect(p.getByRole("navigation", { name: "Sidebar" })).toBeHidden();
    await p.getByRole("button", { name: "Menu", exact: true }).click();
    const drawer = p.getByRole("dialog", { name: "Menu" });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole("list", { name: "In Garden club" }).getByRole("link", { name: "Seed swap" })).toBeVisible();
    findings.push(...(await checkScreen(p, "sidebar-drawer", () => expect(drawer.getByRole("link", { name: "Seed swap" }).first()).toBeVisible())));
    await drawer.getByRole("list", { name: "In Garden club" }).getByRole("link", { name: "Seed swap" }).click();
    await expect(p.getByRole("heading", { level: 1, name: "Seed swap" })).toBeVisible();
    await expect(drawer).toBeHidden();
    await phone.close();
  });

  const serious = findings.filter(isSerious);
  expect(serious, describeFindings(serious)).toEqual([]);
});
