// Export and import from the app (issue 31 item 2), through nginx in Chromium: an owner
// downloads a workspace's export from Settings, imports it into another workspace and finds
// the page and the table there with their content; a file that is not a zip is refused with
// the reason and nothing imported. axe checks the section at both widths in both themes.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { type AxeFinding, checkScreen, describeFindings, isSerious } from "../support/a11y";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { appApi } from "../support/app-api";
import { DESKTOP, signInInBrowser } from "../support/browser";

test.use({ viewport: DESKTOP });

test("an owner exports a workspace and imports it into another, page and table intact; a bad file imports nothing", async ({ page }) => {
  test.setTimeout(180_000);
  const from = uniqueSlug("archive-from");
  const to = uniqueSlug("archive-to");
  const pageSlug = uniqueSlug("field-guide");
  const findings: AxeFinding[] = [];
  let zip = "";

  await test.step("a workspace with a page and a table, and an empty one", async () => {
    await signInInBrowser(page, uniqueEmail("archivist"));
    const api = appApi(page);
    await api.mutation("workspaces.create", { slug: from, name: "Field notes" });
    await api.mutation("pages.create", {
      workspace: from,
      slug: pageSlug,
      title: "Field guide",
      body_markdown: "# Field guide\n\nHerons wait; *egrets* stalk.",
    });
    await api.mutation("collections.create", {
      workspace: from,
      slug: "sightings",
      name: "Sightings",
      kind: "table",
      columns: [
        { name: "bird", type: "text" },
        { name: "count", type: "number" },
      ],
    });
    await api.mutation("rows.insert", { workspace: from, collection: "sightings", rows: [{ bird: "Heron", count: 3 }] });
    await api.mutation("workspaces.create", { slug: to, name: "Copy of field notes" });
  });

  await test.step("Download export in Settings gives the zip", async () => {
    await page.goto(`/app/buckets/${from}?tab=settings`);
    const section = page.getByRole("region", { name: "Export and import" });
    const [download] = await Promise.all([page.waitForEvent("download"), section.getByRole("link", { name: "Download export" }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${from}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
    zip = (await download.path()) ?? "";
    expect(readFileSync(zip).subarray(0, 2).toString("latin1")).toBe("PK");
  });

  await test.step("a file that is not a zip is refused with the reason, and nothing is imported", async () => {
    await page.goto(`/app/buckets/${to}?tab=settings`);
    const section = page.getByRole("region", { name: "Export and import" });
    await section.getByLabel("Zip file to import").setInputFiles({ name: "notes.zip", mimeType: "application/zip", buffer: Buffer.from("not a zip at all") });
    await expect(section.getByRole("alert")).toContainText("Nothing was imported.");
    const pages = await appApi(page).query<{ pages: unknown[] }>("pages.list", { workspace: to });
    expect(pages.pages).toHaveLength(0);
  });

  await test.step("importing the export brings the page and the table, and they open", async () => {
    const section = page.getByRole("region", { name: "Export and import" });
    await section.getByLabel("Zip file to import").setInputFiles(zip);
    await expect(section.getByRole("status")).toContainText("Imported 1 page and 1 table.");
    findings.push(...(await checkScreen(page, "settings-archive")));
    // Page slugs are unique in the whole instance: the copy gets the next free one.
    await section.getByRole("link", { name: `${pageSlug}-2` }).click();
    await expect(page.frameLocator(`iframe[title="Field guide (the published page)"]`).getByText("Herons wait;")).toBeVisible();
    await page.goto(`/app/buckets/${to}/tables/sightings`);
    await expect(
      page
        .getByRole("gridcell", { name: "Heron" })
        .or(page.getByRole("cell", { name: "Heron" }))
        .first(),
    ).toBeVisible();
  });

  expect(findings.filter(isSerious), describeFindings(findings.filter(isSerious))).toEqual([]);
});
