// Journey 4, the owner's app as people use it (issue 7): the owner signs in with the code
// from the mail, makes a token for an agent, creates a workspace and a page, edits it with
// the live preview; an agent (the real MCP client through nginx) changes the same page while
// the editor holds unsaved text, and saving shows both texts and loses neither; the owner
// publishes and a signed-out visitor reads /a/{slug}; a collaborator invited by e-mail signs
// in on a phone and edits; the history shows the people and the agent by its name; the
// owner cuts the agent off and its next write is refused. Every main screen is kept at
// desktop and phone width in e2e/artifacts/screens/.
import { expect, test } from "@playwright/test";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { DESKTOP, keepScreens, PHONE, signInInBrowser } from "../support/browser";
import { editorText, typeAtEnd } from "../support/editor";
import { callTool, mcpClient, type ToolResult } from "../support/mcp";

test.use({ viewport: DESKTOP });

interface PageView {
  version: number;
  parts: { kind: string; body: string }[];
  updated_by: { kind: string; label: string };
}

test("the owner's app: workspace, page, live preview, agent conflict, publishing, a collaborator, history, cutting an agent off", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const tag = Math.random().toString(36).slice(2, 7);
  const owner = uniqueEmail("owner-app");
  const collaborator = uniqueEmail("collaborator");
  const wsName = `Field notes ${tag}`;
  const wsSlug = uniqueSlug("field-notes");
  const pageTitle = "Trail log";
  const pageSlug = uniqueSlug("trail-log");
  const agentLabel = `Trail agent ${tag}`;

  const dayOne = "## Day one\n\nThe **north ridge** is clear.";
  const personText = "Camp moved down to the lake.";
  const agentText = "Agent note: a storm is expected tonight.";
  const collaboratorText = "Day three: bridge repaired.";

  await test.step("1. sign in with the code from the mail", async () => {
    await signInInBrowser(page, owner);
    await expect(page.getByRole("list", { name: "Workspaces" })).toBeVisible();
  });

  let credential = "";
  await test.step("a token for the agent, made in the connected-agent settings", async () => {
    await page.getByRole("link", { name: "Connect an agent" }).click();
    await expect(page.getByRole("heading", { name: "Connected agents" })).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill(agentLabel);
    await page.getByRole("button", { name: "Create token" }).click();
    const shown = page.getByLabel("Token credential");
    await expect(shown).toContainText("service_mcp_");
    credential = ((await shown.textContent()) ?? "").trim();
    await page.getByRole("button", { name: /hide the credential/ }).click();
    await expect(page.getByRole("list", { name: "Your tokens" }).getByText(agentLabel)).toBeVisible();
    await keepScreens(page, "02-agent-settings");
  });

  await test.step("1. create a workspace and a page in it", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspaces" }).click();
    await page.getByRole("button", { name: /New workspace|Create your first workspace/ }).click();
    const form = page.getByRole("form", { name: "New workspace" });
    await form.getByLabel("Name").fill(wsName);
    await form.getByLabel("Address").fill(wsSlug);
    await form.getByRole("button", { name: "Create workspace" }).click();
    await expect(page).toHaveURL(new RegExp(`/app/buckets/${wsSlug}$`));
    await expect(page.getByRole("heading", { level: 1, name: wsName })).toBeVisible();
    await expect(page.getByText("No pages yet")).toBeVisible();

    // "New page" makes an untitled page in one click (new-page.spec.ts); this one is made
    // with its address chosen up front.
    await page.getByRole("button", { name: "Choose address and format…" }).click();
    const dialog = page.getByRole("dialog", { name: "New page" });
    await dialog.getByLabel("Title").fill(pageTitle);
    await dialog.getByLabel("Address").fill(pageSlug);
    await dialog.getByRole("button", { name: "Create and edit" }).click();
    await expect(page).toHaveURL(new RegExp(`/app/buckets/${wsSlug}/${pageSlug}\\?edit=1$`));
  });

  const editor = page.getByRole("form", { name: `Edit ${pageTitle}` });
  const body = editor.getByLabel("Markdown", { exact: true });
  const preview = editor.getByRole("document", { name: "Preview" });
  const status = editor.getByRole("status").first();

  await test.step("2. edit the page and watch the live preview follow", async () => {
    await expect(preview.getByText("Nothing written yet.")).toBeVisible();
    await body.fill(`${dayOne} Water at the spring.`);
    await expect(preview.getByRole("heading", { name: "Day one" })).toBeVisible();
    await expect(preview.locator("strong", { hasText: "north ridge" })).toBeVisible();
    await expect(preview.getByText("Water at the spring.")).toBeVisible();
    // A pause in typing saves it.
    await expect(status).toHaveText("Saved as version 2");
    await keepScreens(page, "04-editor");
  });

  const agent = await mcpClient(credential);
  await test.step("3. an agent changes the page while the editor holds unsaved text; saving shows both, nothing is lost", async () => {
    const changed = (await callTool(agent, "update_page", {
      slug: pageSlug,
      body_markdown: `${dayOne} Water at the spring.\n\n${agentText}`,
      expected_version: 2,
    })) as { page: PageView };
    expect(changed.page.version).toBe(3);
    expect(changed.page.updated_by).toMatchObject({ kind: "agent", label: agentLabel });

    // The editor still builds on version 2; its autosave finds version 3 in the way, and
    // the two texts change the same line, so both are shown.
    await body.fill(`${dayOne} Water at the spring.\n\n${personText}`);
    const conflict = page.getByRole("region", { name: "This page changed while you were editing" });
    await expect(conflict).toBeVisible();
    await expect(conflict.getByText(agentLabel).first()).toBeVisible();
    await expect(conflict.getByLabel("Your text", { exact: true })).toContainText(personText);
    await expect(conflict.getByLabel("Text of version 3", { exact: true })).toContainText(agentText);
    await expect(status).toHaveText("Not saved: this page changed meanwhile");
    await keepScreens(page, "05-conflict");

    await conflict.getByRole("button", { name: "Keep mine (save over version 3)" }).click();
    await expect(conflict).toBeHidden();
    await expect(status).toHaveText("Saved as version 4");
    // The person's text is the new version; the agent's is version 3 in the history.
    const now = (await callTool(agent, "get_page", { slug: pageSlug })) as { page: PageView };
    expect(now.page.version).toBe(4);
    expect(now.page.parts[0]?.body).toContain(personText);
    const history = (await callTool(agent, "get_page_history", { slug: pageSlug })) as {
      versions: { version: number; actor: { kind: string; label: string } }[];
    };
    expect(history.versions.map((v) => v.version)).toEqual([4, 3, 2, 1]);
    expect(history.versions.find((v) => v.version === 3)?.actor).toMatchObject({ kind: "agent", label: agentLabel });

    // And in the app: the history lists the agent's version, and it opens with its text.
    await page.getByRole("button", { name: "History", exact: true }).click();
    const versions = page.getByRole("list", { name: "Versions, newest first" });
    const v3 = versions.getByRole("listitem").filter({ has: page.getByText("v3", { exact: true }) });
    await expect(v3).toContainText(agentLabel);
    await v3.getByRole("button", { name: "View version 3" }).click();
    const revision = page.getByRole("dialog", { name: /Version 3/ });
    await expect(revision.getByText(agentText)).toBeVisible();
    await revision.getByRole("button", { name: "Close" }).click();
    await expect(revision).toBeHidden();
    await page.getByRole("button", { name: "Close history" }).click();
    await editor.getByRole("button", { name: "Done" }).click();
    await expect(editor).toBeHidden();
    const artifact = page.frameLocator(`iframe[title="${pageTitle} (the published page)"]`);
    await expect(artifact.getByText(personText)).toBeVisible();
    await keepScreens(page, "06-page");
  });

  await test.step("4. publish the workspace; a signed-out visitor reads /a/{slug}", async () => {
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: wsName }).click();
    await expect(page.getByRole("list", { name: "Pages" }).getByRole("link", { name: new RegExp(pageTitle) })).toBeVisible();
    await keepScreens(page, "03-workspace");
    await page.getByRole("tab", { name: "Sharing" }).click();
    await page.getByRole("button", { name: "Make public…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Make public", exact: true }).click();
    await expect(page.getByText("Public: anyone with the link").first()).toBeVisible();
    await keepScreens(page, "07-sharing");

    const visitor = await browser.newContext({ viewport: PHONE });
    const v = await visitor.newPage();
    const res = await v.goto(`/a/${pageSlug}`);
    expect(res?.status()).toBe(200);
    await expect(v.getByRole("heading", { name: "Day one" })).toBeVisible();
    await expect(v.getByText(personText)).toBeVisible();
    await keepScreens(v, "08-visitor-reads-page");
    // The workspace itself reads signed out too, without anything to change it with.
    await v.goto(`/app/buckets/${wsSlug}`);
    await expect(v.getByRole("heading", { level: 1, name: wsName })).toBeVisible();
    await expect(v.getByRole("note")).toContainText("You’re reading a public workspace.");
    await expect(v.getByRole("list", { name: "Pages" }).getByRole("link", { name: new RegExp(pageTitle) })).toBeVisible();
    await expect(v.getByRole("button", { name: "New page" })).toHaveCount(0);
    expect((await visitor.cookies()).length).toBe(0);
    await visitor.close();
  });

  await test.step("5. invite a collaborator by e-mail; on a phone, they sign in with their code, find the workspace and edit the page", async () => {
    await page.getByRole("tab", { name: "People" }).click();
    const invite = page.getByRole("form", { name: "Add a person" });
    await invite.getByLabel("Add a person by e-mail").fill(collaborator);
    await invite.getByLabel("Role").selectOption("editor");
    await invite.getByRole("button", { name: "Add", exact: true }).click();
    await expect(invite.getByRole("status")).toHaveText(
      `We e-mailed ${collaborator} an invitation. They can read and edit this workspace once they sign in with that address.`,
    );
    await expect(page.getByRole("list", { name: "Pending invitations" }).getByRole("listitem").filter({ hasText: collaborator })).toContainText("Pending");
    await keepScreens(page, "09-people");

    const phone = await browser.newContext({ viewport: PHONE, hasTouch: true });
    const c = await phone.newPage();
    await signInInBrowser(c, collaborator);
    await c
      .getByRole("list", { name: "Workspaces" })
      .getByRole("link", { name: new RegExp(wsName) })
      .click();
    await expect(c.getByRole("heading", { level: 1, name: wsName })).toBeVisible();
    await c
      .getByRole("list", { name: "Pages" })
      .getByRole("link", { name: new RegExp(pageTitle) })
      .click();
    await c.getByRole("button", { name: "Edit" }).click();
    const theirEditor = c.getByRole("form", { name: `Edit ${pageTitle}` });
    const theirBody = theirEditor.getByLabel("Markdown", { exact: true });
    await expect(theirBody).toContainText(personText);
    await typeAtEnd(theirBody, `\n\n${collaboratorText}`);
    expect(await editorText(theirBody)).toContain(collaboratorText);
    await theirEditor.getByRole("button", { name: "Preview" }).click();
    await expect(theirEditor.getByRole("document", { name: "Preview" }).getByText(collaboratorText)).toBeVisible();
    await expect(theirEditor.getByRole("status").first()).toHaveText("Saved as version 5");
    await phone.close();
  });

  await test.step("6. the history shows the people and the agent, by its name", async () => {
    await page.goto(`/app/buckets/${wsSlug}/${pageSlug}`);
    await page.getByRole("button", { name: "History", exact: true }).click();
    const versions = page.getByRole("list", { name: "Versions, newest first" });
    await expect(versions.getByRole("listitem")).toHaveCount(5);
    const item = (v: number) => versions.getByRole("listitem").filter({ has: page.getByText(`v${v}`, { exact: true }) });
    await expect(item(5)).toContainText(collaborator);
    await expect(item(4)).toContainText("You");
    await expect(item(3)).toContainText(agentLabel);
    await expect(item(3).locator(".chip--agent")).toHaveText(/agent/);
    await expect(item(4).locator(".chip--agent")).toHaveCount(0);
    await keepScreens(page, "10-history");

    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: wsName }).click();
    await page.getByRole("tab", { name: "Activity" }).click();
    const activity = page.getByRole("tabpanel");
    await expect(activity.locator(".activity-item--agent").filter({ hasText: agentLabel }).first()).toContainText("edited");
    await expect(activity.locator(".activity-item--user").filter({ hasText: collaborator }).first()).toContainText("edited");
    await keepScreens(page, "11-activity");
  });

  await test.step("7. the owner cuts the agent off the workspace; its next write through MCP is refused", async () => {
    await page.getByRole("tab", { name: "Agents" }).click();
    const row = page.getByRole("list", { name: "Agents" }).getByRole("listitem").filter({ hasText: agentLabel });
    await expect(row).toContainText(`for ${owner}`);
    await row.getByRole("button", { name: `Cut ${agentLabel} off this workspace` }).click();
    await page
      .getByRole("dialog", { name: `Cut ${agentLabel} off?` })
      .getByRole("button", { name: "Cut off", exact: true })
      .click();
    await expect(row.getByText("Cut off here")).toBeVisible();
    await expect(row.getByRole("button", { name: `Restore access for ${agentLabel}` })).toBeVisible();
    await keepScreens(page, "12-agents");

    const refused = (await agent.callTool({
      name: "update_page",
      arguments: { slug: pageSlug, body_markdown: "Overwritten after being cut off." },
    })) as ToolResult;
    expect(refused.isError).toBe(true);
    const error = JSON.parse(refused.content?.[0]?.text ?? "{}") as { error?: string; message?: string };
    expect(error.error, error.message).toBe("forbidden");
    // Nothing changed, and the token still works where it was not cut off.
    await expect(page.getByRole("list", { name: "Agents" })).toBeVisible();
    const who = await callTool(agent, "whoami", {});
    expect(JSON.stringify(who)).toContain(agentLabel);
    await agent.close();
  });

  await test.step("the page is still the collaborator's version 5", async () => {
    await page.goto(`/app/buckets/${wsSlug}/${pageSlug}`);
    await expect(page.getByText("Version 5")).toBeVisible();
    await expect(page.frameLocator(`iframe[title="${pageTitle} (the published page)"]`).getByText(collaboratorText)).toBeVisible();
    // The dashboard, with the new workspace beside the default one.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspaces" }).click();
    const tile = page.getByRole("list", { name: "Workspaces" }).getByRole("link", { name: new RegExp(wsName) });
    await expect(tile).toContainText("Public");
    await expect(tile).toContainText("1 page");
    await keepScreens(page, "01-dashboard");
  });
});
