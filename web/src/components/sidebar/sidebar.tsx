// The sidebar: what was opened lately, and every workspace with its pages and tables (the
// current one open, others opened on demand), plus one-click "New page" in the current one.
// Beside the page on wide screens (it can be hidden, remembered in this browser); on phones
// a drawer opened from the top bar's Menu button.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { useRecent } from "../../lib/recent";
import { useTRPC } from "../../trpc";
import { useNewPage } from "../workspace/use-new-page";
import "./sidebar.css";

function currentWorkspace(location: string): string | null {
  return /^\/buckets\/([^/?#]+)/.exec(location)?.[1] ?? null;
}

function WorkspaceBranch({ slug, name, canWrite, open, onToggle }: { slug: string; name: string; canWrite: boolean; open: boolean; onToggle: () => void }) {
  const trpc = useTRPC();
  const id = useId();
  const [location] = useLocation();
  const pages = useQuery(trpc.pages.list.queryOptions({ workspace: slug, limit: 50 }, { enabled: open }));
  const tables = useQuery(trpc.collections.list.queryOptions({ workspace: slug }, { enabled: open }));
  const newPage = useNewPage(slug);
  const here = (href: string) => (location === href ? "page" : undefined);
  return (
    <li className="sidebar__branch">
      <div className="sidebar__branch-head">
        <button
          type="button"
          className="sidebar__twisty"
          aria-expanded={open}
          aria-controls={`${id}-items`}
          onClick={onToggle}
          aria-label={`Show what is in ${name}`}
        >
          <span aria-hidden="true">{open ? "▾" : "▸"}</span>
        </button>
        <Link href={`/buckets/${slug}`} className="sidebar__link sidebar__link--workspace" aria-current={here(`/buckets/${slug}`)}>
          {name}
        </Link>
        {canWrite ? (
          <button
            type="button"
            className="sidebar__add"
            onClick={newPage.start}
            disabled={newPage.pending}
            aria-label={`Add a page to ${name}`}
            title={`Add a page to ${name}`}
          >
            <span aria-hidden="true">+</span>
          </button>
        ) : null}
      </div>
      {open ? (
        <ul id={`${id}-items`} className="sidebar__items" aria-label={`In ${name}`}>
          {pages.isPending || tables.isPending ? <li className="sidebar__skeleton" aria-hidden="true" /> : null}
          {(pages.data?.pages ?? []).map((p) => (
            <li key={p.page_id}>
              <Link href={`/buckets/${slug}/${p.slug}`} className="sidebar__link" aria-current={here(`/buckets/${slug}/${p.slug}`)}>
                <span className="sidebar__icon" aria-hidden="true">
                  ▤
                </span>
                {p.title}
              </Link>
            </li>
          ))}
          {(tables.data ?? [])
            .filter((t) => t.kind === "table")
            .map((t) => (
              <li key={t.id}>
                <Link href={`/buckets/${slug}/tables/${t.slug}`} className="sidebar__link" aria-current={here(`/buckets/${slug}/tables/${t.slug}`)}>
                  <span className="sidebar__icon" aria-hidden="true">
                    ▦
                  </span>
                  {t.name}
                </Link>
              </li>
            ))}
          {pages.data && tables.data && pages.data.pages.length === 0 && !tables.data.some((t) => t.kind === "table") ? (
            <li className="sidebar__empty">Nothing here yet</li>
          ) : null}
        </ul>
      ) : null}
    </li>
  );
}

export function SidebarContent() {
  const trpc = useTRPC();
  const [location] = useLocation();
  const recent = useRecent();
  const workspaces = useQuery(trpc.workspaces.list.queryOptions());
  const current = currentWorkspace(location);
  const [opened, setOpened] = useState<Record<string, boolean>>({});
  const recentId = useId();
  const allId = useId();
  const shownRecent = recent.filter((r) => r.href !== location).slice(0, 5);

  return (
    <div className="sidebar__content">
      {shownRecent.length > 0 ? (
        <section className="sidebar__section">
          <p className="sidebar__caption" id={recentId}>
            Recent
          </p>
          <ul className="sidebar__items" aria-labelledby={recentId}>
            {shownRecent.map((r) => (
              <li key={r.href}>
                <Link href={r.href} className="sidebar__link">
                  <span className="sidebar__icon" aria-hidden="true">
                    {r.kind === "page" ? "▤" : r.kind === "table" ? "▦" : "◫"}
                  </span>
                  <span className="sidebar__text">{r.title}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section className="sidebar__section">
        <p className="sidebar__caption" aria-hidden="true">
          Workspaces
        </p>
        {workspaces.isPending ? <div className="sidebar__skeleton" aria-hidden="true" /> : null}
        <ul className="sidebar__tree" id={allId} aria-label="Browse everything">
          {(workspaces.data ?? []).map((w) => {
            const open = opened[w.slug] ?? w.slug === current;
            return (
              <WorkspaceBranch
                key={w.slug}
                slug={w.slug}
                name={w.name}
                canWrite={w.can_write}
                open={open}
                onToggle={() => setOpened((o) => ({ ...o, [w.slug]: !open }))}
              />
            );
          })}
        </ul>
      </section>
    </div>
  );
}

const HIDDEN_KEY = "atelier:sidebar-hidden";

function storedHidden(): boolean {
  try {
    return window.localStorage.getItem(HIDDEN_KEY) === "1";
  } catch {
    return false;
  }
}

/** The sidebar beside the page (wide screens), which can be hidden. */
export function useSidebarHidden(): [boolean, (hidden: boolean) => void] {
  const [hidden, setHidden] = useState(storedHidden);
  return [
    hidden,
    (next) => {
      setHidden(next);
      try {
        window.localStorage.setItem(HIDDEN_KEY, next ? "1" : "0");
      } catch {
        // kept for this visit only
      }
    },
  ];
}

/** Phones: the sidebar as a drawer (a modal dialog from the left), closed on the way to a link. */
export function SidebarDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [location] = useLocation();
  const at = useRef(location);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  useEffect(() => {
    if (location !== at.current) {
      at.current = location;
      onClose();
    }
  }, [location, onClose]);
  return (
    <dialog
      ref={ref}
      className="sidebar-drawer"
      aria-label="Menu"
      onClose={onClose}
      onClick={(e) => {
        // A click on the backdrop (the dialog itself, outside its panel) closes it.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <nav className="sidebar sidebar--drawer" aria-label="Sidebar">
        <div className="sidebar-drawer__head">
          <button type="button" className="button button--small" onClick={onClose}>
            Close menu
          </button>
        </div>
        {open ? (
          <>
            {/* The top bar's own links, which a phone has no room for there. */}
            <ul className="sidebar__items sidebar__main" aria-label="Main">
              <li>
                <Link href="/" className="sidebar__link">
                  Workspaces
                </Link>
              </li>
              <li>
                <Link href="/settings/agents" className="sidebar__link">
                  Connected agents
                </Link>
              </li>
            </ul>
            <SidebarContent />
          </>
        ) : null}
      </nav>
    </dialog>
  );
}
