// The page view's comments mode: the page's text to select from, with its commented passages
// highlighted, beside the threads. What page.tsx mounts when `?comments=1`.
import { lazy, Suspense, useState } from "react";
import type { Directory } from "../../lib/actors";
import type { RouterOutputs } from "../../trpc";
import { PageLoading } from "../page-state";
import { CommentsPanel, type Selection, useThreads } from "./comments-panel";

const CommentableBody = lazy(() => import("./commentable-body"));

type PageView = RouterOutputs["pages"]["get"];

/** The main column's text (Markdown parts), or null for a page the app cannot show as text. */
export function commentableText(page: PageView): string | null {
  const parts = page.parts.filter((p) => p.kind === "markdown");
  return parts.length > 0 ? parts.map((p) => p.body).join("\n") : null;
}

export function PageComments({ page, directory, onClose }: { page: PageView; directory: Directory; onClose: () => void }) {
  const threads = useThreads(page.slug);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [active, setActive] = useState<string | null>(null);
  const text = commentableText(page);
  const openThread = (id: string) => {
    setActive(id);
    document.querySelector<HTMLElement>(`[data-thread="${CSS.escape(id)}"]`)?.focus();
  };
  return (
    <>
      <div className="page-screen__main">
        {text !== null ? (
          <Suspense fallback={<PageLoading label="Loading the text…" />}>
            <CommentableBody markdown={text} version={page.version} threads={threads.data?.threads ?? []} onSelect={setSelection} onOpenThread={openThread} />
          </Suspense>
        ) : (
          <p className="comments__hint">This page is HTML: comment on the whole page in the panel.</p>
        )}
      </div>
      <CommentsPanel
        pageSlug={page.slug}
        directory={directory}
        selection={selection}
        onSelectionDone={() => {
          setSelection(null);
          window.getSelection()?.removeAllRanges();
        }}
        active={active}
        onFocusThread={setActive}
        onClose={onClose}
      />
    </>
  );
}
