// Settings and invitations (issue 17 items 3 and 4), through nginx in Chromium at desktop and
// phone width: an owner renames a workspace, makes and revokes a share link (which then stops
// working), renames and removes a table's columns, changes a page's address (the old one
// redirects), invites a person by e-mail (the mail is captured by the test's SMTP server; on
// a phone they follow its link, sign in and are a member), and deletes the workspace with a
// typed confirmation. axe-core checks every settings screen in both themes at both widths
// (0 serious or critical), and the screens are kept in e2e/artifacts/screens/.
import { expect, test } from "@playwright/test";
import { type AxeFinding, checkScreen, describeFindings, isSerious } from "../support/a11y";
import { httpCall, uniqueEmail, uniqueSlug } from "../support/api";
import { appApi } from "../support/app-api";
import { DESKTOP, PHONE, signInInBrowser } from "../support/browser";
import { codeIn, waitForMail } from "../support/mail";
import { stack } from "../support/stack";

test.use({ viewport: DESKTOP });

/** A mail's quoted-printable text, decoded. */
function decodeQp(raw: string): string {
  const bytes = raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

test("an owner's settings: rename, share links, table columns, a page's address, an invitation, and deleting the workspace", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const owner = uniqueEmail("settings-owner");
  const invitee = uniqueEmail("settings-invitee");
  const ws = uniqueSlug("settings-ws");
  const pageSlug = uniqueSlug("plan");
  const movedSlug = uniqueSlug("plan-moved");
  const findings: AxeFinding[] = [];

  await test.step("a workspace with a page and a table, made through the API", async () => {
    await signInInBrowser(page, owner);
    const api = appApi(page);
    await api.mutation("workspaces.create", { slug: ws, name: "Settings trial" });
    await api.mutation("pages.create", { workspace: ws, slug: pageSlug, title: "The plan", body_markdown: "What we do next." });
    // A long title makes the share-link form's page choice wide: the form must still fit a phone.
    await api.mutation("pages.create", {
      workspace: ws,
      slug: uniqueSlug("minutes"),
      title: "Minutes of the quarterly planning meeting with every team and its follow-ups",
      body_markdown: "Notes.",
    });
    await api.mutation("collections.create", {
      workspace: ws,
      slug: "tasks",
      name: "Tasks",
      kind: "table",
      columns: [
        { name: "task", type: "text", required: true },
        { name: "points", type: "number" },
        { name: "done", type: "boolean" },
      ],
    });
    await api.mutation("rows.insert", {
      workspace: ws,
      collection: "tasks",
      rows: [{ task: "Draft", points: 3, done: true }, { task: "Review", points: 5, done: false }, { task: "Ship" }],
    });
  });

  await test.step("rename the workspace in Settings", async () => {
    await page.goto(`/app/buckets/${ws}?tab=settings`);
    const name = page.getByLabel("Workspace name");
    await expect(name).toHaveValue("Settings trial");
    await name.fill("Settings, renamed");
    await page.getByRole("button", { name: "Rename" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Settings, renamed" })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Renamed." })).toBeVisible();
  });

  await test.step("make a share link to the page; it opens without an account until it is revoked", async () => {
    const form = page.getByRole("form", { name: "New share link" });
    await form.getByLabel("What the link opens").selectOption(pageSlug);
    await form.getByRole("button", { name: "Create link" }).click();
    const url = (await page.getByTestId("new-share-link").textContent())?.trim() ?? "";
    expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{20,}$/);
    const shared = `${stack.baseUrl}${new URL(url).pathname}`;
    const opened = await httpCall(shared);
    expect(opened.status).toBe(200);
    expect(opened.body).toContain("What we do next.");
    const links = page.getByRole("list", { name: "Share links" });
    await expect(links.getByRole("listitem")).toHaveCount(1);
    await expect(links.getByRole("listitem").first()).toContainText("Page: The plan");
    await page.reload();
    await expect(page.getByRole("list", { name: "Share links" }).getByRole("listitem").first()).toContainText("last used");
    findings.push(...(await checkScreen(page, "settings-workspace", async () => expect(page.getByRole("heading", { name: "Share links" })).toBeVisible())));

    await page.getByRole("button", { name: "Revoke the link to page: the plan" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke this share link?" });
    await dialog.getByRole("button", { name: "Revoke" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText("No share links yet.")).toBeVisible();
    // Revoked: the same link answers 404 (the read cache holds a link at most CACHE_TTL_MS).
    await expect.poll(async () => (await httpCall(shared)).status, { timeout: 5_000 }).toBe(404);
  });

  await test.step("rename a column (its values come along) and remove one after a confirmation that counts its values", async () => {
    await page.goto(`/app/buckets/${ws}/tables/tasks`);
    await page.getByRole("button", { name: "Table settings" }).click();
    const settings = page.getByRole("region", { name: "Table settings" });
    const points = settings.getByRole("form", { name: "Column points" });
    await points.getByLabel("Name of column points").fill("estimate");
    await points.getByRole("button", { name: "Save" }).click();
    const grid = page.locator("table.grid");
    await expect(grid.getByRole("columnheader", { name: /estimate/ })).toBeVisible();
    await expect(grid.getByRole("columnheader", { name: /points/ })).toHaveCount(0);
    await expect(grid.getByRole("row").filter({ hasText: "Review" })).toContainText("5");
    findings.push(...(await checkScreen(page, "settings-table", async () => expect(settings.getByRole("heading", { name: "Columns" })).toBeVisible())));

    await settings
      .getByRole("listitem")
      .filter({ has: page.getByRole("form", { name: "Column done" }) })
      .getByRole("button", { name: "Remove column…" })
      .click();
    const confirm = page.getByRole("dialog", { name: "Remove the column “done”?" });
    await expect(confirm).toContainText("2 rows have values in “done”");
    await confirm.getByRole("button", { name: "Remove and drop 2 values" }).click();
    await expect(confirm).toBeHidden();
    await expect(grid.getByRole("columnheader", { name: /done/ })).toHaveCount(0);
    const rows = await appApi(page).query<{ rows: { values: Record<string, unknown> }[] }>("rows.list", { workspace: ws, collection: "tasks" });
    expect(rows.rows.map((r) => r.values)).toEqual([
      { task: "Draft", estimate: 3 },
      { task: "Review", estimate: 5 },
      { task: "Ship", estimate: null },
    ]);
  });

  await test.step("change the page's address; the old one redirects to the new one", async () => {
    await page.goto(`/app/buckets/${ws}/${pageSlug}`);
    await page.getByRole("button", { name: "Change address" }).click();
    const dialog = page.getByRole("dialog", { name: "Change the page’s address" });
    await expect(dialog).toContainText("keeps sending readers here for 30 days");
    findings.push(...(await checkScreen(page, "settings-page-address")));
    await dialog.getByLabel("New address").fill(movedSlug);
    await dialog.getByRole("button", { name: "Change address" }).click();
    await expect(page).toHaveURL(new RegExp(`/app/buckets/${ws}/${movedSlug}$`));
    await expect(page.getByText(`/a/${movedSlug}`).first()).toBeVisible();
    const old = await page.request.get(`/a/${pageSlug}`, { maxRedirects: 0 });
    expect(old.status()).toBe(301);
    expect(old.headers().location).toBe(`/a/${movedSlug}`);
    await page.goto(`/a/${pageSlug}`);
    await expect(page).toHaveURL(new RegExp(`/a/${movedSlug}$`));
    await expect(page.getByText("What we do next.")).toBeVisible();
  });

  await test.step("invite a person by e-mail; the mail arrives; on a phone they follow its link, sign in and are a member", async () => {
    await page.goto(`/app/buckets/${ws}?tab=people`);
    const invite = page.getByRole("form", { name: "Add a person" });
    await invite.getByLabel("Add a person by e-mail").fill(invitee);
    await invite.getByLabel("Role").selectOption("editor");
    const since = Date.now();
    await invite.getByRole("button", { name: "Add", exact: true }).click();
    await expect(invite.getByRole("status")).toHaveText(
      `We e-mailed ${invitee} an invitation. They can read and edit this workspace once they sign in with that address.`,
    );
    const pending = page.getByRole("list", { name: "Pending invitations" });
    await expect(pending.getByRole("listitem").filter({ hasText: invitee })).toContainText("Pending");
    findings.push(...(await checkScreen(page, "settings-people-pending")));

    const mail = decodeQp(await waitForMail(invitee, since));
    expect(mail).toContain("added you to the Atelier workspace “Settings, renamed” as an editor");
    const link = /(https?:\/\/\S+\/app\/sign-in\?next=\S+)/.exec(mail)?.[1] ?? "";
    expect(link).toContain(`next=${encodeURIComponent(`/buckets/${ws}`)}`);

    const phone = await browser.newContext({ viewport: PHONE, hasTouch: true });
    const p = await phone.newPage();
    await p.goto(new URL(link).pathname + new URL(link).search);
    await p.getByLabel("E-mail address").fill(invitee);
    const codeSince = Date.now();
    await p.getByRole("button", { name: "Send me a code" }).click();
    await p.getByLabel("Six-digit code").fill(codeIn(await waitForMail(invitee, codeSince)));
    await expect(p.getByRole("heading", { level: 1, name: "Settings, renamed" })).toBeVisible();
    await expect(p.getByRole("tab", { name: "Settings" })).toHaveCount(0);
    await phone.close();

    await page.reload();
    await expect(page.getByRole("list", { name: "Members" }).getByRole("listitem").filter({ hasText: invitee })).toBeVisible();
    await expect(page.getByRole("list", { name: "Pending invitations" })).toHaveCount(0);
  });

  await test.step("delete the workspace, typing its address to confirm (in any case), and the dashboard says it is done", async () => {
    await page.goto(`/app/buckets/${ws}?tab=settings`);
    await page.getByRole("button", { name: "Delete workspace…" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete “Settings, renamed”?" });
    await expect(dialog).toContainText("its 2 pages, with every earlier version");
    await expect(dialog).toContainText("its 1 table, with every row");
    await expect(dialog).toContainText("every share link to it");
    const go = dialog.getByRole("button", { name: "Delete for good" });
    await expect(go).toBeDisabled();
    await dialog.getByLabel(`Type ${ws} to confirm`).fill("not-it");
    await expect(go).toBeDisabled();
    findings.push(...(await checkScreen(page, "settings-delete-workspace")));
    // Capital letters don't matter, and the label says so.
    await expect(dialog.getByLabel(`Type ${ws} to confirm (capital letters don’t matter)`)).toBeVisible();
    await dialog.getByLabel(`Type ${ws} to confirm`).fill(ws.toUpperCase());
    await go.click();
    await expect(page).toHaveURL(/\/app\/?$/);
    // The dashboard says it is done, once.
    await expect(page.getByRole("status").filter({ hasText: "“Settings, renamed” is deleted, with everything in it." })).toBeVisible();
    await page.reload();
    await expect(page.getByText("is deleted, with everything in it.")).toHaveCount(0);
    await expect(page.getByRole("list", { name: "Workspaces" }).getByRole("link", { name: /Settings, renamed/ })).toHaveCount(0);
    expect((await page.request.get(`/api/trpc/workspaces.get?input=${encodeURIComponent(JSON.stringify({ slug: ws }))}`)).status()).toBe(404);
    expect((await page.request.get(`/a/${movedSlug}`, { maxRedirects: 0 })).status()).toBe(404);
    expect((await page.request.get(`/a/${pageSlug}`, { maxRedirects: 0 })).status()).toBe(404);
  });

  const serious = findings.filter(isSerious);
  expect(serious, describeFindings(serious)).toEqual([]);
});
