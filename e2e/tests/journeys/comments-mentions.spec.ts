// Comments, the rest of issue 28: a person mentions a colleague through the "@" completion
// (keyboard only: a combobox with a listbox of members and agents), edits their own comment
// (Edit, the text area, Save), comments on a table row from the grid (its marker then counts
// the open thread, and the row's threads open in the same side panel), and the dashboard's
// workspace card counts the open threads. The new UI has no serious axe violation at desktop
// and phone width, light and dark.
import { expect, test } from "@playwright/test";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { checkScreen, describeFindings, isSerious } from "../support/a11y";
import { appApi } from "../support/app-api";
import { signInInBrowser } from "../support/browser";

test("mention with completion, edit one's own comment, comment on a table row, counts on the dashboard", async ({ page }) => {
  test.setTimeout(240_000);
  const owner = uniqueEmail("mentioner");
  const colleague = uniqueEmail("colleague");
  const handle = colleague.split("@")[0] ?? "";
  const ws = uniqueSlug("mentions-ws");
  const slug = uniqueSlug("brief");
  const table = uniqueSlug("tasks");

  await test.step("a workspace with a colleague, a page and a table", async () => {
    await signInInBrowser(page, owner);
    const api = appApi(page);
    await api.mutation("workspaces.create", { slug: ws, name: "Mentions" });
    await api.mutation("workspaces.members.add", { slug: ws, email: colleague, role: "editor" });
    await api.mutation("pages.create", { slug, title: "Brief", workspace: ws, body_markdown: "# Brief\n\nShip it on Friday.\n" });
    await api.mutation("collections.create", { workspace: ws, slug: table, name: "Tasks", kind: "table", columns: [{ name: "title", type: "text" }] });
    await api.mutation("rows.insert", { workspace: ws, collection: table, rows: [{ title: "Write the changelog" }] });
  });

  await test.step("the person mentions the colleague with the keyboard through the completion", async () => {
    await page.goto(`/app/buckets/${ws}/${slug}?comments=1`);
    const panel = page.getByRole("complementary", { name: "Comments" });
    const box = panel.getByRole("combobox", { name: "Comment on the page" });
    await box.click();
    await box.pressSequentially(`Can you check this, @${handle.slice(0, 6)}`);
    const list = panel.getByRole("listbox", { name: "People and agents to mention" });
    await expect(list.getByRole("option", { name: new RegExp(`@${handle}`) })).toBeVisible();
    await expect(box).toHaveAttribute("aria-expanded", "true");
    await box.press("Enter");
    await expect(box).toHaveValue(`Can you check this, @${handle} `);
    await expect(list).toBeHidden();
    await box.pressSequentially("before Friday?");
    await panel.getByRole("button", { name: "Comment on the page" }).click();
    await expect(panel.getByRole("article", { name: "Comment on the page" }).getByText(`@${handle} before Friday?`)).toBeVisible();
  });

  await test.step("the person edits their comment: Edit, change the text, Save", async () => {
    const panel = page.getByRole("complementary", { name: "Comments" });
    const thread = panel.getByRole("article", { name: "Comment on the page" });
    await thread.getByRole("button", { name: "Edit" }).click();
    const edit = thread.getByRole("combobox", { name: "Edit your comment" });
    await expect(edit).toBeFocused();
    // Escape cancels and gives the focus back to Edit.
    await edit.press("Escape");
    await expect(thread.getByRole("button", { name: "Edit" })).toBeFocused();
    await thread.getByRole("button", { name: "Edit" }).press("Enter");
    await thread.getByRole("combobox", { name: "Edit your comment" }).fill(`@${handle} can you check this before Thursday?`);
    await thread.getByRole("button", { name: "Save" }).click();
    await expect(thread.getByText(`@${handle} can you check this before Thursday?`)).toBeVisible();
    await expect(thread.getByText("(edited)")).toBeVisible();
  });

  await test.step("axe: the completion and the edit form", async () => {
    const findings = await checkScreen(page, "comments-mentions", async () => {
      const panel = page.getByRole("complementary", { name: "Comments" });
      const box = panel.getByRole("combobox", { name: "Comment on the page" });
      await box.fill("");
      await box.pressSequentially("@");
      await expect(panel.getByRole("listbox", { name: "People and agents to mention" })).toBeVisible();
    });
    const serious = findings.filter(isSerious);
    expect(serious, describeFindings(serious)).toEqual([]);
  });

  await test.step("the person comments on a table row from the grid; the row's marker counts it", async () => {
    await page.goto(`/app/buckets/${ws}/tables/${table}`);
    await page.getByRole("button", { name: "Comments on “Write the changelog”" }).click();
    const panel = page.getByRole("complementary", { name: "Comments on “Write the changelog”" });
    await panel.getByRole("combobox", { name: "Comment on this row" }).fill("Include the migration notes.");
    await panel.getByRole("button", { name: "Comment on the row" }).click();
    await expect(panel.getByRole("article", { name: "Comment on the row" }).getByText("Include the migration notes.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Comments on “Write the changelog”: 1 open" })).toBeVisible();
    const findings = await checkScreen(page, "row-comments", async () => {
      await expect(panel).toBeVisible();
    });
    const serious = findings.filter(isSerious);
    expect(serious, describeFindings(serious)).toEqual([]);
    await panel.getByRole("button", { name: "Close comments" }).click();
    await expect(panel).toBeHidden();
    await expect(page.getByRole("button", { name: "Comments on “Write the changelog”: 1 open" })).toBeFocused();
  });

  await test.step("the dashboard's workspace card counts the open threads", async () => {
    await page.goto("/app/");
    await expect(page.getByRole("list", { name: "Workspaces" }).getByRole("link", { name: /Mentions/ })).toContainText("2 open comments");
  });
});
