// Working together (issue 17 items 1, 2, 5, 7 and 9), through nginx in Chromium at desktop
// and phone width: a session that ends under someone's hands raises a dialog and keeps their
// text; an agent's edit to another line merges with the person's own on save; a visitor sees
// the agent by its label, never a person's address and never "not yet claimed"; the
// activity feed names the table and says "added 12 rows"; history says what each version
// changed; ⌘K / Ctrl-K finds a page and opens it. The new dialogs pass axe (0 serious or
// critical) at both widths in both themes, and the screens are kept as artifacts.
import { expect, type Page, test } from "@playwright/test";
import { type AxeFinding, checkScreen, describeFindings, isSerious } from "../support/a11y";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { appApi } from "../support/app-api";
import { DESKTOP, keepScreens, PHONE, signInInBrowser } from "../support/browser";
import { editorText, typeAtEnd } from "../support/editor";
import { waitForCode } from "../support/mail";
import { callTool, mcpClient } from "../support/mcp";
import { stack } from "../support/stack";

test.use({ viewport: DESKTOP });

const LINES = ["# Trail log", "", "Day one: we left at dawn.", "", "Day two: rain all day.", "", "Day three: the pass."];

async function editorBody(page: Page) {
  return page.getByLabel("Markdown", { exact: true });
}

test("collaborating: signed out while editing, a merged edit, attribution, activity in words, ⌘K search", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const owner = uniqueEmail("collab");
  const ws = uniqueSlug("collab-ws");
  const slug = uniqueSlug("trail-log");
  const findings: AxeFinding[] = [];
  const api = appApi(page);

  await test.step("a public workspace with a page and a table, and an agent token, made through the API", async () => {
    await signInInBrowser(page, owner);
    await api.mutation("workspaces.create", { slug: ws, name: "Mountain club" });
    await api.mutation("pages.create", { workspace: ws, slug, title: "Trail log", body_markdown: LINES.join("\n") });
    await api.mutation("collections.create", {
      workspace: ws,
      slug: "reading",
      name: "Reading list",
      kind: "table",
      columns: [{ name: "title", type: "text" }],
    });
    await api.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" });
  });

  let credential = "";
  await test.step("an agent edits the last line while the person edits the first: saving merges both", async () => {
    credential = (await api.mutation<{ credential: string }>("tokens.create", { label: "Research bot", scopes: ["mcp:read", "mcp:write"] })).credential;
    await page.goto(`/app/buckets/${ws}/${slug}?edit=1`);
    const body = await editorBody(page);
    await expect.poll(() => editorText(body)).toBe(LINES.join("\n"));
    // Meanwhile the agent saves version 2, changing another line.
    const agent = await mcpClient(credential);
    const theirs = LINES.map((l) => (l.startsWith("Day three") ? "Day three: the pass, in snow." : l));
    await callTool(agent, "update_page", { slug, body_markdown: theirs.join("\n"), expected_version: 1 });
    await agent.close();
    // The pause after typing saves (autosave) over version 1, and merges with version 2.
    await body.fill(LINES.map((l) => (l.startsWith("Day one") ? "Day one: we left at dawn, all six of us." : l)).join("\n"));
    const note = page.getByRole("status").filter({ hasText: "Merged with" });
    await expect(note).toContainText("Research bot");
    await expect(note).toContainText("change to version 2, saved as version 3.");
    await expect(page.getByText("This page changed while you were editing")).toHaveCount(0);
    const saved = await api.query<{ version: number; parts: { body: string }[] }>("pages.get", { slug });
    expect(saved.version).toBe(3);
    expect(saved.parts[0]?.body).toContain("all six of us");
    expect(saved.parts[0]?.body).toContain("in snow");
    await keepScreens(page, "collab-merged");
  });

  await test.step("history says what each version changed", async () => {
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByRole("button", { name: "History" }).click();
    const versions = page.getByRole("list", { name: "Versions, newest first" });
    await expect(versions.getByRole("listitem").nth(0)).toContainText("+1 −1 line");
    await expect(versions.getByRole("listitem").nth(2)).toContainText("created, 7 lines");
    await api.mutation("pages.restore", { slug, version: 1, expected_version: 3 });
    await page.reload();
    await expect(versions.getByRole("listitem").nth(0)).toContainText("restored from version 1");
    await keepScreens(page, "collab-history");
  });

  await test.step("a visitor sees the agent by its label, not the person's address, and not 'not yet claimed'", async () => {
    const visitorContext = await browser.newContext({ viewport: PHONE, baseURL: stack.baseUrl });
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/app/buckets/${ws}/${slug}?history=1`);
    const versions = visitor.getByRole("list", { name: "Versions, newest first" });
    const byAgent = versions.getByRole("listitem").filter({ hasText: "v2" });
    await expect(byAgent).toContainText("Research bot");
    await expect(byAgent).toContainText("agent");
    await expect(versions).not.toContainText("not yet claimed");
    await expect(versions).not.toContainText(owner);
    await expect(versions).toContainText("A workspace member");
    await keepScreens(visitor, "collab-visitor-history");
    await visitorContext.close();
  });

  await test.step("twelve rows added one at a time read as one entry in the activity, by the table's name", async () => {
    for (let i = 1; i <= 12; i++) await api.mutation("rows.insert", { workspace: ws, collection: "reading", rows: [{ title: `Book ${i}` }] });
    await page.goto(`/app/buckets/${ws}?tab=activity`);
    const feed = page.getByRole("tabpanel");
    await expect(feed.getByText("added 12 rows to")).toBeVisible();
    await expect(feed.getByRole("link", { name: "Reading list" }).first()).toHaveAttribute("href", `/app/buckets/${ws}/tables/reading`);
    await expect(feed.getByRole("link", { name: "Trail log" }).first()).toHaveAttribute("href", `/app/buckets/${ws}/${slug}`);
    await expect(feed.getByText("added 1 row to")).toHaveCount(0);
    await keepScreens(page, "collab-activity");
  });

  await test.step("Ctrl-K opens the search; arrows and Enter open a page", async () => {
    await page.keyboard.press("Control+k");
    const dialog = page.getByRole("dialog", { name: "Search" });
    await expect(dialog).toBeVisible();
    const box = dialog.getByRole("combobox", { name: "Search workspaces, pages and tables" });
    await expect(box).toBeFocused();
    await box.fill("trail");
    const list = dialog.getByRole("listbox", { name: "Results" });
    await expect(list.getByRole("option", { name: /Trail log/ })).toBeVisible();
    await expect(box).toHaveAttribute("aria-expanded", "true");
    await box.fill("mountain");
    await expect(list.getByRole("option", { name: /Mountain club/ })).toBeVisible();
    await box.fill("reading");
    await expect(list.getByRole("group", { name: "Tables" }).getByRole("option", { name: /Reading list/ })).toBeVisible();
    await box.fill("trail");
    await expect(list.getByRole("option")).toHaveCount(1);
    findings.push(...(await checkScreen(page, "collab-search", async () => void (await expect(list.getByRole("option")).toHaveCount(1)))));
    await box.press("ArrowDown");
    await expect(list.getByRole("option", { name: /Trail log/ })).toHaveAttribute("aria-selected", "true");
    await box.press("Enter");
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/app/buckets/${ws}/${slug}$`));
  });

  await test.step("on a phone, the Search button opens the same palette", async () => {
    await page.setViewportSize(PHONE);
    await page.getByRole("button", { name: "Search" }).click();
    const dialog = page.getByRole("dialog", { name: "Search" });
    await dialog.getByRole("combobox").fill("reading");
    await expect(dialog.getByRole("option", { name: /Reading list/ })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await page.setViewportSize(DESKTOP);
  });

  const typed = "Day four: over the ridge, and the notes I must not lose.";
  await test.step("the session ends while editing: saving raises the dialog, and the text stays", async () => {
    await page.goto(`/app/buckets/${ws}/${slug}?edit=1`);
    const body = await editorBody(page);
    await expect(body).toContainText("Trail log");
    // The session ends elsewhere (same cookie jar: as if signed out on another tab).
    await api.mutation("auth.signOut", {});
    // The pause after typing saves, and finds the session gone.
    await typeAtEnd(body, `\n\n${typed}`);
    const dialog = page.getByRole("dialog", { name: "You were signed out — sign in to save; your text is kept" });
    await expect(dialog).toBeVisible();
    // Nothing swapped underneath: the editor and the text are still there.
    await expect(body).toContainText(typed);
    findings.push(...(await checkScreen(page, "collab-signed-out", async () => void (await expect(dialog).toBeVisible()))));
  });

  await test.step("signing in again (the address filled in) brings the same editor back with the text", async () => {
    await page.getByRole("dialog").getByRole("button", { name: "Sign in" }).click();
    // The address is filled in already, and the screen says why it is there.
    await expect(page.getByText("Your session ended. Sign in again to go back to where you were.")).toBeVisible();
    await expect(page.getByLabel("E-mail address")).toHaveValue(owner);
    const since = Date.now();
    await page.getByRole("button", { name: "Send me a code" }).click();
    await page.getByLabel("Six-digit code").fill(await waitForCode(owner, since));
    await expect(page).toHaveURL(new RegExp(`/app/buckets/${ws}/${slug}\\?edit=1$`));
    await page.getByRole("button", { name: "Bring them back" }).click();
    await expect(await editorBody(page)).toContainText(typed);
    // Brought back, it saves itself after the pause.
    await expect(page.getByText(/Saved as version \d+/)).toBeVisible();
    const saved = await api.query<{ parts: { body: string }[] }>("pages.get", { slug });
    expect(saved.parts[0]?.body).toContain(typed);
  });

  await test.step("offline, the banner says so, a save fails and says why, and it is sent again by itself when the connection returns", async () => {
    const body = await editorBody(page);
    await page.context().setOffline(true);
    await typeAtEnd(body, "\n\nOffline line.");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "You’re offline" })).toBeVisible();
    await expect(page.getByText("Not saved yet: Atelier can’t be reached.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Save", exact: true })).toBeEnabled();
    await keepScreens(page, "collab-offline");
    await page.context().setOffline(false);
    await expect(page.getByRole("status").filter({ hasText: "You’re offline" })).toHaveCount(0);
    // No click: the failed save is retried once the connection is back.
    await expect(page.getByText(/Saved as version \d+/)).toBeVisible();
    await expect.poll(async () => (await api.query<{ parts: { body: string }[] }>("pages.get", { slug })).parts[0]?.body).toContain("Offline line.");
  });

  const serious = findings.filter(isSerious);
  expect(serious, describeFindings(serious)).toEqual([]);
});
