// Accessibility checks with axe-core (the npm package, injected into the page: the
// @axe-core/playwright wrapper needs Node 22). A screen is checked at desktop and phone
// width, in the light and the dark theme (prefers-color-scheme emulated), and kept as
// screenshots in e2e/artifacts/screens/. Serious and critical violations fail the test;
// every finding, of any impact, is written to e2e/artifacts/axe.json for the record.
import { appendFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Page } from "@playwright/test";
import { DESKTOP, PHONE, screensDir } from "./browser";
import { stack } from "./stack";

const require = createRequire(import.meta.url);
const AXE = require.resolve("axe-core/axe.min.js");

export interface AxeFinding {
  screen: string;
  width: "desktop" | "phone";
  theme: "light" | "dark";
  id: string;
  impact: string | null;
  help: string;
  targets: unknown[];
}

export const isSerious = (f: Pick<AxeFinding, "impact">) => f.impact === "serious" || f.impact === "critical";

const WIDTHS = [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const;
const THEMES = ["light", "dark"] as const;

/** Waits until the layout and any transition (a theme switch, a resize) have settled. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // Bounded: a paused or endless animation must not stop the check.
    const within = (p: Promise<unknown>) => Promise.race([p, new Promise((r) => setTimeout(r, 1500))]);
    await within(new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    await within(Promise.all(finite.map((a) => a.finished.catch(() => undefined))));
  });
}

/** axe-core's violations on the page as it is now (every impact). */
export async function axeViolations(page: Page): Promise<Omit<AxeFinding, "screen" | "width" | "theme">[]> {
  await settle(page);
  const loaded = await page.evaluate(() => "axe" in window);
  if (!loaded) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, options: object) => Promise<Result> } }).axe;
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target) }));
  });
}

/**
 * A screen that scrolls sideways at its width (a wide select, a long unbroken word) is a
 * finding like axe's, named after the elements that stick out past the viewport's edge.
 * Elements inside their own scrolling frame (a table, a code block) are not counted.
 */
export async function sidewaysScroll(page: Page): Promise<Omit<AxeFinding, "screen" | "width" | "theme">[]> {
  await settle(page);
  const over = await page.evaluate(() => {
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth <= width + 1) return null;
    const name = (el: Element) => el.tagName.toLowerCase() + (el.id ? `#${el.id}` : "") + [...el.classList].map((c) => `.${c}`).join("");
    const clipped = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o !== "visible") return true;
      }
      return false;
    };
    const out = [...document.body.querySelectorAll("*")].filter((el) => el.getBoundingClientRect().right > width + 1 && !clipped(el));
    // The innermost ones say most: drop an element when a child of it sticks out too.
    return out
      .filter((el) => !out.some((o) => o !== el && el.contains(o)))
      .slice(0, 6)
      .map(name);
  });
  if (!over) return [];
  return [{ id: "sideways-scroll", impact: "serious", help: "The screen scrolls sideways at this width", targets: over }];
}

/**
 * A picture of the whole page. Instead of a full-page capture, the viewport is made as tall
 * as the page for the moment: Chromium paints a cross-origin frame (the sandboxed page view)
 * only where the viewport is, and a sticky top bar stays at the top.
 */
export async function screenshotWhole(page: Page, file: string): Promise<void> {
  const size = page.viewportSize();
  if (!size) return void (await page.screenshot({ path: file, fullPage: true, animations: "disabled" }));
  await page.evaluate(() => window.scrollTo(0, 0));
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > size.height) {
    await page.setViewportSize({ width: size.width, height: Math.min(height, 10_000) });
    await settle(page);
  }
  await page.screenshot({ path: file, animations: "disabled" });
  if (height > size.height) await page.setViewportSize(size);
}

/** The screen at desktop and phone width as screens/<name>-desktop.png and -phone.png (whole pages). */
export async function keepWholeScreens(page: Page, name: string, ready?: () => Promise<void>): Promise<void> {
  mkdirSync(screensDir(), { recursive: true });
  const own = page.viewportSize();
  for (const [width, size] of WIDTHS) {
    await page.setViewportSize(size);
    await page.mouse.move(size.width - 1, size.height - 1);
    if (ready) await ready();
    await settle(page);
    await screenshotWhole(page, path.join(screensDir(), `${name}-${width}.png`));
  }
  if (own) await page.setViewportSize(own);
}

/**
 * Checks the screen now showing at both widths in both themes and keeps a screenshot of
 * each (screens/<name>-<width>[-dark].png). `ready` runs after each change of width or
 * theme, to wait for what the screen shows at that size. Returns every finding; the page
 * gets its own size and the light theme back.
 */
export async function checkScreen(page: Page, name: string, ready?: () => Promise<void>): Promise<AxeFinding[]> {
  mkdirSync(screensDir(), { recursive: true });
  const own = page.viewportSize();
  const found: AxeFinding[] = [];
  for (const [width, size] of WIDTHS) {
    await page.setViewportSize(size);
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await page.mouse.move(size.width - 1, size.height - 1);
      if (ready) await ready();
      for (const v of await axeViolations(page)) found.push({ screen: name, width, theme, ...v });
      if (theme === "light") for (const v of await sidewaysScroll(page)) found.push({ screen: name, width, theme, ...v });
      await screenshotWhole(page, path.join(screensDir(), `${name}-${width}${theme === "dark" ? "-dark" : ""}.png`));
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  if (own) await page.setViewportSize(own);
  appendFileSync(
    path.join(stack.artifactsDir, "axe.jsonl"),
    found.map((f) => `${JSON.stringify(f)}\n`).join("") || `${JSON.stringify({ screen: name, clean: true })}\n`,
  );
  return found;
}

/** One line per serious finding, for a failure message a person can act on. */
export function describeFindings(findings: AxeFinding[]): string {
  return findings.map((f) => `${f.screen} (${f.width}, ${f.theme}): ${f.impact} ${f.id} — ${f.help} at ${JSON.stringify(f.targets.slice(0, 4))}`).join("\n");
}
