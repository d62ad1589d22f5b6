// Comments that people and agents both use (docs/comments.md): a person selects a passage in
// the page view and comments on it; an agent (the real MCP SDK client) reads the comment,
// rewords the passage and replies; the person sees the reply and the comment still attached
// to the reworded passage; a comment whose passage was deleted shows its quote, on an earlier
// version. The comment UI has no serious axe violation at desktop and phone width, light and dark.
import { expect, test } from "@playwright/test";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { checkScreen, describeFindings, isSerious } from "../support/a11y";
import { appApi } from "../support/app-api";
import { signInInBrowser } from "../support/browser";
import { callTool, mcpClient } from "../support/mcp";

interface Thread {
  comment_id: string;
  body: string;
  anchor: { kind: string; quote?: string; attached?: boolean; current_quote?: string | null };
  replies: { body: string }[];
}

test("a person comments on a passage, an agent rewords it and replies, the comment follows the passage", async ({ page }) => {
  test.setTimeout(240_000);
  const owner = uniqueEmail("commenter");
  const ws = uniqueSlug("comments-ws");
  const slug = uniqueSlug("launch-plan");
  let credential = "";

  await test.step("a page, and a token for the person's agent", async () => {
    await signInInBrowser(page, owner);
    const api = appApi(page);
    await api.mutation("workspaces.create", { slug: ws, name: "Launch" });
    await api.mutation("pages.create", {
      slug,
      title: "Launch plan",
      workspace: ws,
      body_markdown:
        "# Launch plan\n\nThe migration starts on the first Monday of March.\n\nEvery customer keeps their current plan until the end of the contract.\n\nSupport answers questions in a dedicated channel.\n",
    });
    credential = (await api.mutation<{ credential: string }>("tokens.create", { label: "Editor bot", scopes: ["mcp:read", "mcp:write"] })).credential;
  });

  await test.step("the person selects a passage and comments on it", async () => {
    await page.goto(`/app/buckets/${ws}/${slug}?comments=1`);
    const text = page.getByRole("document", { name: "The page's text, to comment on" });
    const passage = text.getByText("The migration starts on the first Monday of March.");
    await expect(passage).toBeVisible();
    await passage.selectText();
    await passage.dispatchEvent("mouseup");
    const panel = page.getByRole("complementary", { name: "Comments" });
    await panel.getByRole("combobox", { name: "Comment on this passage" }).fill("Is the first Monday a bank holiday? Say the date.");
    await panel.getByRole("button", { name: "Add comment" }).click();
    await expect(panel.getByRole("article", { name: /Comment on “The migration starts/ })).toBeVisible();
    // A second comment, on a passage the agent will delete.
    const doomed = text.getByText("Support answers questions in a dedicated channel.");
    await doomed.selectText();
    await doomed.dispatchEvent("mouseup");
    await panel.getByRole("combobox", { name: "Comment on this passage" }).fill("Which channel?");
    await panel.getByRole("button", { name: "Add comment" }).click();
    await expect(panel.getByRole("article", { name: /Comment on “Support answers/ })).toBeVisible();
  });

  await test.step("the agent reads the comment, rewords the passage, deletes the other, and replies", async () => {
    const agent = await mcpClient(credential);
    const listed = (await callTool(agent, "list_comments", { page: slug })) as { threads: Thread[] };
    const thread = listed.threads.find((t) => t.body.startsWith("Is the first Monday"));
    expect(thread?.anchor).toMatchObject({ kind: "quote", attached: true, quote: "The migration starts on the first Monday of March." });
    const got = (await callTool(agent, "get_page", { slug, comments: true })) as { page: { version: number }; comments: { open: number } };
    expect(got.comments.open).toBe(2);
    await callTool(agent, "edit_page", {
      slug,
      expected_version: got.page.version,
      edits: [
        { op: "replace", find: "The migration starts on the first Monday of March.", replace: "The migration starts on Monday 2 March." },
        { op: "replace", find: "Support answers questions in a dedicated channel.\n", replace: "" },
      ],
    });
    await callTool(agent, "add_comment", { reply_to: thread?.comment_id, body: "Done: it now says Monday 2 March (not a holiday)." });
    const after = (await callTool(agent, "list_comments", { page: slug })) as { threads: Thread[] };
    const followed = after.threads.find((t) => t.comment_id === thread?.comment_id);
    expect(followed?.anchor).toMatchObject({ attached: true, current_quote: "The migration starts on Monday 2 March." });
    expect(after.threads.find((t) => t.body === "Which channel?")?.anchor).toMatchObject({
      attached: false,
      quote: "Support answers questions in a dedicated channel.",
    });
    await agent.close();
  });

  await test.step("the person sees the reply, the comment on the reworded passage, and the orphan's quote", async () => {
    await page.reload();
    const panel = page.getByRole("complementary", { name: "Comments" });
    const thread = panel.getByRole("article", { name: /Comment on “The migration starts/ });
    await expect(thread.getByText("Done: it now says Monday 2 March")).toBeVisible();
    await expect(thread.getByText("The migration starts on Monday 2 March.")).toBeVisible();
    const orphan = panel.getByRole("article", { name: /Comment on “Support answers/ });
    await expect(orphan.getByText("Support answers questions in a dedicated channel.")).toBeVisible();
    await expect(orphan.getByText(/On an earlier version \(v1\)/)).toBeVisible();
  });

  await test.step("the person resolves the answered thread; it folds away, and the page list counts what is still open", async () => {
    const panel = page.getByRole("complementary", { name: "Comments" });
    await panel
      .getByRole("article", { name: /Comment on “The migration starts/ })
      .getByRole("button", { name: "Resolve" })
      .click();
    await expect(panel.getByText("1 resolved thread")).toBeVisible();
    await expect(panel.getByRole("list", { name: /Open comments/ }).getByRole("article")).toHaveCount(1);
    await page.goto(`/app/buckets/${ws}`);
    await expect(page.getByRole("list", { name: "Pages" }).getByText("1 open comment")).toBeVisible();
    await page.goto(`/app/buckets/${ws}/${slug}?comments=1`);
  });

  await test.step("the comment UI has no serious axe violation (desktop and phone, light and dark)", async () => {
    const findings = await checkScreen(page, "comments", async () => {
      await expect(page.getByRole("complementary", { name: "Comments" })).toBeVisible();
    });
    const serious = findings.filter(isSerious);
    expect(serious, describeFindings(serious)).toEqual([]);
  });
});
