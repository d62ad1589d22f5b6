// Issue 29: images and files in the page editor, through nginx and in Chromium. A screenshot
// pasted into the editor (a ClipboardEvent carrying a PNG made in the page) uploads with a
// progress bar, asks for alt text in a dialog pre-filled from its name (axe-clean at desktop
// and phone width), and its Markdown lands at the cursor; the autosaved page shows the image
// on its public address. A file picked with "Insert image or file" becomes a link; an SVG
// dropped on the text is refused, its placeholder goes and a message says why.
import { expect as baseExpect, type Page, test } from "@playwright/test";
import { type AxeFinding, checkScreen, describeFindings, isSerious } from "../support/a11y";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { appApi } from "../support/app-api";
import { DESKTOP, signInInBrowser } from "../support/browser";
import { editorText, typeAtEnd } from "../support/editor";

// The editor's code loads on the first Edit; on a busy machine that can take a while.
const expect = baseExpect.configure({ timeout: 30_000 });
test.use({ viewport: DESKTOP, actionTimeout: 30_000 });

function bodyOf(page: Page) {
  return page.getByRole("form", { name: /^Edit / }).getByLabel("Markdown", { exact: true });
}

test("paste, pick and drop files into the page editor: progress, alt text, Markdown at the cursor, shown on the published page", async ({ page }) => {
  test.setTimeout(300_000);
  const ws = uniqueSlug("editor-files");
  const slug = uniqueSlug("trip-report");
  const api = appApi(page);
  await signInInBrowser(page, uniqueEmail("paster"));
  await api.mutation("workspaces.create", { slug: ws, name: "Trips" });
  await api.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" });
  await api.mutation("pages.create", { workspace: ws, slug, title: "Trip report", body_markdown: "Day one." });
  const stored = async () => (await api.query<{ parts: { body: string }[] }>("pages.get", { slug })).parts[0]?.body ?? "";

  await page.goto(`/app/buckets/${ws}/${slug}?edit=1`);
  const body = bodyOf(page);
  await expect(body).toBeVisible();
  const dialog = page.getByRole("dialog", { name: "Describe the image" });
  // Nothing that was pasted or dropped may run: any alert() it managed would be seen here.
  const alerts: string[] = [];
  page.on("dialog", (d) => {
    alerts.push(d.message());
    void d.dismiss();
  });
  const findings: AxeFinding[] = [];

  await test.step("a pasted screenshot asks for its alt text (pre-filled from its name) while it uploads, then lands at the cursor as Markdown", async () => {
    await typeAtEnd(body, "\n\nThe view:");
    await body.evaluate(async (el) => {
      const canvas = document.createElement("canvas");
      canvas.width = 40;
      canvas.height = 30;
      const g = canvas.getContext("2d");
      if (!g) throw new Error("no canvas");
      g.fillStyle = "#c0392b";
      g.fillRect(0, 0, 40, 30);
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b ?? new Blob()), "image/png"));
      const data = new DataTransfer();
      data.items.add(new File([blob], "sunset_over-hills.png", { type: "image/png" }));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await expect(dialog).toBeVisible();
    const alt = dialog.getByLabel("Alt text");
    await expect(alt).toHaveValue("sunset over hills");
    await expect(alt).toBeFocused();
    await expect(dialog.getByRole("progressbar", { name: "Uploading sunset_over-hills.png" })).toBeVisible();
    // The placeholder shows where it will land; nothing is in the text yet.
    await expect(page.locator(".md-editor__upload")).toHaveCount(1);
    expect(await editorText(body)).not.toContain("![");
    await expect(dialog.getByText("Uploaded")).toBeVisible();

    findings.push(...(await checkScreen(page, "editor-alt-text-dialog", () => expect(dialog).toBeVisible())));
    baseExpect(findings.filter(isSerious), describeFindings(findings.filter(isSerious))).toEqual([]);

    await alt.fill("A red sunset [test]");
    await dialog.getByRole("button", { name: "Insert image" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.locator(".md-editor__upload")).toHaveCount(0);
    await expect.poll(() => editorText(body)).toMatch(/The view:\n\n!\[A red sunset \\\[test\\\]\]\(http[^)]+\/files\/ws_[^/]+\/[0-9a-f]{64}-40x30\.png\)\n/);
    await expect(page.getByRole("status").filter({ hasText: "sunset_over-hills.png was added." })).toBeVisible();
  });

  await test.step("the autosave keeps it, and the published page shows the image, sized", async () => {
    await expect.poll(stored, { timeout: 30_000 }).toContain("![A red sunset \\[test\\]](");
    await page.goto(`/a/${slug}`);
    const img = page.getByRole("img", { name: "A red sunset [test]" });
    await expect(img).toHaveAttribute("width", "40");
    await expect(img).toHaveAttribute("height", "30");
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(40);
  });

  await page.goto(`/app/buckets/${ws}/${slug}?edit=1`);
  await expect(body).toBeVisible();

  await test.step("a file picked with Insert image or file becomes a link, without a dialog", async () => {
    await typeAtEnd(body, "\n\nNotes: ");
    await expect(page.getByRole("button", { name: "Insert image or file" })).toBeVisible();
    await page
      .getByLabel("Choose images or files to insert")
      .setInputFiles({ name: "packing-list.txt", mimeType: "text/plain", buffer: Buffer.from("tent\nstove\n") });
    await expect.poll(() => editorText(body)).toMatch(/Notes: \[packing-list\.txt\]\(http[^)]+\/files\/ws_[^/]+\/[0-9a-f]{64}\.txt\)/);
    await expect(dialog).toBeHidden();
  });

  await test.step("an SVG dropped on the text is refused: the dialog says why, the placeholder goes, a message stays", async () => {
    const before = await editorText(body);
    await body.evaluate((el) => {
      const data = new DataTransfer();
      data.items.add(new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], "logo.svg", { type: "image/svg+xml" }));
      const box = el.getBoundingClientRect();
      el.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true, clientX: box.left + 5, clientY: box.top + 5 }));
    });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("alert")).toContainText("logo.svg can’t be added");
    await expect(dialog.getByRole("button", { name: "Insert image" })).toBeDisabled();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.locator(".md-editor__upload")).toHaveCount(0);
    await expect(page.getByRole("alert").filter({ hasText: "logo.svg was not added" })).toContainText("SVG");
    expect(await editorText(body)).toBe(before);
    expect(alerts).toEqual([]);
  });
});
