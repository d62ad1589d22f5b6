// Browser steps several journeys share, written the way a person uses the app.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { waitForCode } from "./mail";
import { stack } from "./stack";

/** The two widths every main screen is looked at. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 812 };

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

export const screensDir = () => path.join(stack.artifactsDir, "screens");

/**
 * Saves the screen as it is now at desktop and at phone width, as
 * e2e/artifacts/screens/<name>-desktop.png and <name>-phone.png, then gives the page its
 * own size back. The state on screen (an open editor, a dialog) is kept: only the width
 * changes.
 */
export async function keepScreens(page: Page, name: string): Promise<void> {
  mkdirSync(screensDir(), { recursive: true });
  const own = page.viewportSize();
  for (const [width, size] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    await page.setViewportSize(size);
    // The pointer rests in a corner, so no hover style shows where it last clicked.
    await page.mouse.move(size.width - 1, size.height - 1);
    // Let the layout settle (media queries, lazy images) before the picture.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: path.join(screensDir(), `${name}-${width}.png`), fullPage: true, animations: "disabled" });
  }
  if (own) await page.setViewportSize(own);
}
