// The account button in the top bar: a menu (WAI-ARIA menu button pattern) with the agent
// settings, the connection guide and sign-out actions. Arrow keys, Home/End and Escape work as in any desktop menu.
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { Link } from "wouter";
import { describeError } from "../lib/errors";
import { type SignedInUser, useSignOut } from "../lib/session";
import { EmailAddress } from "./email-address";
import { ConfirmDialog, confirmsMutation } from "./confirm-dialog";
import "./account-menu.css";

function initialOf(email: string): string {
  return (email.trim()[0] ?? "?").toUpperCase();
}

export function AccountMenu({ user }: { user: SignedInUser }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const signOut = useSignOut();

  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
  const focusItem = (index: number) => {
    const list = items();
    if (list.length === 0) return;
    list[(index + list.length) % list.length]?.focus();
  };
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  // Opening moves focus into the menu; a click anywhere else closes it.
  useEffect(() => {
    if (!open) return undefined;
    focusItem(0);
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const list = items();
    const current = list.indexOf(document.activeElement as HTMLElement);
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        focusItem(current + 1);
        break;
      case "ArrowUp":
        event.preventDefault();
        focusItem(current - 1);
        break;
      case "Home":
        event.preventDefault();
        focusItem(0);
        break;
      case "End":
        event.preventDefault();
        focusItem(list.length - 1);
        break;
      case "Escape":
        event.preventDefault();
        close(true);
        break;
      case "Tab":
        close(false);
        break;
      default:
        break;
    }
  };

  const failure = signOut.here.error ?? signOut.everywhere.error;

  return (
    <div className="account">
      <button
        ref={buttonRef}
        type="button"
        className="account__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={`${id}-menu`}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={onButtonKeyDown}
      >
        <span className="avatar" aria-hidden="true">
          {initialOf(user.email)}
        </span>
        <span className="sr-only">Account menu: </span>
        <span className="account__email" data-testid="account-email">
          {user.email}
        </span>
        <svg className="account__chevron" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
          <path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
      </button>
      <div ref={menuRef} id={`${id}-menu`} className="menu" role="menu" aria-label="Account" hidden={!open} onKeyDown={onMenuKeyDown}>
        <div className="menu__header" role="none">
          <span className="menu__caption">Signed in as</span>
          <span className="menu__email">
            <EmailAddress email={user.email} />
          </span>
        </div>
        <Link href="/settings/agents" role="menuitem" tabIndex={-1} className="menu__item" onClick={() => close(false)}>
          Connected agents
          <span className="menu__item-hint">Tokens that let AI agents work here</span>
        </Link>
        {/* A server page, not part of the app: a full navigation. */}
        <a href="/docs/connect/agents" role="menuitem" tabIndex={-1} className="menu__item" onClick={() => close(false)}>
          How to connect an agent
          <span className="menu__item-hint">Guide for Claude Code and other MCP clients</span>
        </a>
        <div className="menu__separator" role="separator" />
        <button
          type="button"
          role="menuitem"
          tabIndex={-1}
          className="menu__item"
          disabled={signOut.pending}
          onClick={() => {
            close(true);
            signOut.here.mutate();
          }}
        >
          Sign out
        </button>
        <button
          type="button"
          role="menuitem"
          tabIndex={-1}
          className="menu__item"
          disabled={signOut.pending}
          onClick={() => {
            close(false);
            setConfirming(true);
          }}
        >
          Sign out everywhere…
          <span className="menu__item-hint">Ends your sessions on every device</span>
        </button>
      </div>
      <p className="account__status" role="status" aria-live="polite">
        {signOut.pending ? "Signing out…" : failure ? `Couldn’t sign out. ${describeError(failure)}` : ""}
      </p>
      <ConfirmDialog
        open={confirming}
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        pendingLabel="Signing out…"
        {...confirmsMutation(signOut.everywhere, () => {
          setConfirming(false);
          buttonRef.current?.focus();
        })}
        onConfirm={() => signOut.everywhere.mutate()}
      >
        <p>
          This ends your sessions on every device and browser, including this one. You’ll need a new code from your e-mail to sign in again. Agent tokens are
          not affected.
        </p>
      </ConfirmDialog>
    </div>
  );
}
