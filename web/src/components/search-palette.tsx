// The ⌘K / Ctrl-K palette: search the workspaces, pages and tables you can read, by title,
// slug or what a page says (each page with the passage that matched, its words marked), and
// go there with the keyboard. A modal dialog holding a combobox (the input) that
// controls a listbox of options, grouped by kind (WAI-ARIA combobox pattern, with
// aria-activedescendant so focus stays in the input while arrows move through the list).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useEffect, useId, useState } from "react";
import { useLocation } from "wouter";
import { describeError } from "../lib/errors";
import { useRecent } from "../lib/recent";
import { isPaletteShortcut, moveActive, recentOptions, type SearchOption, searchOptions } from "../lib/search-options";
import { useTRPC } from "../trpc";
import { ModalDialog } from "./modal-dialog";
import "./search-palette.css";

const GROUPS: SearchOption["group"][] = ["Recent", "Workspaces", "Pages", "Tables"];

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

/** The top bar's search button, and the palette it (or ⌘K / Ctrl-K anywhere) opens. */
export function SearchPalette() {
  const [open, setOpen] = useState(false);
  const mac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      // Already handled (⌘K / Ctrl-K links the selection inside the page editor).
      if (event.defaultPrevented || !isPaletteShortcut(event)) return;
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <>
      <button type="button" className="search-button" onClick={() => setOpen(true)} aria-keyshortcuts="Meta+K Control+K">
        <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path d="M10.5 10.5 14 14" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
        </svg>
        <span className="search-button__label">Search</span>
        <kbd className="search-button__keys" aria-hidden="true">
          {mac ? "⌘K" : "Ctrl K"}
        </kbd>
      </button>
      {open ? <PaletteDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function PaletteDialog({ onClose }: { onClose: () => void }) {
  const id = useId();
  const trpc = useTRPC();
  const [location, navigate] = useLocation();
  const [text, setText] = useState("");
  const [active, setActive] = useState(-1);
  const query = useDebounced(text.trim(), 150);
  const results = useQuery(
    trpc.search.everything.queryOptions({ query }, { enabled: query.length > 0 && query.length <= 100, placeholderData: keepPreviousData, staleTime: 5_000 }),
  );
  const recent = useRecent();
  const options = query ? searchOptions(results.data) : text.trim() ? [] : recentOptions(recent.filter((r) => r.href !== location));
  const current = active >= 0 && active < options.length ? active : options.length > 0 ? 0 : -1;
  const optionId = (i: number) => `${id}-opt-${i}`;

  const go = (option: SearchOption | undefined) => {
    if (!option) return;
    onClose();
    navigate(option.href);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        event.preventDefault();
        const next = moveActive(current, options.length, event.key === "ArrowDown" ? 1 : -1);
        setActive(next);
        document.getElementById(optionId(next))?.scrollIntoView({ block: "nearest" });
        break;
      }
      case "Home":
      case "End":
        if (options.length > 0 && event.ctrlKey) {
          event.preventDefault();
          setActive(event.key === "Home" ? 0 : options.length - 1);
        }
        break;
      case "Enter":
        event.preventDefault();
        go(options[current]);
        break;
      default:
        break;
    }
  };

  const status = !query
    ? options.length > 0
      ? "Recently opened. Type to search your workspaces, pages and tables."
      : "Type to search your workspaces, pages and tables."
    : results.isError
      ? describeError(results.error)
      : results.isPending
        ? "Searching…"
        : options.length === 0
          ? `Nothing matches “${query}”.`
          : `${options.length} ${options.length === 1 ? "result" : "results"}. Use the arrow keys to choose, Enter to open.`;

  let index = -1;
  return (
    <ModalDialog open labelledBy={`${id}-title`} onCancel={onClose} className="dialog palette">
      <h2 id={`${id}-title`} className="sr-only">
        Search
      </h2>
      <div className="palette__field">
        <label htmlFor={`${id}-input`} className="sr-only">
          Search workspaces, pages and tables
        </label>
        <input
          id={`${id}-input`}
          className="palette__input"
          type="text"
          role="combobox"
          aria-expanded={options.length > 0}
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={current >= 0 ? optionId(current) : undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder="Search workspaces, pages and tables…"
          value={text}
          maxLength={100}
          onChange={(e) => {
            setText(e.target.value);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          autoFocus
        />
        <kbd className="palette__esc" aria-hidden="true">
          Esc
        </kbd>
      </div>
      <div id={`${id}-list`} role="listbox" aria-label="Results" className="palette__list">
        {GROUPS.map((group) => {
          const inGroup = options.filter((o) => o.group === group);
          if (inGroup.length === 0) return null;
          return (
            <div key={group} role="group" aria-label={group} className="palette__group">
              <div className="palette__group-title" aria-hidden="true">
                {group}
              </div>
              {inGroup.map((option) => {
                index += 1;
                const i = index;
                return (
                  <div
                    key={option.key}
                    id={optionId(i)}
                    role="option"
                    aria-selected={i === current}
                    className="palette__option"
                    onMouseMove={() => setActive(i)}
                    onClick={() => go(option)}
                  >
                    <span className="palette__option-title">{option.title}</span>
                    <span className="palette__option-detail">{option.detail}</span>
                    {option.snippet ? (
                      <span className="palette__option-snippet">
                        {option.snippet.map((piece, n) => (piece.mark ? <mark key={n}>{piece.text}</mark> : <span key={n}>{piece.text}</span>))}
                      </span>
                    ) : null}
                  </div>
                );
              })}
            </div>
          );
        })}
      </div>
      <p className="palette__status" role="status">
        {status}
      </p>
    </ModalDialog>
  );
}
