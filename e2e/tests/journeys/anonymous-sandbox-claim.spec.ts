// Journey 2: an agent registers anonymously through nginx, writes in its sandbox, starts the
// claim with a person's e-mail; the person's code comes by mail and the agent completes the
// claim; the person signs in and finds the sandbox among their workspaces.
import { expect, test } from "@playwright/test";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { keepScreenshot, signInInBrowser } from "../support/browser";
import { waitForCode } from "../support/mail";
import { callTool, mcpClient } from "../support/mcp";
import { stack } from "../support/stack";

interface Registration {
  registration_id: string;
  credential: string;
  status: string;
  sandbox_bucket: { id: string; slug: string };
}

const postJson = (path: string, body: unknown) =>
  fetch(`${stack.baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

test("an anonymous agent's sandbox is claimed by e-mail code and shows on the person's dashboard", async ({ page }) => {
  const person = uniqueEmail("claimer");
  const slug = uniqueSlug("sandbox-draft");

  const res = await postJson("/agent/auth", { type: "anonymous", requested_credential_type: "mcp_write_token", agent_label: "e2e research agent" });
  expect(res.status).toBe(201);
  const reg = (await res.json()) as Registration;
  expect(reg.status).toBe("unclaimed");
  expect(reg.sandbox_bucket.slug).toMatch(/^anonymous-sandbox-/);

  await test.step("the agent writes in its sandbox", async () => {
    const agent = await mcpClient(reg.credential);
    const created = (await callTool(agent, "create_page", { slug, title: "Sandbox draft", body_markdown: "Drafted before anyone claimed me." })) as {
      page: { workspace: string };
    };
    expect(created.page.workspace).toBe(reg.sandbox_bucket.slug);
    await agent.close();
  });

  await test.step("the agent starts the claim, the person's code arrives by mail, the agent completes it", async () => {
    const since = Date.now();
    const start = await postJson("/agent/auth/claim", { claim_token: reg.registration_id, email: person });
    expect(start.status).toBe(200);
    expect(((await start.json()) as { status: string }).status).toBe("otp_sent");
    const otp = await waitForCode(person, since);
    const done = await postJson("/agent/auth/claim", { claim_token: reg.registration_id, otp });
    expect(done.status).toBe(200);
    const body = (await done.json()) as { status: string; account: { email: string }; sandbox_bucket: { slug: string } };
    expect(body.status).toBe("claimed");
    expect(body.account.email).toBe(person);
    expect(body.sandbox_bucket.slug).toBe(reg.sandbox_bucket.slug);
  });

  await test.step("the same token keeps working after the claim", async () => {
    const agent = await mcpClient(reg.credential);
    const got = (await callTool(agent, "get_page", { slug })) as { page: { title: string } };
    expect(got.page.title).toBe("Sandbox draft");
    await agent.close();
  });

  await test.step("the person signs in and finds the sandbox among their workspaces", async () => {
    await signInInBrowser(page, person);
    const tiles = page.getByRole("list", { name: "Workspaces" });
    await expect(tiles.getByText(reg.sandbox_bucket.slug)).toBeVisible();
    await tiles.getByText(reg.sandbox_bucket.slug).click();
    await expect(page.getByText("Sandbox draft").first()).toBeVisible();
    await keepScreenshot(page, "journey-2-claimed-sandbox");
  });
});
