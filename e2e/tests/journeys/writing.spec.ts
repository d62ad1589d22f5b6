// Writing in place (issue 27 item 2), through nginx in Chromium: the page's Markdown is written
// in a real editor (CodeMirror) that keeps every byte an agent wrote (CRLF line ends, odd
// list markers, trailing spaces) apart from what the person changed; the toolbar and the
// shortcuts format the text; pasting a link over words links them; a pause in typing saves
// (one version for a burst of typing, not one per keystroke); an agent's edit to another line
// (the real MCP client) is merged with the person's on autosave; leaving with unsaved text
// asks first (an in-app link, and closing the tab); Ctrl+S saves from anywhere on the page;
// no stale "unsaved changes" note after a save; the same on a phone in the dark theme. The
// editor passes axe (0 serious or critical) at both widths in both themes.
import { expect as baseExpect, type Page, test } from "@playwright/test";
import { type AxeFinding, checkScreen, describeFindings, isSerious } from "../support/a11y";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { appApi } from "../support/app-api";
import { DESKTOP, keepScreens, PHONE, signInInBrowser } from "../support/browser";
import { editorText, pasteInto, typeAtEnd } from "../support/editor";
import { callTool, mcpClient } from "../support/mcp";

// The editor's code loads on the first Edit; on a busy machine that can take a while.
const expect = baseExpect.configure({ timeout: 30_000 });
test.use({ viewport: DESKTOP, actionTimeout: 30_000 });

// What an agent wrote: Windows line ends, "*" bullets, "__bold__", two trailing spaces (a
// hard break), a tab. A rich editor would rewrite most of this on the first save.
const AGENT_BODY = "# Field guide\r\n\r\n*  Boots  \r\n*  __Map__\r\n\r\n\tIndented code\r\n\r\nLast line.";

type Stored = { version: number; parts: { body: string }[] };

function bodyOf(page: Page) {
  return page.getByRole("form", { name: /^Edit / }).getByLabel("Markdown", { exact: true });
}

test("writing in place: exact Markdown, toolbar and shortcuts, pasted links, autosave per pause, an agent's edit merged, leaving warns", async ({
  page,
  browser,
}) => {
  test.setTimeout(600_000);
  const owner = uniqueEmail("writer");
  const ws = uniqueSlug("writing-ws");
  const slug = uniqueSlug("field-guide");
  const api = appApi(page);
  const context = page.context();
  const findings: AxeFinding[] = [];
  let credential = "";

  await test.step("a workspace, a page an agent wrote, and an agent token, made through the API", async () => {
    await signInInBrowser(page, owner);
    await api.mutation("workspaces.create", { slug: ws, name: "Expedition" });
    await api.mutation("pages.create", { workspace: ws, slug, title: "Field guide", body_markdown: AGENT_BODY });
    credential = (await api.mutation<{ credential: string }>("tokens.create", { label: "Scout bot", scopes: ["mcp:read", "mcp:write"] })).credential;
  });

  const body = bodyOf(page);
  let version = 2;
  const status = page
    .getByRole("form", { name: /^Edit / })
    .getByRole("status")
    .first();

  await test.step("Edit opens the editor in place with the cursor in the text; a burst of typing saves once, after the pause, keeping every other byte", async () => {
    await page.goto(`/app/buckets/${ws}/${slug}`);
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    await expect(body).toBeFocused();
    expect(await editorText(body)).toBe(AGENT_BODY);
    await body.press("ControlOrMeta+End");
    // Typed key by key: one version for all of it.
    await body.pressSequentially(" More to come.", { delay: 20 });
    await expect(status).toHaveText("Saved as version 2");
    const stored = await api.query<Stored>("pages.get", { slug });
    expect(stored.version).toBe(2);
    expect(stored.parts[0]?.body).toBe(`${AGENT_BODY} More to come.`);
  });

  await test.step("the toolbar and the shortcuts format the selection; pasting a link over words links them", async () => {
    await typeAtEnd(body, "\n\nbring water");
    // Select "water" (5 characters back) and make it bold with the toolbar.
    for (let i = 0; i < 5; i++) await body.press("Shift+ArrowLeft");
    await page.getByRole("toolbar", { name: "Formatting" }).getByRole("button", { name: "Bold" }).click();
    expect(await editorText(body)).toContain("bring **water**");
    await body.press("End");
    await page.keyboard.insertText(" and a compass");
    for (let i = 0; i < 7; i++) await body.press("Shift+ArrowLeft");
    await body.press("ControlOrMeta+i");
    expect(await editorText(body)).toContain("and a _compass_");
    await body.press("End");
    await page.keyboard.insertText("\nthe trail map");
    for (let i = 0; i < 9; i++) await body.press("Shift+ArrowLeft");
    await pasteInto(body, "https://example.org/trail");
    expect(await editorText(body)).toContain("the [trail map](https://example.org/trail)");
    await page.getByRole("toolbar", { name: "Formatting" }).getByRole("button", { name: "Bulleted list" }).click();
    expect(await editorText(body)).toContain("- the [trail map](https://example.org/trail)");
    // However many pauses the typing above had, the last one saved all of it.
    const expected = `${AGENT_BODY} More to come.\n\nbring **water** and a _compass_\n- the [trail map](https://example.org/trail)`;
    await expect.poll(async () => (await api.query<Stored>("pages.get", { slug })).parts[0]?.body).toBe(expected);
    version = (await api.query<Stored>("pages.get", { slug })).version;
    await expect(status).toHaveText(`Saved as version ${version}`);
    findings.push(...(await checkScreen(page, "writing-editor", () => expect(body).toBeVisible())));
  });

  await test.step("an agent edits the first line while the person types at the end: autosave merges both", async () => {
    const agent = await mcpClient(credential);
    const current = (await api.query<Stored>("pages.get", { slug })).parts[0]?.body ?? "";
    await callTool(agent, "update_page", { slug, body_markdown: current.replace("# Field guide", "# Field guide (spring)"), expected_version: version });
    await agent.close();
    await typeAtEnd(body, "\n\nSee you at the hut.");
    const note = page.getByRole("status").filter({ hasText: "Merged with" });
    await expect(note).toContainText("Scout bot");
    await expect(note).toContainText(`change to version ${version + 1}, saved as version ${version + 2}.`);
    const stored = await api.query<Stored>("pages.get", { slug });
    expect(stored.version).toBe(version + 2);
    version += 2;
    expect(stored.parts[0]?.body).toContain("# Field guide (spring)\r\n");
    expect(stored.parts[0]?.body).toContain("See you at the hut.");
    // The merged text is on screen too, ready to go on writing.
    expect(await editorText(body)).toContain("# Field guide (spring)");
    await keepScreens(page, "writing-merged");
  });

  await test.step("Ctrl+S saves from anywhere on the page (an untitled page is refused by it, but not by autosave)", async () => {
    const title = page.getByRole("form", { name: /^Edit / }).getByLabel("Title");
    // Somewhere outside the text: the page's own heading (the preview's "# Field guide
    // (spring)" is a level-1 heading too, and comes after it).
    const outside = page.getByRole("heading", { level: 1 }).first();
    await title.fill("");
    await outside.click();
    await page.keyboard.press("ControlOrMeta+s");
    await expect(page.getByText("Give the page a title.")).toBeVisible();
    await expect(title).toBeFocused();
    await title.fill("Field guide, spring");
    await outside.click();
    await page.keyboard.press("ControlOrMeta+s");
    await expect(status).toHaveText(`Saved as version ${++version}`);
    expect((await api.query<Stored & { title: string }>("pages.get", { slug })).title).toBe("Field guide, spring");
  });

  await test.step("leaving with unsaved text asks first: an in-app link, then closing the tab", async () => {
    await typeAtEnd(body, "\nUnsaved thought");
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Expedition" }).click();
    expect(asked[0]).toContain("aren’t saved yet");
    await expect(page).toHaveURL(new RegExp(`/app/buckets/${ws}/${slug}\\?edit=1$`));
    // Staying: the pause saves it, and then leaving asks nothing.
    await expect(status).toHaveText(`Saved as version ${++version}`);
    await typeAtEnd(body, " and another");
    // Closing anyway: the text is kept in this browser first.
    const unload = new Promise<string>((resolve) => page.once("dialog", (d) => (resolve(d.type()), void d.accept())));
    await page.close({ runBeforeUnload: true });
    expect(await unload).toBe("beforeunload");
  });

  await test.step("back in a new tab: no stale unsaved-changes note after a save, and the copy kept in the browser is offered only when it differs", async () => {
    const again = await context.newPage();
    const api2 = appApi(again);
    await again.goto(`/app/buckets/${ws}/${slug}?edit=1`);
    // The tab was closed before the pause: its text is offered back once.
    await expect(again.getByText("You have unsaved changes to this page")).toBeVisible();
    await again.getByRole("button", { name: "Bring them back" }).click();
    await expect(
      again
        .getByRole("form", { name: /^Edit / })
        .getByRole("status")
        .first(),
    ).toHaveText(`Saved as version ${++version}`);
    await expect(again.getByText("You have unsaved changes to this page")).toHaveCount(0);
    await again.reload();
    await expect(bodyOf(again)).toBeVisible();
    await expect(again.getByText("You have unsaved changes to this page")).toHaveCount(0);
    expect((await api2.query<Stored>("pages.get", { slug })).parts[0]?.body).toMatch(/Unsaved thought and another$/);
    await again.close();
  });

  await test.step("on a phone in the dark theme: write, the pause saves, Preview shows it", async () => {
    const phone = await browser.newContext({ viewport: PHONE, hasTouch: true, colorScheme: "dark", storageState: await context.storageState() });
    const p = await phone.newPage();
    await p.goto(`/app/buckets/${ws}/${slug}?edit=1`);
    const phoneBody = bodyOf(p);
    await typeAtEnd(phoneBody, "\n\nWritten on the trail.");
    await expect(
      p
        .getByRole("form", { name: /^Edit / })
        .getByRole("status")
        .first(),
    ).toHaveText(`Saved as version ${++version}`);
    await p.getByRole("button", { name: "Preview", exact: true }).click();
    await expect(p.getByRole("document", { name: "Preview" }).getByText("Written on the trail.")).toBeVisible();
    await p.getByRole("button", { name: "Write", exact: true }).click();
    await keepScreens(p, "writing-phone-dark");
    await phone.close();
  });

  const serious = findings.filter(isSerious);
  expect(serious, describeFindings(serious)).toEqual([]);
});
