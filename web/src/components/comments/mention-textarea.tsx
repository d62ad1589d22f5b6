// A comment's text area that offers the workspace's members and agents after "@"
// (docs/comments.md#mentions), as an ARIA combobox: the list opens under the text area,
// ↑/↓ move through it, Enter or Tab takes the highlighted one, Escape closes it.
import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, type RefObject, useId, useMemo, useState } from "react";
import { useTRPC } from "../../trpc";

type Mentionable = { kind: "member" | "agent"; handle: string; label: string };

/** The "@word" being typed just before the caret, if any: where it starts and what is typed so far. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const m = /(?:^|[\s(])@([\p{L}\p{N}._+-]*)$/u.exec(text.slice(0, caret));
  if (!m) return null;
  const query = m[1] ?? "";
  return { start: caret - query.length - 1, query: query.toLowerCase() };
}

export function useMentionables(workspace: string | null) {
  const trpc = useTRPC();
  return useQuery(trpc.comments.mentionables.queryOptions({ workspace: workspace ?? "" }, { enabled: Boolean(workspace), staleTime: 60_000, retry: false }));
}

export function MentionTextarea({
  workspace,
  value,
  onChange,
  label,
  rows = 2,
  textareaRef,
  onEscape,
}: {
  workspace: string | null;
  value: string;
  onChange: (next: string) => void;
  label: string;
  rows?: number;
  textareaRef?: RefObject<HTMLTextAreaElement | null>;
  /** Escape with no list open (e.g. to cancel an edit). */
  onEscape?: () => void;
}) {
  const listId = useId();
  const people = useMentionables(workspace);
  const [caret, setCaret] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const at = caret >= 0 ? mentionAt(value, caret) : null;
  const options = useMemo<Mentionable[]>(() => {
    if (!at) return [];
    const all = people.data ?? [];
    const starts = all.filter((p) => p.handle.startsWith(at.query) || p.label.toLowerCase().startsWith(at.query));
    const within = all.filter((p) => !starts.includes(p) && (p.handle.includes(at.query) || p.label.toLowerCase().includes(at.query)));
    return [...starts, ...within].slice(0, 8);
  }, [at, people.data]);
  const open = at !== null && dismissed !== at.start && options.length > 0;
  const current = open ? Math.min(active, options.length - 1) : -1;

  const pick = (p: Mentionable, el: HTMLTextAreaElement) => {
    if (!at) return;
    const before = value.slice(0, at.start);
    const after = value.slice(caret);
    const insert = `@${p.handle} `;
    const next = before + insert + (after.startsWith(" ") ? after.slice(1) : after);
    onChange(next);
    const pos = before.length + insert.length;
    setCaret(pos);
    setActive(0);
    window.requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(pos, pos);
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const step = e.key === "ArrowDown" ? 1 : -1;
        setActive((current + step + options.length) % options.length);
        return;
      }
      if (e.key === "Enter" || e.key === "Tab") {
        const p = options[current];
        if (p) {
          e.preventDefault();
          pick(p, e.currentTarget);
        }
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        if (at) setDismissed(at.start);
        return;
      }
    } else if (e.key === "Escape" && onEscape) {
      e.preventDefault();
      onEscape();
    }
  };

  const optionId = (i: number) => `${listId}-o${i}`;
  return (
    <div className="mention-field">
      <textarea
        ref={textareaRef}
        value={value}
        rows={rows}
        maxLength={10_000}
        placeholder={label}
        aria-label={label}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && current >= 0 ? optionId(current) : undefined}
        onChange={(e) => {
          onChange(e.target.value);
          setCaret(e.target.selectionStart);
          setDismissed(null);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        onBlur={() => setCaret(-1)}
      />
      <ul id={listId} role="listbox" aria-label="People and agents to mention" className="mention-list" hidden={!open}>
        {open
          ? options.map((p, i) => (
              <li
                key={`${p.kind}:${p.handle}`}
                id={optionId(i)}
                role="option"
                aria-selected={i === current}
                className={`mention-list__option ${i === current ? "mention-list__option--active" : ""}`}
                onMouseDown={(e) => {
                  e.preventDefault();
                  const el = (e.currentTarget.closest(".mention-field") as HTMLElement | null)?.querySelector("textarea");
                  if (el) pick(p, el);
                }}
              >
                <span className="mention-list__handle">@{p.handle}</span>{" "}
                <span className="mention-list__label">{p.kind === "agent" ? `agent · ${p.label}` : p.label}</span>
              </li>
            ))
          : null}
      </ul>
    </div>
  );
}
