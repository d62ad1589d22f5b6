// Export and import from the app (issue 31 item 2), through nginx in Chromium: an owner
// ticks "With full history", downloads a workspace's export from Settings, imports it into
// another workspace and finds the page (both its versions), the table and the page's image
// there — the image's address rewritten to the new workspace, its bytes served; a file that
// is not a zip is refused with the reason and nothing imported. axe checks the section.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { type AxeFinding, checkScreen, describeFindings, isSerious } from "../support/a11y";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { appApi } from "../support/app-api";
import { DESKTOP, signInInBrowser } from "../support/browser";
import { callTool, mcpClient } from "../support/mcp";

test.use({ viewport: DESKTOP });

test("an owner exports a workspace with full history and imports it into another, page, history, image and table intact; a bad file imports nothing", async ({
  page,
}) => {
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
    // An image in the page, pushed by the owner's agent: a second version of the page.
    const { credential } = await api.mutation<{ credential: string }>("tokens.create", {
      label: "Archive bot",
      scopes: ["mcp:read", "mcp:write"],
      expiresInDays: 1,
    });
    const agent = await mcpClient(credential);
    const image = await sharp({ create: { width: 48, height: 32, channels: 3, background: "#2a7" } })
      .png()
      .toBuffer();
    const pushed = (await callTool(agent, "push_image", { workspace: from, data: image.toString("base64"), alt: "A green heron card" })) as {
      markdown: string;
    };
    await callTool(agent, "update_page", { slug: pageSlug, body_markdown: `# Field guide\n\nHerons wait; *egrets* stalk.\n\n${pushed.markdown}\n` });
    await agent.close();
    await api.mutation("workspaces.create", { slug: to, name: "Copy of field notes" });
  });

  await test.step("Download export in Settings, with full history, gives the zip", async () => {
    await page.goto(`/app/buckets/${from}?tab=settings`);
    const section = page.getByRole("region", { name: "Export and import" });
    await section.getByRole("checkbox", { name: /With full history/ }).check();
    const [download] = await Promise.all([page.waitForEvent("download"), section.getByRole("link", { name: "Download export" }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${from}-\\d{4}-\\d{2}-\\d{2}-history\\.zip$`));
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

  await test.step("importing the export brings the page with its history and image, and the table, and they open", async () => {
    const section = page.getByRole("region", { name: "Export and import" });
    await section.getByLabel("Zip file to import").setInputFiles(zip);
    await expect(section.getByRole("status")).toContainText("Imported 1 page, 1 table, 1 file and 0 comments (with 2 versions of history).");
    findings.push(...(await checkScreen(page, "settings-archive")));
    // Page slugs are unique in the whole instance: the copy gets the next free one.
    await section.getByRole("link", { name: `${pageSlug}-2` }).click();
    const doc = page.frameLocator(`iframe[title="Field guide (the published page)"]`);
    await expect(doc.getByText("Herons wait;")).toBeVisible();
    const img = doc.getByRole("img", { name: "A green heron card" });
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(48);
    const toId = (await appApi(page).query<{ id: string }>("workspaces.get", { slug: to })).id;
    expect(await img.getAttribute("src")).toContain(`/${toId}/`);
    const versions = await appApi(page).query<{ version: number }[]>("pages.history", { slug: `${pageSlug}-2` });
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
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
