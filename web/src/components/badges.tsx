import type { ReactNode } from "react";
import "./badges.css";

type Visibility = "public" | "private";
type Role = "owner" | "editor" | "viewer";
type SandboxState = "unclaimed" | "claimed" | "expired";

export function Badge({ tone = "neutral", title, children }: { tone?: "neutral" | "accent" | "ok" | "warn"; title?: string; children: ReactNode }) {
  return (
    <span className={`badge badge--${tone}`} title={title}>
      {children}
    </span>
  );
}

export function VisibilityBadge({ visibility }: { visibility: Visibility }) {
  return visibility === "public" ? (
    <Badge tone="ok" title="Anyone with the link can read its pages">
      <svg width="12" height="12" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <circle cx="8" cy="8" r="6.25" fill="none" stroke="currentColor" strokeWidth="1.5" />
        <path d="M1.75 8h12.5M8 1.75c2 2 2 10.5 0 12.5M8 1.75c-2 2-2 10.5 0 12.5" fill="none" stroke="currentColor" strokeWidth="1.3" />
      </svg>
      Public
    </Badge>
  ) : (
    <Badge title="Only members can see it">
      <svg width="12" height="12" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <rect x="3" y="7" width="10" height="7" rx="1.75" fill="none" stroke="currentColor" strokeWidth="1.5" />
        <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" fill="none" stroke="currentColor" strokeWidth="1.5" />
      </svg>
      Private
    </Badge>
  );
}

export const ROLE_NAMES: Record<Role, string> = { owner: "Owner", editor: "Editor", viewer: "Viewer" };

export function RoleBadge({ role }: { role: Role | null }) {
  if (!role) return null;
  return <Badge tone={role === "owner" ? "accent" : "neutral"}>{ROLE_NAMES[role]}</Badge>;
}

export function SandboxBadge({ sandbox }: { sandbox: { state: SandboxState } | null }) {
  if (!sandbox) return null;
  switch (sandbox.state) {
    case "claimed":
      return (
        <Badge tone="warn" title="Started by an agent in an anonymous sandbox, then claimed by you">
          Claimed sandbox
        </Badge>
      );
    case "unclaimed":
      return (
        <Badge tone="warn" title="An agent’s temporary sandbox, not yet claimed by a person">
          Unclaimed sandbox
        </Badge>
      );
    case "expired":
      return <Badge tone="warn">Expired sandbox</Badge>;
  }
}
