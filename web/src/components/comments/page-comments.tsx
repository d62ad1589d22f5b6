// The page view's comments mode: the page's text to select from, with its commented passages
// highlighted, beside the threads. What page.tsx mounts when `?comments=1`.
import { lazy, Suspense, useEffect, useState } from "react";
import type { Directory } from "../../lib/actors";
import type { RouterOutputs } from "../../trpc";
import { PageLoading } from "../page-state";
import { type CommentTarget, CommentsPanel, type Selection, useThreads } from "./comments-panel";

const CommentableBody = lazy(() => import("./commentable-body"));

type PageView = RouterOutputs["pages"]["get"];

/** The main column's text (Markdown parts), or null for a page the app cannot show as text. */
export function commentableText(page: PageView): string | null {
  const parts = page.parts.filter((p) => p.kind === "markdown");
  return parts.length > 0 ? parts.map((p) => p.body).join("\n") : null;
}

export function PageComments({ page, directory, onClose }: { page: PageView; directory: Directory; onClose: () => void }) {
  const target: CommentTarget = { kind: "page", workspace: page.workspace, page: page.slug };
  const threads = useThreads(target);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [active, setActive] = useState<string | null>(null);
  const text = commentableText(page);
  const openThread = (id: string) => {
    setActive(id);
    document.querySelector<HTMLElement>(`[data-thread="${CSS.escape(id)}"]`)?.focus();
  };
  useFocusLinkedThread(threads.isSuccess, openThread);
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
        target={target}
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

/** A link to a thread (`#comment-<id>`, as mention mails give) focuses it once the threads are there. */
export function useFocusLinkedThread(loaded: boolean, open: (id: string) => void): void {
  useEffect(() => {
    const id = /^#comment-(cmt_[\w-]+)$/.exec(window.location.hash)?.[1];
    if (loaded && id) open(id);
    // Once, when the threads first arrive.
  }, [loaded]);
}
