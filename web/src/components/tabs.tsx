import { type KeyboardEvent, type ReactNode, useRef } from "react";
import "./tabs.css";

export interface TabItem<K extends string> {
  key: K;
  label: ReactNode;
  /** A small count or marker after the label. */
  badge?: ReactNode;
}

/**
 * WAI-ARIA tabs with automatic activation: arrow keys (and Home/End) move between tabs and
 * show each one; only the selected tab is in the Tab order.
 */
export function Tabs<K extends string>({
  id,
  label,
  items,
  selected,
  onSelect,
}: {
  id: string;
  label: string;
  items: TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
}) {
  const listRef = useRef<HTMLDivElement>(null);

  const move = (event: KeyboardEvent, index: number) => {
    let next: number | null = null;
    if (event.key === "ArrowRight") next = (index + 1) % items.length;
    else if (event.key === "ArrowLeft") next = (index - 1 + items.length) % items.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = items.length - 1;
    if (next === null) return;
    event.preventDefault();
    const item = items[next];
    if (!item) return;
    onSelect(item.key);
    listRef.current?.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus();
  };

  return (
    <div ref={listRef} className="tabs" role="tablist" aria-label={label}>
      {items.map((item, index) => {
        const isSelected = item.key === selected;
        return (
          <button
            key={item.key}
            type="button"
            role="tab"
            id={`${id}-tab-${item.key}`}
            aria-controls={`${id}-panel-${item.key}`}
            aria-selected={isSelected}
            tabIndex={isSelected ? 0 : -1}
            className="tabs__tab"
            onClick={() => onSelect(item.key)}
            onKeyDown={(e) => move(e, index)}
          >
            {item.label}
            {item.badge !== undefined && item.badge !== null ? <span className="tabs__badge">{item.badge}</span> : null}
          </button>
        );
      })}
    </div>
  );
}

export function TabPanel({ id, tab, children }: { id: string; tab: string; children: ReactNode }) {
  return (
    <div role="tabpanel" id={`${id}-panel-${tab}`} aria-labelledby={`${id}-tab-${tab}`} className="tab-panel" tabIndex={0}>
      {children}
    </div>
  );
}
