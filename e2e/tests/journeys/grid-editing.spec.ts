// Tables like a grid (issue 27 item 5), in Chromium through nginx: a table edited cell by
// cell in place (Enter, typing, Tab, Escape, arrow keys), a checkbox ticked right in its
// cell, a column added from the header, a block of cells pasted from a spreadsheet as one
// batch (and a row past the end added), a cell someone else changed meanwhile shown to the
// person to choose (their change to another cell merged without asking), rows dense enough
// to read as a sheet, and the screen clean for axe at both widths in both themes.
import { expect, type Page, test } from "@playwright/test";
import { checkScreen, describeFindings, isSerious } from "../support/a11y";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { appApi } from "../support/app-api";
import { DESKTOP, PHONE, signInInBrowser } from "../support/browser";
import { stack } from "../support/stack";

test.use({ viewport: DESKTOP });

type Row = { row_id: string; version: number; values: Record<string, string | number | boolean | null> };

async function rowsOf(page: Page, ws: string): Promise<Row[]> {
  const out = await appApi(page).query<{ rows: Row[] }>("rows.list", { workspace: ws, collection: "groceries", limit: 50 });
  return out.rows;
}

const cell = (page: Page, row: string, col: string) =>
  page
    .locator("tbody tr")
    .filter({ has: page.locator("th[scope=row]", { hasText: new RegExp(`^${row}$`) }) })
    .locator(`[data-col="${col}"]`);

test("a table edited like a sheet: cells in place, a checkbox ticked, a column from the header, a pasted block, a conflict shown", async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.baseUrl });
  const owner = uniqueEmail("sheet");
  const ws = uniqueSlug("sheet-ws");

  await test.step("a table with three rows, made through the API", async () => {
    await signInInBrowser(page, owner);
    const api = appApi(page);
    await api.mutation("workspaces.create", { slug: ws, name: "Home" });
    await api.mutation("collections.create", {
      workspace: ws,
      slug: "groceries",
      name: "Groceries",
      kind: "table",
      columns: [
        { name: "item", type: "text", required: true },
        { name: "qty", type: "number" },
        { name: "bought", type: "boolean" },
      ],
    });
    await api.mutation("rows.insert", {
      workspace: ws,
      collection: "groceries",
      rows: [{ item: "Milk", qty: 1 }, { item: "Eggs", qty: 12 }, { item: "Bread" }],
    });
    await page.goto(`/app/buckets/${ws}/tables/groceries`);
    await expect(page.getByRole("table", { name: /Groceries/ }).getByRole("row")).toHaveCount(4, { timeout: 30_000 });
  });

  await test.step("rows are dense", async () => {
    const heights = await page.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
    console.log(`grid row heights at 1280: ${heights.map((h) => h.toFixed(1)).join(", ")} px`);
    for (const h of heights) expect(h).toBeLessThanOrEqual(40);
  });

  await test.step("Enter edits a cell, Enter saves and goes down; typing replaces, Tab saves and goes right; Escape cancels; arrows move", async () => {
    await cell(page, "Milk", "qty").click();
    await page.keyboard.press("Enter");
    const input = page.getByRole("textbox", { name: "qty of “Milk”" });
    await expect(input).toBeFocused();
    await input.fill("2");
    await page.keyboard.press("Enter");
    await expect(cell(page, "Milk", "qty")).toHaveText("2");
    await expect(cell(page, "Eggs", "qty")).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(cell(page, "Eggs", "item")).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(cell(page, "Bread", "item")).toBeFocused();
    await page.keyboard.type("Sourdough");
    await page.keyboard.press("Tab");
    await expect(cell(page, "Sourdough", "qty")).toBeFocused();
    await page.keyboard.type("9");
    await page.keyboard.press("Escape");
    await expect(cell(page, "Sourdough", "qty")).toHaveText("");
    await expect(cell(page, "Sourdough", "qty")).toBeFocused();
    // A value the column can't hold stays in the cell with the reason, and nothing is sent.
    await page.keyboard.type("lots");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("alert").filter({ hasText: /number/i })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect
      .poll(async () => (await rowsOf(page, ws)).map((r) => [r.values.item, r.values.qty, r.version]))
      .toEqual([
        ["Milk", 2, 2],
        ["Eggs", 12, 1],
        ["Sourdough", null, 2],
      ]);
  });

  await test.step("a checkbox is ticked right in its cell (and Space ticks the focused one)", async () => {
    // click, then wait for the tick: the cell's value comes back from its write (and a live
    // refetch may redraw the row meanwhile), so the box is not ticked the instant it is clicked.
    const eggs = page.getByRole("checkbox", { name: "bought of “Eggs”" });
    await eggs.click();
    await expect(eggs).toBeChecked();
    await cell(page, "Milk", "bought").click({ position: { x: 4, y: 4 } });
    await page.keyboard.press("Space");
    await expect.poll(async () => (await rowsOf(page, ws)).map((r) => r.values.bought)).toEqual([true, true, null]);
    await expect(page.getByRole("checkbox", { name: "bought of “Milk”" })).toBeChecked();
  });

  await test.step("a column is added from the header", async () => {
    await page.getByRole("button", { name: "Add a column" }).click();
    await page.getByLabel("New column").fill("aisle");
    await page.getByRole("button", { name: "Add column" }).click();
    await expect(page.getByRole("columnheader", { name: /aisle/ })).toBeVisible();
    await expect(page.getByRole("button", { name: "Add a column" })).toBeFocused();
  });

  await test.step("a block copied from a spreadsheet is pasted as one batch, a row past the end added", async () => {
    const writes: string[] = [];
    // Writes are POSTs; reads (a refetch after the live stream's signal, batched with other
    // queries when the machine is slow) are GETs and not counted.
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().includes("/api/trpc/")) writes.push(new URL(r.url()).pathname.replace(/^.*\/trpc\//, ""));
    });
    await cell(page, "Eggs", "qty").click();
    await page.evaluate(() => navigator.clipboard.writeText("6\tTRUE\tdairy\n2\tFALSE\tbakery\r\n"));
    await page.keyboard.press("ControlOrMeta+V");
    await expect(cell(page, "Sourdough", "aisle")).toHaveText("bakery");
    await expect(cell(page, "Eggs", "qty")).toHaveText("6");
    expect(writes).toEqual(["rows.updateMany"]);
    // A block that runs past the last row adds rows (their first cell from the block).
    await cell(page, "Sourdough", "item").click();
    await page.evaluate(() => navigator.clipboard.writeText("Sourdough\t2\nButter\t1"));
    await page.keyboard.press("ControlOrMeta+V");
    await expect(cell(page, "Butter", "qty")).toHaveText("1");
    const rows = await rowsOf(page, ws);
    expect(rows.map((r) => [r.values.item, r.values.qty, r.values.bought, r.values.aisle])).toEqual([
      ["Milk", 2, true, null],
      ["Eggs", 6, true, "dairy"],
      ["Sourdough", 2, false, "bakery"],
      ["Butter", 1, null, null],
    ]);
  });

  await test.step("someone else's change to another cell is kept; to the same cell, the person chooses", async () => {
    const api = appApi(page);
    const rows = await rowsOf(page, ws);
    const milk = rows[0] as Row;
    // Another writer (an agent, say) changes Milk's aisle, then its qty, while the grid shows the old version.
    await api.mutation("rows.update", { workspace: ws, collection: "groceries", row_id: milk.row_id, values: { aisle: "fridge" } });
    await cell(page, "Milk", "bought").click({ position: { x: 4, y: 4 } });
    await page.keyboard.press("Space");
    await expect.poll(async () => (await rowsOf(page, ws))[0]?.values).toMatchObject({ bought: false, aisle: "fridge" });
    await cell(page, "Milk", "qty").dblclick();
    await page.getByRole("textbox", { name: "qty of “Milk”" }).fill("3");
    // While the person types, the other writer changes the same cell.
    await api.mutation("rows.update", { workspace: ws, collection: "groceries", row_id: milk.row_id, values: { qty: 5 } });
    await page.keyboard.press("Enter");
    const note = page.getByRole("alert").filter({ hasText: "Someone else changed this cell meanwhile" });
    await expect(note).toContainText("qty is now 5, you wrote 3");
    await expect(cell(page, "Milk", "qty")).toHaveText("5");
    await note.getByRole("button", { name: "Use mine instead" }).click();
    await expect(cell(page, "Milk", "qty")).toHaveText("3");
    await expect.poll(async () => (await rowsOf(page, ws))[0]?.values).toMatchObject({ qty: 3, bought: false, aisle: "fridge" });
  });

  await test.step("on a phone a cell is edited in place too", async () => {
    await page.setViewportSize(PHONE);
    await cell(page, "Butter", "qty").dblclick();
    await page.getByRole("textbox", { name: "qty of “Butter”" }).fill("4");
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await rowsOf(page, ws))[3]?.values.qty).toBe(4);
    await page.setViewportSize(DESKTOP);
  });

  await test.step("the grid, with a cell focused and the add-column form open, is clean for axe at both widths in both themes", async () => {
    await page.reload();
    await expect(cell(page, "Milk", "qty")).toHaveText("3", { timeout: 30_000 });
    await cell(page, "Eggs", "aisle").click();
    const findings = await checkScreen(page, "grid-sheet");
    await page.getByRole("button", { name: "Add a column" }).click();
    findings.push(...(await checkScreen(page, "grid-add-column")));
    const serious = findings.filter(isSerious);
    expect(serious, describeFindings(serious)).toEqual([]);
  });
});

test("a table starts with just a name and grows its columns from the header", async ({ page }) => {
  test.setTimeout(120_000);
  const owner = uniqueEmail("newtable");
  const ws = uniqueSlug("newtable-ws");
  await signInInBrowser(page, owner);
  await appApi(page).mutation("workspaces.create", { slug: ws, name: "Reading" });
  await page.goto(`/app/buckets/${ws}?tab=tables`);
  await page.getByRole("button", { name: "New table" }).click({ timeout: 30_000 });
  const dialog = page.getByRole("dialog", { name: "New table" });
  await dialog.getByLabel("Name", { exact: true }).fill("Reading list");
  await dialog.getByRole("button", { name: "Create table" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/buckets/${ws}/tables/reading-list$`));
  await expect(page.getByRole("heading", { name: "Reading list", level: 1 })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: /^Name/ })).toBeVisible();
  await page.getByRole("button", { name: "Add a column" }).click();
  await page.getByLabel("New column").fill("read");
  await page.getByLabel("Type").selectOption("boolean");
  await page.getByRole("button", { name: "Add column" }).click();
  await expect(page.getByRole("columnheader", { name: /read/ })).toBeVisible();
  const tables = await appApi(page).query<{ slug: string; columns: { name: string; type: string }[] }[]>("collections.list", { workspace: ws });
  expect(tables.find((t) => t.slug === "reading-list")?.columns.map((c) => [c.name, c.type])).toEqual([
    ["Name", "text"],
    ["read", "boolean"],
  ]);
});
