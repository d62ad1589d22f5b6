// The page editor (CodeMirror) as a person uses it: its text as a string, typing at the end,
// and pasting. It is a contenteditable, not a textarea, so there is no input value to read.
import type { Locator } from "@playwright/test";

/** The editor's text, line by line as on screen (its placeholder left out). */
export function editorText(body: Locator): Promise<string> {
  return body.evaluate((el) =>
    [...el.querySelectorAll(":scope > .cm-line")]
      .map((line) => {
        const copy = line.cloneNode(true) as Element;
        copy.querySelectorAll(".cm-placeholder").forEach((p) => p.remove());
        return copy.textContent ?? "";
      })
      .join("\n"),
  );
}

/** Puts the cursor at the very end of the text and types `text` there. */
export async function typeAtEnd(body: Locator, text: string): Promise<void> {
  await body.click();
  await body.press("ControlOrMeta+End");
  await body.page().keyboard.insertText(text);
}

/** Pastes `text` into the editor (as the clipboard would give it) over the current selection. */
export async function pasteInto(body: Locator, text: string): Promise<void> {
  await body.evaluate((el, t) => {
    const data = new DataTransfer();
    data.setData("text/plain", t);
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}
