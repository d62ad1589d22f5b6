// Webhooks in the workspace settings (issue 25 item 3), through nginx in Chromium at desktop
// and phone width: an owner adds an endpoint (a receiver inside this test, allowed on
// loopback by the e2e stack's WEBHOOK_ALLOW_PRIVATE_TARGETS), copies the secret shown once,
// sees a change delivered in the delivery log with its 200, sends it again (the same
// webhook-id arrives), rotates the secret and removes the endpoint. axe-core checks the
// screen in both themes at both widths; the screens are kept in e2e/artifacts/screens/.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { checkScreen, describeFindings, isSerious } from "../support/a11y";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { appApi } from "../support/app-api";
import { DESKTOP, PHONE, signInInBrowser } from "../support/browser";

test.use({ viewport: DESKTOP });

test("an owner adds a webhook, sees its deliveries, sends one again, rotates the secret and removes it", async ({ page }) => {
  test.setTimeout(180_000);
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      got.push({ headers: req.headers, body });
      res.end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/atelier`;
  const ws = uniqueSlug("hooks-ws");
  try {
    await signInInBrowser(page, uniqueEmail("hooks-owner"));
    const api = appApi(page);
    await api.mutation("workspaces.create", { slug: ws, name: "Webhooks trial" });
    await page.goto(`/app/buckets/${ws}?tab=settings`);
    const section = page.getByRole("region", { name: "Webhooks" });
    await expect(section.getByText("No webhooks yet.")).toBeVisible();

    await test.step("add an endpoint: the secret is shown once", async () => {
      const form = section.getByRole("form", { name: "New webhook" });
      await form.getByLabel("Endpoint URL").fill(hookUrl);
      await form.getByText(/^Events:/).click();
      await form.getByLabel("page.created").check();
      await form.getByRole("button", { name: "Add webhook" }).click();
      await expect(section.getByTestId("webhook-secret")).toHaveText(/^whsec_/);
      const hooks = section.getByRole("list", { name: "Webhooks" });
      await expect(hooks.getByRole("listitem").first()).toContainText(hookUrl);
      await expect(hooks.getByRole("listitem").first()).toContainText("Active");
      await expect(hooks.getByRole("listitem").first()).toContainText("page.created");
    });

    await test.step("a change is delivered and shows in the log with its 200; send again repeats its webhook-id", async () => {
      await api.mutation("pages.create", { workspace: ws, slug: uniqueSlug("hooked"), title: "Hooked", body_markdown: "text" });
      await expect.poll(() => got.length, { timeout: 30_000 }).toBe(1);
      expect(JSON.parse(got[0]?.body ?? "{}")).toMatchObject({ type: "page.created" });
      expect(got[0]?.body).not.toContain("Hooked");
      await section.getByRole("button", { name: "Deliveries" }).click();
      const log = section.getByRole("list", { name: `Deliveries to ${hookUrl}` });
      await expect(log.getByRole("listitem").first()).toContainText("Delivered · 200");
      await log.getByRole("button", { name: "Send again" }).first().click();
      await expect.poll(() => got.length, { timeout: 30_000 }).toBe(2);
      expect(got[1]?.headers["webhook-id"]).toBe(got[0]?.headers["webhook-id"]);
    });

    const findings = await checkScreen(page, "settings-webhooks", async () => expect(section.getByRole("heading", { name: "Webhooks" })).toBeVisible());

    await test.step("at phone width: rotate the secret (both sign for a day), then remove the endpoint", async () => {
      await page.setViewportSize(PHONE);
      const first = (await section.getByTestId("webhook-secret").textContent())?.trim();
      await section.getByRole("button", { name: "Rotate secret" }).click();
      await expect(section.getByTestId("webhook-secret")).not.toHaveText(first ?? "");
      await expect(section.getByRole("list", { name: "Webhooks" })).toContainText("the previous secret also signs until");
      await section.getByRole("button", { name: `Remove the webhook to ${hookUrl}` }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
      await expect(section.getByText("No webhooks yet.")).toBeVisible();
    });

    const serious = findings.filter(isSerious);
    expect(serious, describeFindings(serious)).toEqual([]);
  } finally {
    await new Promise<void>((r) => receiver.close(() => r()));
  }
});
