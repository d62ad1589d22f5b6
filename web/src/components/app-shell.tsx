import { type ReactNode, useEffect, useRef } from "react";
import { useLocation } from "wouter";
import type { SignedInUser } from "../lib/session";
import { AccountMenu } from "./account-menu";
import { Brand } from "./brand";

/** The signed-in frame: top bar (brand, account menu) and the page below it. */
export function AppShell({ user, children }: { user: SignedInUser; children: ReactNode }) {
  const [location] = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const firstLocation = useRef(location);

  // After moving to another page, start reading (and tabbing) from its content, as a full
  // page load would; the first page keeps the browser's own focus.
  useEffect(() => {
    if (location !== firstLocation.current) mainRef.current?.focus();
  }, [location]);

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Brand />
        {/* Becomes <nav aria-label="Main"> with links to workspaces and agent settings as those pages arrive. */}
        <div className="topbar__nav" />
        <AccountMenu user={user} />
      </header>
      <main id="main" ref={mainRef} className="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
