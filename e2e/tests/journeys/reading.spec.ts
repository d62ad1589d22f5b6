// The reading test (issue 27, "Done when"): a corpus of nasty Markdown (long words and URLs,
// a wide table, long code, task lists, a leading "# Title", HTML entities, right-to-left
// text, nested lists, an image without a size) and a live table, published, read by a
// visitor through nginx in Chromium at 1280×800 and 375×812 in the light and the dark
// theme: no sideways page scroll, one visible title, code and tables that take the keyboard
// and scroll inside themselves, and axe with no serious or critical violation. Also: readers
// sort and filter the live table (and read it whole without JavaScript), the not-found page
// signs in and comes back, /docs/connect/agents passes axe in both themes, the app's page
// view prints the title once, and the SPA's code comes compressed without public source maps.
import { type Browser, expect, type Page, test } from "@playwright/test";
import { type AxeFinding, checkScreen, describeFindings, isSerious } from "../support/a11y";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { appApi } from "../support/app-api";
import { DESKTOP, PHONE, signInInBrowser } from "../support/browser";
import { waitForCode } from "../support/mail";
import { CORPUS_MARKDOWN, CORPUS_TABLE_COLUMNS, CORPUS_TABLE_ROWS, CORPUS_TITLE } from "../support/reading-corpus";
import { stack } from "../support/stack";

test.use({ viewport: DESKTOP });

/** What a reader's screen shows, measured in the page. */
async function measure(page: Page) {
  return page.evaluate(() => {
    const visible = (el: Element) => (el as HTMLElement).checkVisibility?.() ?? (el as HTMLElement).offsetParent !== null;
    const scrollers = [...document.querySelectorAll("pre, .atelier-scroll")] as HTMLElement[];
    return {
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      titles: [...document.querySelectorAll("h1")].filter(visible).map((h) => h.textContent?.trim() ?? ""),
      scrollers: scrollers.map((el) => ({
        tag: el.tagName.toLowerCase(),
        tabIndex: el.tabIndex,
        name: el.getAttribute("aria-label") ?? "",
        scrolls: el.scrollWidth > el.clientWidth + 1,
        hint: getComputedStyle(el).backgroundImage.includes("radial-gradient"),
      })),
    };
  });
}

/** A page as a visitor sees it: a context of its own, without the owner's cookies. */
async function visitor(browser: Browser) {
  const context = await browser.newContext({ viewport: DESKTOP, baseURL: stack.baseUrl });
  return { context, page: await context.newPage() };
}

test("the published page reads well for everyone: no sideways scroll, one title, code and tables in their own frames, axe clean", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const owner = uniqueEmail("reader");
  const ws = uniqueSlug("reading-room");
  const slug = uniqueSlug("field-notes");
  const hidden = uniqueSlug("members-only");
  const privateWs = uniqueSlug("private-room");

  await test.step("the corpus and a live table, published; a private page beside them (through the API)", async () => {
    await signInInBrowser(page, owner);
    const api = appApi(page);
    await api.mutation("workspaces.create", { slug: ws, name: "Reading room" });
    await api.mutation("collections.create", { workspace: ws, slug: "counts", name: "Migration counts", kind: "table", columns: CORPUS_TABLE_COLUMNS });
    await api.mutation("rows.insert", { workspace: ws, collection: "counts", rows: CORPUS_TABLE_ROWS });
    await api.mutation("pages.create", {
      workspace: ws,
      slug,
      title: CORPUS_TITLE,
      summary: "What we saw between September and October, and what is left to do.",
      body_markdown: CORPUS_MARKDOWN,
      tables: [{ collection: "counts" }],
    });
    await api.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" });
    await api.mutation("workspaces.create", { slug: privateWs, name: "Private room" });
    await api.mutation("pages.create", { workspace: privateWs, slug: hidden, title: "Members only", body_markdown: "# Members only\n\nFor the team." });
  });

  const reader = await visitor(browser);
  const findings: AxeFinding[] = [];
  try {
    await test.step("at both widths and in both themes: no sideways scroll, one title, frames that scroll with a hint; axe clean", async () => {
      await reader.page.goto(`/a/${slug}`);
      await expect(reader.page.getByRole("heading", { level: 1 })).toHaveText("Field Notes — the Autumn Migration");
      const seen: { width: number; overflow: number; titles: string[] }[] = [];
      findings.push(
        ...(await checkScreen(reader.page, "reading-published", async () => {
          const m = await measure(reader.page);
          seen.push({ width: reader.page.viewportSize()?.width ?? 0, overflow: m.overflow, titles: m.titles });
          for (const s of m.scrollers) {
            expect(s.tabIndex, `${s.tag} takes the keyboard`).toBe(0);
            expect(s.name, `${s.tag} has a name`).not.toBe("");
            expect(s.hint, `${s.tag} shows where it scrolls`).toBe(true);
          }
          // The long code scrolls inside itself at every width; on a phone the tables do too.
          expect(m.scrollers.filter((s) => s.tag === "pre" && s.scrolls).length).toBeGreaterThan(0);
          if ((reader.page.viewportSize()?.width ?? 0) < 400) expect(m.scrollers.filter((s) => s.tag === "div" && s.scrolls)).toHaveLength(2);
        })),
      );
      expect(seen).toHaveLength(4);
      for (const s of seen) {
        expect(s.overflow, `the page scrolls sideways at ${s.width}`).toBeLessThanOrEqual(0);
        expect(s.titles, `one title at ${s.width}`).toEqual(["Field Notes — the Autumn Migration"]);
      }
    });

    await test.step("a code block scrolls with the keyboard; the task boxes are named and have no bullet", async () => {
      await reader.page.setViewportSize(PHONE);
      const code = reader.page.getByRole("group", { name: "Code" }).first();
      await code.focus();
      await expect(code).toBeFocused();
      await reader.page.keyboard.press("End");
      await reader.page.keyboard.press("ArrowRight");
      await expect.poll(() => code.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
      const box = reader.page.getByRole("checkbox", { name: "Count the geese at the lake" });
      await expect(box).toBeChecked();
      await expect(reader.page.getByRole("checkbox", { name: "Nested task under the cranes" })).not.toBeChecked();
      expect(
        await reader.page
          .locator(".task-list-item")
          .first()
          .evaluate((el) => getComputedStyle(el).listStyleType),
      ).toBe("none");
      // The header row stays in sight while a table scrolls in its frame.
      expect(
        await reader.page
          .locator(".atelier-scroll th")
          .first()
          .evaluate((el) => getComputedStyle(el).position),
      ).toBe("sticky");
      await reader.page.setViewportSize(DESKTOP);
    });

    await test.step("readers sort the live table by any column and filter it by a word", async () => {
      const table = reader.page.getByRole("group", { name: "Migration counts" }).getByRole("table");
      const firstCell = (col: number) => table.locator("tbody tr:not([hidden])").first().locator("td").nth(col);
      const count = table.getByRole("columnheader", { name: "count" });
      await count.getByRole("button").click();
      await expect(count).toHaveAttribute("aria-sort", "ascending");
      await expect(firstCell(1)).toHaveText("2");
      await count.getByRole("button").click();
      await expect(count).toHaveAttribute("aria-sort", "descending");
      await expect(firstCell(1)).toHaveText("1,250");
      const date = table.getByRole("columnheader", { name: "first seen" });
      await date.getByRole("button").click();
      await expect(date).toHaveAttribute("aria-sort", "ascending");
      await expect(count).not.toHaveAttribute("aria-sort", /./);
      await expect(firstCell(2)).toHaveText("20 Aug 2026");
      const filter = reader.page.getByRole("searchbox", { name: "Filter Migration counts" });
      await filter.fill("goose");
      await expect(table.locator("tbody tr:not([hidden])")).toHaveCount(4);
      await expect(reader.page.getByRole("status")).toHaveText("4 of 7 rows");
      await filter.fill("");
      await expect(table.locator("tbody tr:not([hidden])")).toHaveCount(7);
    });

    await test.step("without JavaScript the live table is whole and readable, and nothing offers to sort it", async () => {
      const context = await browser.newContext({ viewport: PHONE, baseURL: stack.baseUrl, javaScriptEnabled: false });
      try {
        const still = await context.newPage();
        await still.goto(`/a/${slug}`);
        const table = still.getByRole("group", { name: "Migration counts" }).getByRole("table");
        await expect(table.locator("tbody tr")).toHaveCount(CORPUS_TABLE_ROWS.length);
        await expect(table.getByRole("button")).toHaveCount(0);
        await expect(still.getByRole("searchbox")).toHaveCount(0);
        expect((await measure(still)).overflow).toBeLessThanOrEqual(0);
      } finally {
        await context.close();
      }
    });

    await test.step("printed, nothing is cut off: code wraps and frames let go", async () => {
      await reader.page.emulateMedia({ media: "print" });
      const pre = reader.page.locator("pre").first();
      expect(await pre.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe("pre-wrap");
      expect(
        await reader.page
          .locator(".atelier-scroll")
          .first()
          .evaluate((el) => getComputedStyle(el).overflowX),
      ).toBe("visible");
      expect(await reader.page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(255, 254, 251)");
      await reader.page.emulateMedia({ media: "screen" });
    });

    await test.step("a private page's address shows the branded not-found page; its sign-in comes back to the page", async () => {
      await reader.page.goto(`/a/${hidden}`);
      await expect(reader.page.getByRole("heading", { level: 1, name: "This page isn’t here" })).toBeVisible();
      findings.push(...(await checkScreen(reader.page, "reading-not-found", async () => expect((await measure(reader.page)).overflow).toBeLessThanOrEqual(0))));
      await reader.page.emulateMedia({ colorScheme: "dark" });
      expect(await reader.page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(20, 21, 24)");
      await reader.page.emulateMedia({ colorScheme: "light" });
      await reader.page.getByRole("link", { name: "Sign in" }).click();
      await expect(reader.page).toHaveURL(`${stack.baseUrl}/app/sign-in?next=${encodeURIComponent(`/a/${hidden}`)}`);
      await reader.page.getByLabel("E-mail address").fill(owner);
      const since = Date.now();
      await reader.page.getByRole("button", { name: "Send me a code" }).click();
      await reader.page.getByLabel("Six-digit code").fill(await waitForCode(owner, since));
      await expect(reader.page).toHaveURL(`${stack.baseUrl}/a/${hidden}`);
      await expect(reader.page.getByRole("heading", { level: 1, name: "Members only" })).toBeVisible();
      await expect(reader.page.getByText("For the team.")).toBeVisible();
      // Signed in already, the sign-in address goes straight back; another origin never.
      await reader.page.goto(`/app/sign-in?next=${encodeURIComponent(`/a/${hidden}`)}`);
      await expect(reader.page).toHaveURL(`${stack.baseUrl}/a/${hidden}`);
      await reader.page.goto(`/app/sign-in?next=${encodeURIComponent("//evil.example/a/x")}`);
      await expect(reader.page).toHaveURL(new RegExp(`^${stack.baseUrl}/app/?$`));
    });
  } finally {
    await reader.context.close();
  }

  await test.step("/docs/connect/agents: axe clean and no sideways scroll in both themes", async () => {
    await page.goto("/docs/connect/agents");
    await expect(page.getByRole("heading", { level: 1, name: "Connect an agent" })).toBeVisible();
    findings.push(
      ...(await checkScreen(page, "reading-connect-guide", async () => {
        const m = await measure(page);
        expect(m.overflow).toBeLessThanOrEqual(0);
        for (const s of m.scrollers) expect(s.tabIndex).toBe(0);
      })),
    );
  });

  await test.step("the app's page view prints the title once", async () => {
    await page.goto(`/app/buckets/${ws}/${slug}`);
    await expect(page.getByRole("heading", { level: 1, name: CORPUS_TITLE })).toBeVisible();
    const frame = page.frameLocator(`iframe[title="${CORPUS_TITLE} (the published page)"]`);
    await expect(frame.getByRole("table").first()).toBeVisible();
    await expect(frame.getByRole("heading", { level: 1 })).toHaveCount(0);
    expect(await page.getByRole("heading", { level: 1 }).count()).toBe(1);
  });

  expect(findings.filter(isSerious), describeFindings(findings.filter(isSerious))).toEqual([]);
});

test("the SPA's code comes compressed through nginx, and no source map is public", async ({ request }) => {
  const index = await (await request.get("/app/")).text();
  const scripts = [...index.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1] ?? "");
  expect(scripts.length).toBeGreaterThanOrEqual(2);
  let compressed = 0;
  for (const asset of scripts) {
    const body = await (await request.get(asset)).text();
    expect(body).not.toContain("sourceMappingURL");
    expect((await request.get(`${asset}.map`)).status(), `${asset}.map`).toBe(404);
    // The build leaves files under 1 KB as they are (web/vite.config.ts): nothing to gain.
    if (Buffer.byteLength(body) < 1024) continue;
    compressed++;
    const br = await request.get(asset, { headers: { "accept-encoding": "br" } });
    expect(br.status(), asset).toBe(200);
    expect(br.headers()["content-encoding"], asset).toBe("br");
    expect(br.headers()["vary"], asset).toMatch(/Accept-Encoding/i);
    const gz = await request.get(asset, { headers: { "accept-encoding": "gzip" } });
    expect(gz.headers()["content-encoding"], asset).toBe("gzip");
  }
  expect(compressed).toBeGreaterThanOrEqual(2);
});
