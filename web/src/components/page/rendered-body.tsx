// The body of a page as it will be published: Markdown rendered and sanitized in the
// browser (lib/markdown.ts, the server's own pipeline), HTML in a sandboxed frame with an
// opaque origin, so its scripts can never reach the app. Loaded on demand (React.lazy):
// people who only read never download the Markdown renderer.
import { useDeferredValue, useMemo } from "react";
import { renderMarkdown, renderPageStart } from "../../lib/markdown";
import "./rendered-body.css";

export interface BodyPart {
  kind: "markdown" | "html" | "table_view";
  body: string;
}

export function RenderedBody({ parts, title, summary, label }: { parts: BodyPart[]; title?: string; summary?: string; label: string }) {
  // Typing stays fast on long pages: the preview may lag a keystroke behind.
  const deferred = useDeferredValue(parts);
  const onlyHtml = deferred.length === 1 && deferred[0]?.kind === "html";
  // As on the published page: a first part that opens with the title (or close to it) gives the heading, printed once.
  const { heading, html } = useMemo(() => {
    if (onlyHtml) return { heading: "", html: "" };
    let heading = "";
    const html = deferred
      .map((p, i) => {
        if (p.kind !== "markdown") return null;
        if (i !== 0 || title === undefined) return renderMarkdown(p.body);
        const start = renderPageStart(p.body, title);
        heading = start.heading;
        return start.html;
      })
      .filter((h) => h !== null)
      .join("\n");
    return { heading, html };
  }, [deferred, onlyHtml, title]);

  if (onlyHtml) {
    return <iframe className="html-preview" title={label} sandbox="allow-scripts allow-popups" srcDoc={deferred[0]?.body ?? ""} referrerPolicy="no-referrer" />;
  }
  // HTML and table parts are never put into the app's own page; the published page shows them.
  const hasOtherParts = deferred.some((p) => p.kind !== "markdown");
  const empty = deferred.every((p) => p.kind !== "markdown" || !p.body.trim());
  return (
    <div className="prose" aria-label={label} role="document">
      {title ? (
        <header className="prose__head">
          {heading ? (
            // Safe: the author's heading comes out of rehype-sanitize; the title is escaped.
            <h1 className="prose__title" dangerouslySetInnerHTML={{ __html: heading }} />
          ) : (
            <h1 className="prose__title">{title}</h1>
          )}
          {summary ? <p className="prose__summary">{summary}</p> : null}
        </header>
      ) : null}
      {empty ? (
        <p className="prose__empty">Nothing written yet.</p>
      ) : (
        // Safe: `html` comes out of rehype-sanitize (GitHub's schema), then the highlighter's spans; never raw input.
        <div dangerouslySetInnerHTML={{ __html: html }} />
      )}
      {hasOtherParts ? <p className="prose__note">This page also has HTML or table parts; they show in the published page.</p> : null}
    </div>
  );
}
