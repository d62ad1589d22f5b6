// A new page in one click (issue 27 item 4), through nginx in Chromium at desktop (light) and
// phone width (dark): "New page" opens an untitled page in the editor with its title selected
// to type over; the first save gives it the address made from the title while the editor
// stays open with the cursor where it was; the address can be changed later. axe finds
// nothing serious or critical on the fresh page at both widths in both themes.
import { expect as baseExpect, type Page, test } from "@playwright/test";
import { type AxeFinding, checkScreen, describeFindings, isSerious } from "../support/a11y";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { appApi } from "../support/app-api";
import { DESKTOP, PHONE, signInInBrowser } from "../support/browser";
import { editorText } from "../support/editor";

// The editor's code loads on the first Edit; on a busy machine that can take a while.
const expect = baseExpect.configure({ timeout: 30_000 });
test.use({ viewport: DESKTOP, actionTimeout: 30_000 });

/**
 * Holds the answer to the page's move (its first save's new address) until a refetch of the old
 * address has answered "not found", as a slow network can: the move's own live update asks for
 * that refetch. Gives a check of whether that happened (once the move has answered).
 */
async function holdMoveUntilOldAddressIsGone(page: Page, oldSlug: string): Promise<() => boolean> {
  let seen = false;
  await page.route("**/api/trpc/pages.move*", async (route) => {
    const response = await route.fetch();
    seen = await page
      .waitForResponse(async (r) => r.url().includes("pages.get") && decodeURIComponent(r.url()).includes(oldSlug) && /not_found/i.test(await r.text()), {
        timeout: 15_000,
      })
      .then(() => true)
      .catch(() => false);
    await route.fulfill({ response });
  });
  return () => seen;
}

async function newPageInOneClick(page: Page, ws: string, title: string, line: string, slowMove = false): Promise<string> {
  await page.goto(`/app/buckets/${ws}`);
  await page.getByRole("button", { name: "New page", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/app/buckets/${ws}/untitled-[a-z0-9]{8}\\?edit=1&new=1$`));
  const held = slowMove ? await holdMoveUntilOldAddressIsGone(page, new URL(page.url()).pathname.split("/").pop() ?? "") : null;
  const form = page.getByRole("form", { name: /^Edit / });
  const titleBox = form.getByLabel("Title");
  await expect(titleBox).toBeFocused();
  await expect(titleBox).toHaveValue("Untitled");
  // The title is selected: typing replaces it.
  await page.keyboard.type(title);
  await expect(titleBox).toHaveValue(title);
  const body = form.getByLabel("Markdown", { exact: true });
  await body.click();
  await page.keyboard.type(line);
  // The first save (after the pause) gives the page its address from the title.
  const expected = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  await expect(page).toHaveURL(new RegExp(`/app/buckets/${ws}/${expected}(-[a-z0-9]{4})?\\?edit=1$`));
  // Still the same editor, the cursor still in the text: typing goes on where it was.
  await expect(body).toBeFocused();
  await page.keyboard.type(" More.");
  expect(await editorText(body)).toBe(`${line} More.`);
  // The old address answered "not found" while the move was on its way, and the editor stayed.
  if (held) expect(held()).toBe(true);
  await expect(form.getByRole("status").first()).toHaveText(/^Saved as version \d+$/);
  return new URL(page.url()).pathname.split("/").pop() ?? "";
}

test("a new page in one click: untitled, typed over, addressed by its title on the first save", async ({ page, browser }) => {
  test.setTimeout(600_000);
  const owner = uniqueEmail("new-page");
  const ws = uniqueSlug("new-page-ws");
  const tag = Math.random().toString(36).slice(2, 6);
  const api = appApi(page);
  const findings: AxeFinding[] = [];

  await test.step("signed in, with a workspace", async () => {
    await signInInBrowser(page, owner);
    await api.mutation("workspaces.create", { slug: ws, name: "Notebook" });
  });

  await test.step("desktop: one click, type the title, write; the address follows the title", async () => {
    // The move's answer held back until the old address is gone: the editor must not notice.
    const slug = await newPageInOneClick(page, ws, `Trip notes ${tag}`, "Left at dawn.", true);
    await expect
      .poll(async () => (await api.query<{ title: string; parts: { body: string }[] }>("pages.get", { slug })).parts[0]?.body)
      .toBe("Left at dawn. More.");
    expect((await api.query<{ title: string }>("pages.get", { slug })).title).toBe(`Trip notes ${tag}`);
    findings.push(...(await checkScreen(page, "new-page-editor", () => expect(page.getByRole("form", { name: /^Edit / })).toBeVisible())));
    // The address can be changed later, like any page's.
    await page.getByRole("button", { name: "Done" }).click();
    await expect(page.getByRole("button", { name: "Change address" })).toBeVisible();
  });

  await test.step("phone, dark: the same in one tap", async () => {
    const phone = await browser.newContext({ viewport: PHONE, hasTouch: true, colorScheme: "dark", storageState: await page.context().storageState() });
    const p = await phone.newPage();
    const slug = await newPageInOneClick(p, ws, `Packing list ${tag}`, "Boots");
    expect(slug).toMatch(new RegExp(`^packing-list-${tag}`));
    await phone.close();
  });

  const serious = findings.filter(isSerious);
  expect(serious, describeFindings(serious)).toEqual([]);
});
