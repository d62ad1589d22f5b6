import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { useLiveUpdates } from "../lib/live-updates";
import type { SignedInUser } from "../lib/session";
import { AccountMenu } from "./account-menu";
import { Brand } from "./brand";
import { OfflineBanner, SignedOutDialog } from "./connection-notices";
import { SearchPalette } from "./search-palette";
import { SidebarContent, SidebarDrawer, useSidebarHidden } from "./sidebar/sidebar";
import "./app-shell.css";

/** A top-bar link that knows when it is the current page. */
function NavLink({ href, match, children }: { href: string; match: (path: string) => boolean; children: ReactNode }) {
  const [location] = useLocation();
  const current = match(location);
  return (
    <Link href={href} className="topbar__link" aria-current={current ? "page" : undefined}>
      {children}
    </Link>
  );
}

/**
 * The frame of every page: top bar and the page below it. Signed in, the bar has the main
 * links and the account menu; a visitor (user null) reading a public workspace gets "Sign in".
 */
export function AppShell({ user, children }: { user: SignedInUser | null; children: ReactNode }) {
  const [location] = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const firstLocation = useRef(location);
  // One live stream per signed-in tab: what is on screen updates in place.
  useLiveUpdates(user !== null);

  // After moving to another page, start reading (and tabbing) from its content, as a full
  // page load would; the first page keeps the browser's own focus.
  useEffect(() => {
    // Not when the same screen only took a new address (a new page named on its first save):
    // the person is typing there.
    const keepFocus = (window.history.state as { keepFocus?: boolean } | null)?.keepFocus === true;
    if (location !== firstLocation.current && !keepFocus) mainRef.current?.focus();
  }, [location]);

  const [sidebarHidden, setSidebarHidden] = useSidebarHidden();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className={user ? "topbar" : "topbar topbar--visitor"}>
        {user ? (
          <>
            <button
              type="button"
              className="button button--small button--quiet sidebar-toggle sidebar-toggle--side"
              aria-expanded={!sidebarHidden}
              aria-controls="sidebar"
              onClick={() => setSidebarHidden(!sidebarHidden)}
            >
              {sidebarHidden ? "Show sidebar" : "Hide sidebar"}
            </button>
            <button
              type="button"
              className="button button--small button--quiet sidebar-toggle sidebar-toggle--drawer"
              aria-haspopup="dialog"
              aria-expanded={drawerOpen}
              onClick={() => setDrawerOpen(true)}
            >
              Menu
            </button>
          </>
        ) : null}
        <Brand />
        {user ? (
          <nav className="topbar__nav" aria-label="Main">
            <NavLink href="/" match={(p) => p === "/" || p.startsWith("/buckets/")}>
              Workspaces
            </NavLink>
            {/* "Connected agents", as the page is called: a workspace's own "Agents" tab lists the
                agents at work there. On a phone these links are in the Menu drawer instead. */}
            <NavLink href="/settings/agents" match={(p) => p.startsWith("/settings/agents")}>
              Connected agents
            </NavLink>
          </nav>
        ) : (
          <div className="topbar__nav" />
        )}
        {user ? <SearchPalette /> : null}
        {user ? (
          <AccountMenu user={user} />
        ) : (
          <Link href={`/sign-in?next=${encodeURIComponent(location)}`} className="button button--primary button--small">
            Sign in
          </Link>
        )}
      </header>
      <OfflineBanner />
      <div className="shell__body">
        {user && !sidebarHidden ? (
          <nav id="sidebar" className="sidebar sidebar--side" aria-label="Sidebar">
            <SidebarContent />
          </nav>
        ) : null}
        <main id="main" ref={mainRef} className="main" tabIndex={-1}>
          {children}
        </main>
      </div>
      {user ? <SidebarDrawer open={drawerOpen} onClose={closeDrawer} /> : null}
      <SignedOutDialog email={user?.email ?? null} />
    </div>
  );
}
