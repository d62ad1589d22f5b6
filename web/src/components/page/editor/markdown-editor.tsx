// The writing surface: CodeMirror 6 over the page's Markdown (or HTML) as plain text, so the
// stored text is byte for byte what was typed — no model in between that re-serialises an
// agent's Markdown (docs/decisions.md). Markdown is styled as you type (headings larger, bold
// bold, links coloured) with a toolbar and the usual shortcuts; pasting a URL over words links them;
// pasting, dropping or picking an image or file uploads it and inserts its Markdown (editor-files.tsx).
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
// The Markdown language and its keys only, not markdown(): that one brings the HTML, CSS and
// JavaScript languages along for embedded code (twice the download).
import { markdownKeymap, markdownLanguage } from "@codemirror/lang-markdown";
import { HighlightStyle, LanguageSupport, syntaxHighlighting } from "@codemirror/language";
import { Annotation, EditorState } from "@codemirror/state";
import { EditorView, type KeyBinding, keymap, placeholder as placeholderExt } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { useEffect, useRef } from "react";
import { editorUploads, useEditorFiles } from "./editor-files";
import { type InlineMark, insertLink, type LinePrefix, pasteLink, toggleLinePrefix, toggleMark } from "./markdown-commands";

/** Marks a change that came from outside (a merge, a restored draft), not from typing. */
const external = Annotation.define<boolean>();

const markdownStyle = HighlightStyle.define([
  { tag: tags.heading1, fontSize: "1.5em", fontWeight: "700" },
  { tag: tags.heading2, fontSize: "1.3em", fontWeight: "700" },
  { tag: tags.heading3, fontSize: "1.15em", fontWeight: "700" },
  { tag: [tags.heading4, tags.heading5, tags.heading6], fontWeight: "700" },
  { tag: tags.strong, fontWeight: "700" },
  { tag: tags.emphasis, fontStyle: "italic" },
  { tag: tags.strikethrough, textDecoration: "line-through" },
  { tag: [tags.link, tags.url], color: "var(--accent-strong)" },
  { tag: tags.monospace, fontFamily: "var(--mono)", fontSize: "0.92em" },
  { tag: tags.quote, color: "var(--muted)", fontStyle: "italic" },
  { tag: [tags.processingInstruction, tags.contentSeparator, tags.meta], color: "var(--muted)" },
]);

const theme = EditorView.theme({
  "&": { backgroundColor: "var(--surface)", color: "var(--text)" },
  ".cm-content": { padding: "0.875rem 1rem", caretColor: "var(--text)", lineHeight: "1.65" },
  ".cm-cursor": { borderLeftColor: "var(--text)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": { backgroundColor: "var(--accent-soft)" },
  ".cm-placeholder": { color: "var(--muted)" },
});

type Action = { mark: InlineMark } | { prefix: LinePrefix } | { link: true };

const TOOLS: { label: string; icon: string; keys?: string; action: Action }[] = [
  { label: "Bold", icon: "B", keys: "Control+B Meta+B", action: { mark: "bold" } },
  { label: "Italic", icon: "I", keys: "Control+I Meta+I", action: { mark: "italic" } },
  { label: "Strikethrough", icon: "S", action: { mark: "strike" } },
  { label: "Heading", icon: "H", action: { prefix: "heading" } },
  { label: "Link", icon: "🔗", keys: "Control+K Meta+K", action: { link: true } },
  { label: "Code", icon: "</>", keys: "Control+E Meta+E", action: { mark: "code" } },
  { label: "Bulleted list", icon: "•", keys: "Control+Shift+8 Meta+Shift+8", action: { prefix: "bullet" } },
  { label: "Numbered list", icon: "1.", keys: "Control+Shift+7 Meta+Shift+7", action: { prefix: "numbered" } },
  { label: "Task list", icon: "☐", keys: "Control+Shift+9 Meta+Shift+9", action: { prefix: "task" } },
  { label: "Quote", icon: "❝", action: { prefix: "quote" } },
];

function run(view: EditorView, action: Action): boolean {
  const spec =
    "mark" in action ? toggleMark(view.state, action.mark) : "prefix" in action ? toggleLinePrefix(view.state, action.prefix) : insertLink(view.state);
  view.dispatch(view.state.update(spec, { userEvent: "input.format", scrollIntoView: true }));
  return true;
}

const shortcuts: KeyBinding[] = [
  { key: "Mod-b", run: (v) => run(v, { mark: "bold" }) },
  { key: "Mod-i", run: (v) => run(v, { mark: "italic" }) },
  { key: "Mod-e", run: (v) => run(v, { mark: "code" }) },
  // ⌘K / Ctrl-K links the selection while writing, as in Notion, Outline and Google Docs;
  // outside the text it still opens the search.
  { key: "Mod-k", run: (v) => run(v, { link: true }) },
  { key: "Mod-Shift-8", run: (v) => run(v, { prefix: "bullet" }) },
  { key: "Mod-Shift-7", run: (v) => run(v, { prefix: "numbered" }) },
  { key: "Mod-Shift-9", run: (v) => run(v, { prefix: "task" }) },
];

export function MarkdownEditor({
  kind,
  value,
  onChange,
  labelledBy,
  describedBy,
  placeholder,
  autoFocus = false,
  workspace,
}: {
  kind: "markdown" | "html";
  value: string;
  onChange: (value: string) => void;
  labelledBy: string;
  describedBy?: string;
  placeholder?: string;
  autoFocus?: boolean;
  /** The page's workspace: images and files pasted, dropped or picked are uploaded there (Markdown only). */
  workspace?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  const picker = useRef<HTMLInputElement>(null);
  const files = useEditorFiles(kind === "markdown" ? workspace : undefined, view);
  const insertFiles = useRef<((list: File[], pos: number | null) => void) | null>(null);
  insertFiles.current = files.enabled ? files.insertFiles : null;

  useEffect(() => {
    if (!host.current) return undefined;
    const contentAttributes: Record<string, string> = { "aria-labelledby": labelledBy, spellcheck: kind === "markdown" ? "true" : "false" };
    if (describedBy) contentAttributes["aria-describedby"] = describedBy;
    if (kind === "markdown") contentAttributes.autocapitalize = "sentences";
    const state = EditorState.create({
      doc: value,
      extensions: [
        // Only "\n" ends a line: a "\r\n" an agent wrote stays "\r\n" (CodeMirror would otherwise
        // read every line ending as a break and write them all back as "\n").
        EditorState.lineSeparator.of("\n"),
        history(),
        // Enter continues a list or a quote (markdownKeymap), as in other editors.
        keymap.of([...(kind === "markdown" ? [...shortcuts, ...markdownKeymap] : []), ...defaultKeymap, ...historyKeymap]),
        ...(kind === "markdown" ? [new LanguageSupport(markdownLanguage), syntaxHighlighting(markdownStyle)] : []),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of(contentAttributes),
        theme,
        ...(placeholder ? [placeholderExt(placeholder)] : []),
        editorUploads,
        EditorView.domEventHandlers({
          paste: (event, v) => {
            if (kind !== "markdown") return false;
            // A pasted image (a screenshot) or file is uploaded, whatever text comes with it.
            const pasted = [...(event.clipboardData?.files ?? [])];
            if (pasted.length > 0 && insertFiles.current) {
              event.preventDefault();
              insertFiles.current(pasted, null);
              return true;
            }
            const text = event.clipboardData?.getData("text/plain") ?? "";
            const spec = pasteLink(v.state, text);
            if (!spec) return false;
            event.preventDefault();
            v.dispatch(v.state.update(spec, { userEvent: "input.paste" }));
            return true;
          },
          drop: (event, v) => {
            const dropped = [...(event.dataTransfer?.files ?? [])];
            if (dropped.length === 0 || !insertFiles.current) return false;
            event.preventDefault();
            insertFiles.current(dropped, v.posAtCoords({ x: event.clientX, y: event.clientY }) ?? v.state.selection.main.head);
            return true;
          },
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged && !update.transactions.some((tr) => tr.annotation(external))) changed.current(update.state.doc.toString());
        }),
      ],
    });
    const v = new EditorView({ state, parent: host.current });
    view.current = v;
    if (autoFocus) v.focus();
    return () => {
      v.destroy();
      view.current = null;
    };
    // The editor is made once per kind; later values arrive through the effect below.
  }, [kind]);

  // A new value from outside (a merge, "take theirs", a restored draft): replace the text.
  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const now = v.state.doc.toString();
    if (now === value) return;
    // Only the part that differs is replaced, so the cursor stays where the person was writing.
    let start = 0;
    while (start < now.length && start < value.length && now[start] === value[start]) start++;
    let end = 0;
    while (end < now.length - start && end < value.length - start && now[now.length - 1 - end] === value[value.length - 1 - end]) end++;
    v.dispatch({ changes: { from: start, to: now.length - end, insert: value.slice(start, value.length - end) }, annotations: external.of(true) });
  }, [value]);

  return (
    <div className="md-editor">
      {kind === "markdown" ? (
        <div className="md-editor__toolbar" role="toolbar" aria-label="Formatting">
          {TOOLS.map((tool) => (
            <button
              key={tool.label}
              type="button"
              className={`md-editor__tool md-editor__tool--${tool.label.toLowerCase().replace(/\s+/g, "-")}`}
              aria-label={tool.label}
              title={tool.keys ? `${tool.label} (${tool.keys.split(" ")[0]?.replace("Control+", "Ctrl+") ?? ""})` : tool.label}
              aria-keyshortcuts={tool.keys}
              // Keep the selection in the text while clicking.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                const v = view.current;
                if (!v) return;
                run(v, tool.action);
                v.focus();
              }}
            >
              {/* Drawn from CSS so the glyph is not read as the button's visible text: "1." is not
                  part of "Numbered list", and axe (label-content-name-mismatch) holds names to it. */}
              <span aria-hidden="true" className="md-editor__icon" data-icon={tool.icon} />
            </button>
          ))}
          {files.enabled ? (
            <>
              <button
                type="button"
                className="md-editor__tool md-editor__tool--file"
                aria-label="Insert image or file"
                title="Insert image or file (or paste or drop one)"
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => picker.current?.click()}
              >
                <span aria-hidden="true" className="md-editor__icon" data-icon="🖼" />
              </button>
              <input
                ref={picker}
                type="file"
                multiple
                className="sr-only"
                tabIndex={-1}
                aria-label="Choose images or files to insert"
                onChange={(e) => {
                  const picked = [...(e.target.files ?? [])];
                  e.target.value = "";
                  if (picked.length > 0) insertFiles.current?.(picked, null);
                }}
              />
            </>
          ) : null}
        </div>
      ) : null}
      <div className={`md-editor__surface md-editor__surface--${kind}`} ref={host} />
      {files.ui}
    </div>
  );
}
