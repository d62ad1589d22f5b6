// The Share menu (issue 27 item 3), through nginx in Chromium at desktop (light) and phone
// width (dark): on a page it says who can see it now (private, the members), copies the
// public and the Markdown address, makes a share link that a stranger can open and that can
// be copied again after the menu is closed and opened again (the server makes its secret
// again from SECRET_KEY; only the hash is stored), and publishes and unpublishes the
// workspace — a stranger sees the page, then no longer does. On a table it says the same and
// copies the table's address. axe finds nothing serious or critical in the open menu at both
// widths in both themes.
import { expect as baseExpect, type Page, test } from "@playwright/test";
import { type AxeFinding, checkScreen, describeFindings, isSerious } from "../support/a11y";
import { httpCall, uniqueEmail, uniqueSlug } from "../support/api";
import { appApi } from "../support/app-api";
import { DESKTOP, keepScreens, PHONE, signInInBrowser } from "../support/browser";
import { stack } from "../support/stack";

const expect = baseExpect.configure({ timeout: 15_000 });
test.use({ viewport: DESKTOP });

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
/** What a stranger (no cookie) gets at `path`. */
const stranger = async (path: string) => (await httpCall(`${stack.baseUrl}${path}`)).status;

test("the Share menu: who can see it, its addresses, a link copied again later, publish and unpublish, at both widths", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const owner = uniqueEmail("sharer");
  const ws = uniqueSlug("share-ws");
  const slug = uniqueSlug("packing-list");
  const api = appApi(page);
  const context = page.context();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.baseUrl });
  const findings: AxeFinding[] = [];

  await test.step("a private workspace with a page and a table, made through the API", async () => {
    await signInInBrowser(page, owner);
    await api.mutation("workspaces.create", { slug: ws, name: "Hiking club" });
    await api.mutation("pages.create", { workspace: ws, slug, title: "Packing list", body_markdown: "# Packing list\n\n- Boots\n- Water" });
    await api.mutation("collections.create", {
      workspace: ws,
      slug: "gear",
      name: "Gear",
      kind: "table",
      columns: [{ name: "item", type: "text" }],
    });
  });

  const menu = page.getByRole("dialog", { name: "Share “Packing list”" });

  await test.step("Share on the page: private, the members, the public and the Markdown address to copy", async () => {
    await page.goto(`/app/buckets/${ws}/${slug}`);
    await page.getByRole("button", { name: "Share", exact: true }).click();
    await expect(menu).toBeVisible();
    await expect(menu.getByText("Private, with the rest of “Hiking club”")).toBeVisible();
    await expect(menu.getByRole("list", { name: "Members" })).toContainText(owner);
    await menu.getByRole("button", { name: "Copy the public address" }).click();
    expect(await clipboard(page)).toBe(`${stack.baseUrl}/a/${slug}`);
    await menu.getByRole("button", { name: "Copy the Markdown address" }).click();
    expect(await clipboard(page)).toBe(`${stack.baseUrl}/a/${slug}.md`);
    // Private: a stranger gets "not found" at either.
    expect(await stranger(`/a/${slug}`)).toBe(404);
    expect(await stranger(`/a/${slug}.md`)).toBe(404);
    await expect(menu.getByText("No link opens this page yet.")).toBeVisible();
  });

  let linkUrl = "";
  await test.step("Make a link: a stranger can open it, and it can be copied again after closing the menu", async () => {
    await menu.getByLabel("Works for").selectOption("7");
    await menu.getByRole("button", { name: "Make a link" }).click();
    const links = menu.getByRole("list", { name: "Links that open this page" });
    await expect(links.getByRole("listitem")).toHaveCount(1);
    await links.getByRole("button", { name: "Copy the share link to this page" }).click();
    linkUrl = await clipboard(page);
    expect(linkUrl).toMatch(new RegExp(`^${stack.baseUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/s/[A-Za-z0-9_-]{32}$`));
    const opened = await httpCall(linkUrl);
    expect(opened.status).toBe(200);
    expect(opened.body).toContain("Boots");
    findings.push(...(await checkScreen(page, "share-menu", () => expect(menu).toBeVisible())));

    await menu.getByRole("button", { name: "Done" }).click();
    await expect(menu).toBeHidden();
    await page.reload();
    await page.getByRole("button", { name: "Share", exact: true }).click();
    await expect(links.getByRole("listitem")).toHaveCount(1);
    await links.getByRole("button", { name: "Copy the share link to this page" }).click();
    expect(await clipboard(page)).toBe(linkUrl);
  });

  await test.step("Publish from the menu: a stranger reads the page; Unpublish: no longer", async () => {
    await menu.getByRole("button", { name: "Publish…" }).click();
    await menu.getByRole("button", { name: "Publish “Hiking club”" }).click();
    await expect(menu.getByText("Public, with the rest of “Hiking club”")).toBeVisible();
    await expect.poll(() => stranger(`/a/${slug}`)).toBe(200);
    await expect.poll(() => stranger(`/a/${slug}.md`)).toBe(200);
    await menu.getByRole("button", { name: "Unpublish…" }).click();
    await menu.getByRole("button", { name: "Unpublish “Hiking club”" }).click();
    await expect(menu.getByText("Private, with the rest of “Hiking club”")).toBeVisible();
    await expect.poll(() => stranger(`/a/${slug}`)).toBe(404);
    // The share link still opens it: it was made for exactly that.
    expect((await httpCall(linkUrl)).status).toBe(200);
    await keepScreens(page, "share-menu-page");
  });

  await test.step("on a phone in the dark theme: Share on a table copies its address", async () => {
    const phone = await browser.newContext({ viewport: PHONE, hasTouch: true, colorScheme: "dark", storageState: await context.storageState() });
    await phone.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.baseUrl });
    const p = await phone.newPage();
    await p.goto(`/app/buckets/${ws}/tables/gear`);
    await p.getByRole("button", { name: "Share", exact: true }).click();
    const tableMenu = p.getByRole("dialog", { name: "Share “Gear”" });
    await expect(tableMenu).toBeVisible();
    await expect(tableMenu.getByText("Private, with the rest of “Hiking club”")).toBeVisible();
    await expect(tableMenu.getByText("Share links open pages.")).toBeVisible();
    await tableMenu.getByRole("button", { name: "Copy the table’s address" }).click();
    expect(await clipboard(p)).toBe(`${stack.baseUrl}/app/buckets/${ws}/tables/gear`);
    // The dialog fits the phone: nothing sideways.
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await keepScreens(p, "share-menu-table");
    await tableMenu.getByRole("button", { name: "Done" }).click();
    await expect(tableMenu).toBeHidden();
    await keepScreens(p, "table-with-share-button");
    // No room for the top bar's links on a phone: they are in the Menu drawer.
    await expect(p.getByRole("navigation", { name: "Main" })).toBeHidden();
    await p.getByRole("button", { name: "Menu", exact: true }).click();
    const drawer = p.getByRole("dialog", { name: "Menu" });
    await drawer.getByRole("list", { name: "Main" }).getByRole("link", { name: "Connected agents" }).click();
    await expect(p.getByRole("heading", { level: 1, name: "Connected agents" })).toBeVisible();
    await expect(drawer).toBeHidden();
    await phone.close();
  });

  const serious = findings.filter(isSerious);
  expect(serious, describeFindings(serious)).toEqual([]);
});
