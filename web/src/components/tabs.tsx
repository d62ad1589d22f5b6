import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";
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
  // On a narrow screen the tabs scroll sideways: a fade (and a chevron) at an edge says more
  // tabs are that way, and the selected tab is always scrolled into view.
  const [more, setMore] = useState({ start: false, end: false });
  useEffect(() => {
    const list = listRef.current;
    if (!list) return undefined;
    const update = () => {
      const start = list.scrollLeft > 1;
      const end = list.scrollLeft + list.clientWidth < list.scrollWidth - 1;
      setMore((m) => (m.start === start && m.end === end ? m : { start, end }));
    };
    update();
    list.addEventListener("scroll", update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(list);
    return () => {
      list.removeEventListener("scroll", update);
      observer.disconnect();
    };
  }, [items.length]);
  useEffect(() => {
    const list = listRef.current;
    const tab = list?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (!list || !tab) return;
    const left = tab.offsetLeft - list.offsetLeft;
    const right = left + tab.offsetWidth;
    // Half a tab of the neighbour stays visible, so it is clear the row goes on.
    if (left < list.scrollLeft) list.scrollLeft = Math.max(0, left - 32);
    else if (right > list.scrollLeft + list.clientWidth) list.scrollLeft = right - list.clientWidth + 32;
  }, [selected]);

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
    <div className="tabs-bar" data-more-start={more.start || undefined} data-more-end={more.end || undefined}>
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
