// Images and files into the page's text (docs/security.md#files): pasted, dropped or picked
// with the toolbar's "Insert image or file". Each upload shows where it will land as a
// placeholder with a progress bar (a widget beside the text, never in it: an autosave meanwhile
// saves no half-made Markdown); an image asks for its alt text in a dialog, pre-filled from the
// file name, while it uploads. On success the Markdown (`![alt](url)` for an image, a link for
// anything else) replaces the placeholder; on failure the placeholder goes and a message says why.
import { StateEffect, StateField } from "@codemirror/state";
import { Decoration, type DecorationSet, EditorView, WidgetType } from "@codemirror/view";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type RefObject, useCallback, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useTRPC } from "../../../trpc";
import { markdownFor, putFile, type UploadedFile } from "../../files/upload";
import { ModalDialog } from "../../modal-dialog";

interface Pending {
  id: number;
  pos: number;
  name: string;
  progress: number;
}

const addUpload = StateEffect.define<Pending>();
const uploadProgress = StateEffect.define<{ id: number; progress: number }>();
const endUpload = StateEffect.define<number>();

class UploadWidget extends WidgetType {
  constructor(readonly upload: Pending) {
    super();
  }
  override eq(other: UploadWidget) {
    return other.upload.id === this.upload.id && other.upload.progress === this.upload.progress && other.upload.name === this.upload.name;
  }
  toDOM() {
    const span = document.createElement("span");
    span.className = "md-editor__upload";
    span.dataset.uploadId = String(this.upload.id);
    const label = document.createElement("span");
    label.textContent = `Uploading ${this.upload.name}…`;
    const bar = document.createElement("progress");
    bar.max = 1;
    bar.value = this.upload.progress;
    bar.setAttribute("aria-label", `Uploading ${this.upload.name}`);
    span.append(label, bar);
    return span;
  }
  override ignoreEvent() {
    return true;
  }
}

/** Uploads under way: where each will land (moved along with the edits around it), shown as a widget. */
const uploadsField = StateField.define<Pending[]>({
  create: () => [],
  update(uploads, tr) {
    let next = tr.docChanged ? uploads.map((u) => ({ ...u, pos: tr.changes.mapPos(u.pos, 1) })) : uploads;
    for (const e of tr.effects) {
      if (e.is(addUpload)) next = [...next, e.value];
      else if (e.is(uploadProgress)) next = next.map((u) => (u.id === e.value.id ? { ...u, progress: e.value.progress } : u));
      else if (e.is(endUpload)) next = next.filter((u) => u.id !== e.value);
    }
    return next;
  },
  provide: (field) =>
    EditorView.decorations.from(field, (uploads): DecorationSet =>
      Decoration.set([...uploads].sort((a, b) => a.pos - b.pos).map((u) => Decoration.widget({ widget: new UploadWidget(u), side: 1 }).range(u.pos))),
    ),
});

/** The editor extension that shows uploads under way. */
export const editorUploads = [uploadsField];

/** Alt text from a file name: "team-photo_2024.png" → "team photo 2024". */
export function altFromName(name: string): string {
  return name
    .replace(/\.[A-Za-z0-9]{1,5}$/, "")
    .replace(/[-_.]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 500);
}

/** Markdown to insert at `pos` in `text`: on a line of its own for an image (blank lines around unless already there). */
export function insertionAt(text: string, pos: number, markdown: string, block: boolean): string {
  if (!block) return markdown;
  const before = text.slice(0, pos);
  const after = text.slice(pos);
  const lead = before === "" || before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
  const tail = after === "" ? "\n" : after.startsWith("\n\n") ? "" : after.startsWith("\n") ? "\n" : "\n\n";
  return `${lead}${markdown}${tail}`;
}

interface AltPrompt {
  name: string;
  preview: string | null;
  progress: number;
  error: string | null;
  answer: (alt: string | null) => void;
}

/**
 * Uploading into the editor: `insertFiles(files, pos?)` (at the cursor, or where they were
 * dropped) and `picker` (the toolbar's file input); `ui` is the alt-text dialog and the
 * message about the last upload, to render beside the editor.
 */
export function useEditorFiles(workspace: string | undefined, view: RefObject<EditorView | null>) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const createUrl = useMutation(trpc.files.createUploadUrl.mutationOptions());
  const [prompt, setPrompt] = useState<AltPrompt | null>(null);
  const [alt, setAlt] = useState("");
  const [note, setNote] = useState<{ error: boolean; text: string } | null>(null);
  const nextId = useRef(1);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const altId = useId();

  const uploadOne = useCallback(
    async (file: File, at: number | null) => {
      const v = view.current;
      if (!v || !workspace) return;
      const id = nextId.current++;
      const name = file.name || "pasted image";
      v.dispatch({ effects: addUpload.of({ id, pos: at ?? v.state.selection.main.head, name, progress: 0 }) });
      const isImage = file.type.startsWith("image/");
      const shown = (progress: number) => {
        view.current?.dispatch({ effects: uploadProgress.of({ id, progress }) });
        if (isImage) setPrompt((p) => (p ? { ...p, progress } : p));
      };
      const uploading = (async (): Promise<UploadedFile> => {
        const target = await createUrl.mutateAsync({ workspace, name: name.slice(0, 200) });
        if (file.size > target.max_bytes)
          throw new Error(`it is ${Math.ceil(file.size / 1048576)} MB, and at most ${Math.floor(target.max_bytes / 1048576)} MB can be uploaded.`);
        const stored = await putFile(target.upload_url, file, shown);
        shown(1);
        return stored;
      })();
      // Settled here too, so a failure while the dialog is open is shown there and is never unhandled.
      const outcome = uploading.then(
        (stored) => ({ stored, error: null }),
        (err: unknown) => {
          const message = err instanceof Error ? err.message : "the upload failed.";
          setPrompt((p) => (p ? { ...p, error: message } : p));
          return { stored: null, error: message };
        },
      );
      let altText: string | null = altFromName(name);
      if (isImage) {
        const preview = URL.createObjectURL(file);
        setAlt(altFromName(name));
        altText = await new Promise<string | null>((answer) => setPrompt({ name, preview, progress: 0, error: null, answer }));
        URL.revokeObjectURL(preview);
        setPrompt(null);
        view.current?.focus();
      }
      const { stored, error } = await outcome;
      const ed = view.current;
      if (!ed) return;
      const where = ed.state.field(uploadsField).find((u) => u.id === id)?.pos ?? ed.state.selection.main.head;
      if (!stored || altText === null) {
        ed.dispatch({ effects: endUpload.of(id) });
        setNote(
          stored
            ? { error: false, text: `${name} was uploaded but not inserted. It is in the workspace's files.` }
            : { error: true, text: `${name} was not added: ${lowerFirst(error ?? "the upload failed.")}` },
        );
        return;
      }
      const markdown = markdownFor(stored, altText.trim() || altFromName(name) || "image");
      const insert = insertionAt(ed.state.doc.toString(), where, markdown, stored.type.startsWith("image/"));
      ed.dispatch({
        changes: { from: where, insert },
        effects: endUpload.of(id),
        selection: { anchor: where + insert.length },
        userEvent: "input.paste",
        scrollIntoView: true,
      });
      setNote({ error: false, text: `${name} was added.` });
      await queryClient.invalidateQueries({ queryKey: trpc.files.list.pathKey() });
    },
    [createUrl, queryClient, trpc, view, workspace],
  );

  /** Uploads `files` one after another (one alt-text dialog at a time), at `pos` or the cursor. */
  const insertFiles = useCallback(
    (files: File[], pos: number | null) => {
      setNote(null);
      // Each after the one before, whatever became of it.
      for (const file of files) queue.current = queue.current.then(() => uploadOne(file, pos)).catch(() => undefined);
    },
    [uploadOne],
  );

  const answer = (value: string | null) => prompt?.answer(value);
  const ui = (
    <>
      {/* In the body, not in the page editor's form: a form inside a form is not HTML. */}
      {createPortal(
        <ModalDialog
          open={prompt !== null}
          onCancel={() => answer(null)}
          labelledBy={`${altId}-title`}
          describedBy={`${altId}-hint`}
          className="dialog alt-dialog"
        >
          {prompt ? (
            <form
              className="dialog__form"
              onSubmit={(e) => {
                e.preventDefault();
                // React hands a submit on to the forms around it in the component tree: not a save of the page.
                e.stopPropagation();
                if (alt.trim()) answer(alt.trim());
              }}
            >
              <h2 id={`${altId}-title`} className="dialog__title">
                Describe the image
              </h2>
              {prompt.preview ? <img src={prompt.preview} alt="" className="alt-dialog__preview" /> : null}
              <div className="field">
                <label htmlFor={`${altId}-alt`} className="field__label">
                  Alt text
                </label>
                <input
                  id={`${altId}-alt`}
                  className="field__input"
                  value={alt}
                  onChange={(e) => setAlt(e.target.value)}
                  maxLength={500}
                  required
                  aria-describedby={`${altId}-hint`}
                  autoFocus
                />
                <p id={`${altId}-hint`} className="field__hint">
                  Say what {prompt.name} shows, for people who cannot see it.
                </p>
              </div>
              {prompt.error ? (
                <p className="field__error" role="alert">
                  {prompt.name} can’t be added: {lowerFirst(prompt.error)}
                </p>
              ) : (
                <p className="alt-dialog__progress">
                  <progress max={1} value={prompt.progress} aria-label={`Uploading ${prompt.name}`} />{" "}
                  {prompt.progress >= 1 ? "Uploaded" : `${Math.round(prompt.progress * 100)}%`}
                </p>
              )}
              <div className="dialog__actions">
                <button type="button" className="button" onClick={() => answer(null)}>
                  {prompt.error ? "Close" : "Cancel"}
                </button>
                <button type="submit" className="button button--primary" disabled={prompt.error !== null || alt.trim() === ""}>
                  Insert image
                </button>
              </div>
            </form>
          ) : null}
        </ModalDialog>,
        document.body,
      )}
      {/* Always there, so that what appears in them is announced. */}
      <p className="md-editor__note" role="status">
        {note && !note.error ? note.text : ""}
      </p>
      <p className="md-editor__note md-editor__note--error" role="alert">
        {note?.error ? note.text : ""}
      </p>
    </>
  );

  return { insertFiles, ui, enabled: Boolean(workspace) };
}

function lowerFirst(s: string): string {
  return s.length > 1 && /^[A-Z][a-z]/.test(s) ? s[0]?.toLowerCase() + s.slice(1) : s;
}
