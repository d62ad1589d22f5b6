// The page's text, written in place in a real editor (markdown-editor.tsx), beside its live
// preview on wide screens (on phones one at a time, chosen with Write / Preview): Markdown
// rendered as it will be published, HTML in a sandboxed frame.
import { lazy, Suspense, useId, useMemo } from "react";
import type { BodyPart } from "../rendered-body";
import { MarkdownEditor } from "./markdown-editor";

const RenderedBody = lazy(() => import("../rendered-body").then((m) => ({ default: m.RenderedBody })));

export function BodyEditor({
  kind,
  body,
  onChange,
  pane,
  title,
  summary,
  autoFocus = false,
  workspace,
}: {
  kind: "markdown" | "html";
  body: string;
  onChange: (body: string) => void;
  pane: "write" | "preview";
  title: string;
  summary: string;
  autoFocus?: boolean;
  /** Where pasted, dropped or picked files are uploaded. */
  workspace?: string;
}) {
  const id = useId();
  const previewParts = useMemo<BodyPart[]>(() => [{ kind, body }], [kind, body]);
  return (
    <div className={`editor__split editor__split--${pane}`}>
      <div className="editor__pane editor__pane--write">
        <span className="editor__pane-label" id={`${id}-body-label`}>
          {kind === "markdown" ? "Markdown" : "HTML"}
        </span>
        <MarkdownEditor
          kind={kind}
          value={body}
          onChange={onChange}
          labelledBy={`${id}-body-label`}
          describedBy={`${id}-body-hint`}
          autoFocus={autoFocus}
          workspace={workspace}
          placeholder={kind === "markdown" ? "Start writing… (# for a heading, - for a list)" : "<!doctype html>\n<html>…"}
        />
        <p id={`${id}-body-hint`} className="field__hint">
          {kind === "markdown"
            ? "Saved as you pause. Ctrl+B bold, Ctrl+I italic, Ctrl+K link; paste a link over words to link them; paste or drop an image to add it; Ctrl+S saves now."
            : "A whole HTML document. It runs in a sandbox, apart from Atelier. Saved as you pause; Ctrl+S saves now."}
        </p>
      </div>
      <div className="editor__pane editor__pane--preview" aria-label="Preview">
        <span className="editor__pane-label" aria-hidden="true">
          Preview
        </span>
        <Suspense fallback={<p className="muted">Preparing the preview…</p>}>
          <RenderedBody parts={previewParts} title={title} summary={summary} label="Preview" />
        </Suspense>
      </div>
    </div>
  );
}
