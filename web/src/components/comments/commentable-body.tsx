// The page's Markdown rendered in the app (the published page is in a sandboxed frame the app
// cannot reach into), so a reader can select a passage to comment on, and see the passages
// that have comments highlighted (the CSS Custom Highlight API: no change to the rendered
// text). Loaded on demand with the renderer.
import { useEffect, useMemo, useRef } from "react";
import { renderMarkdown } from "../../lib/markdown";
import type { Selection, Thread } from "./comments-panel";

const CONTEXT = 32;

/** Text as read: spaces folded (as the server compares a selection with the page's text). */
const fold = (s: string) => s.replace(/\s+/g, " ").trim();

/** The DOM range of `text` (folded) inside `root`, or null. */
function rangeOf(root: HTMLElement, text: string): Range | null {
  const wanted = fold(text).replace(/[*_`~#>[\]|<]/g, "");
  if (!wanted) return null;
  const nodes: { node: Text; from: number }[] = [];
  let flat = "";
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n as Text;
    nodes.push({ node: t, from: flat.length });
    flat += t.data;
  }
  // Map folded positions to raw ones.
  const map: number[] = [];
  let folded = "";
  let space = false;
  for (let i = 0; i < flat.length; i++) {
    const ch = flat[i] ?? "";
    if (/\s/.test(ch)) {
      space = folded.length > 0;
      continue;
    }
    if (space) {
      folded += " ";
      map.push(i);
      space = false;
    }
    folded += ch;
    map.push(i);
  }
  const at = folded.indexOf(wanted);
  if (at === -1) return null;
  const startRaw = map[at] ?? 0;
  const endRaw = (map[at + wanted.length - 1] ?? startRaw) + 1;
  const locate = (raw: number) => {
    let hit = nodes[0];
    for (const n of nodes) if (n.from <= raw) hit = n;
    return hit ? { node: hit.node, offset: raw - hit.from } : null;
  };
  const s = locate(startRaw);
  const e = locate(endRaw - 1);
  if (!s || !e) return null;
  const r = document.createRange();
  r.setStart(s.node, s.offset);
  r.setEnd(e.node, e.offset + 1);
  return r;
}

export default function CommentableBody({
  markdown,
  version,
  threads,
  onSelect,
  onOpenThread,
}: {
  markdown: string;
  version: number;
  threads: Thread[];
  onSelect: (s: Selection) => void;
  onOpenThread: (id: string) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const html = useMemo(() => renderMarkdown(markdown), [markdown]);

  // Highlights: every open thread still attached to a passage.
  useEffect(() => {
    const root = ref.current;
    const registry = (CSS as unknown as { highlights?: Map<string, unknown> }).highlights;
    const HighlightCtor = (globalThis as unknown as { Highlight?: new (...r: Range[]) => unknown }).Highlight;
    if (!root || !registry || !HighlightCtor) return;
    const ranges: Range[] = [];
    for (const t of threads) {
      if (t.resolved || t.anchor.kind !== "quote" || !t.anchor.attached || !t.anchor.current_quote) continue;
      const r = rangeOf(root, t.anchor.current_quote);
      if (r) ranges.push(r);
    }
    registry.set("comment", new HighlightCtor(...ranges));
    return () => {
      registry.delete("comment");
    };
  }, [threads, html]);

  const takeSelection = () => {
    const root = ref.current;
    const sel = window.getSelection();
    if (!root || !sel || sel.isCollapsed || sel.rangeCount === 0) return;
    const range = sel.getRangeAt(0);
    if (!root.contains(range.commonAncestorContainer)) return;
    const quote = sel.toString().trim();
    if (!quote) return;
    const before = document.createRange();
    before.setStart(root, 0);
    before.setEnd(range.startContainer, range.startOffset);
    const after = document.createRange();
    after.setStart(range.endContainer, range.endOffset);
    after.setEndAfter(root.lastChild ?? root);
    onSelect({ quote, prefix: before.toString().slice(-CONTEXT), suffix: after.toString().slice(0, CONTEXT), version });
  };

  // A click on a highlighted passage opens its thread.
  const onClick = (e: React.MouseEvent) => {
    const root = ref.current;
    if (!root || !window.getSelection()?.isCollapsed) return;
    const caret = (document as unknown as { caretRangeFromPoint?: (x: number, y: number) => Range | null }).caretRangeFromPoint?.(e.clientX, e.clientY);
    if (!caret) return;
    for (const t of threads) {
      if (t.resolved || t.anchor.kind !== "quote" || !t.anchor.current_quote) continue;
      const r = rangeOf(root, t.anchor.current_quote);
      if (r && r.isPointInRange(caret.startContainer, caret.startOffset)) {
        onOpenThread(t.comment_id);
        return;
      }
    }
  };

  return (
    <div className="commentable">
      <p className="commentable__hint" id="commentable-hint">
        Select a passage, then press “Comment on selection” (or Enter with the keyboard).
      </p>
      <div
        ref={ref}
        className="prose commentable__text"
        role="document"
        aria-label="The page's text, to comment on"
        aria-describedby="commentable-hint"
        tabIndex={0}
        onMouseUp={takeSelection}
        onKeyUp={(e) => {
          if (e.key === "Enter" || e.shiftKey) takeSelection();
        }}
        onClick={onClick}
        // Safe: renderMarkdown is the sanitising pipeline the published page uses.
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </div>
  );
}
