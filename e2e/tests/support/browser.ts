// Browser steps several journeys share, written the way a person uses the app.
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { waitForCode } from "./mail";
import { stack } from "./stack";

/** Signs in on the app's sign-in screen with the code from the captured mail. */
export async function signInInBrowser(page: Page, email: string): Promise<void> {
  await page.goto("/app/");
  await page.getByLabel("E-mail address").fill(email);
  const since = Date.now();
  await page.getByRole("button", { name: "Send me a code" }).click();
  const code = await waitForCode(email, since);
  // Six digits sign in by themselves; the button is there for people who press it anyway.
  await page.getByLabel("Six-digit code").fill(code);
  await expect(page.getByRole("link", { name: "Connect an agent" })).toBeVisible();
}

/** Keeps the journey's last screen in e2e/artifacts/. */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(stack.artifactsDir, `${name}.png`), fullPage: true });
}
