// The page's text beside its live preview (on phones one at a time, chosen with Write /
// Preview): Markdown rendered as it will be published, HTML in a sandboxed frame.
import { lazy, Suspense, useId, useMemo } from "react";
import type { BodyPart } from "../rendered-body";

const RenderedBody = lazy(() => import("../rendered-body").then((m) => ({ default: m.RenderedBody })));

export function BodyEditor({
  kind,
  body,
  onChange,
  pane,
  title,
  summary,
}: {
  kind: "markdown" | "html";
  body: string;
  onChange: (body: string) => void;
  pane: "write" | "preview";
  title: string;
  summary: string;
}) {
  const id = useId();
  const previewParts = useMemo<BodyPart[]>(() => [{ kind, body }], [kind, body]);
  return (
    <div className={`editor__split editor__split--${pane}`}>
      <div className="editor__pane editor__pane--write">
        <label className="editor__pane-label" htmlFor={`${id}-body`}>
          {kind === "markdown" ? "Markdown" : "HTML"}
        </label>
        <textarea
          id={`${id}-body`}
          className="editor__textarea"
          value={body}
          spellCheck={kind === "markdown"}
          autoCapitalize="sentences"
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={`${id}-body-hint`}
          placeholder={kind === "markdown" ? "# A heading\n\nWrite in Markdown…" : "<!doctype html>\n<html>…"}
        />
        <p id={`${id}-body-hint`} className="field__hint">
          {kind === "markdown"
            ? "Markdown: # heading, **bold**, _italic_, - list, [link](https://…), | tables |. Ctrl+S saves."
            : "A whole HTML document. It runs in a sandbox, apart from Atelier. Ctrl+S saves."}
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
