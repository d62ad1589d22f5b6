// /app/: the workspaces you own or belong to, and a way to start a new one.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { AgentIcon } from "../components/actor-name";
import { RoleBadge, SandboxBadge, VisibilityBadge } from "../components/badges";
import { PageError } from "../components/page-state";
import { TimeAgo } from "../components/time-ago";
import { CreateWorkspaceForm } from "../components/workspace/create-workspace-form";
import { formatBytes, plural } from "../lib/format";
import { type RouterOutputs, useTRPC } from "../trpc";
import type { SignedInScreenProps } from "./app-routes";
import "./dashboard.css";

type Workspace = RouterOutputs["workspaces"]["list"][number];

function greeting(date = new Date()): string {
  const hour = date.getHours();
  if (hour < 5) return "Working late";
  if (hour < 12) return "Good morning";
  if (hour < 18) return "Good afternoon";
  return "Good evening";
}

/** Yours first (default workspace at the top), then shared with you; newest first within each. */
function ordered(list: Workspace[], defaultSlug: string | null): Workspace[] {
  const rank = (w: Workspace) => (w.slug === defaultSlug ? 0 : w.role === "owner" ? 1 : 2);
  return [...list].sort((a, b) => rank(a) - rank(b) || b.created_at.localeCompare(a.created_at));
}

function deletedName(state: unknown): string | null {
  const name = state && typeof state === "object" ? (state as { deleted?: unknown }).deleted : null;
  return typeof name === "string" ? name : null;
}

export function DashboardScreen({ user }: SignedInScreenProps) {
  const trpc = useTRPC();
  const workspaces = useQuery(trpc.workspaces.list.queryOptions());
  const commentCounts = useQuery(trpc.comments.workspaceCounts.queryOptions(undefined, { retry: false }));
  const health = useQuery(trpc.system.health.queryOptions(undefined, { staleTime: 60_000 }));
  const [creating, setCreating] = useState(false);
  // Just deleted in Settings: say it is done, once (the history entry forgets it at once).
  const [deleted] = useState(() => deletedName(window.history.state));
  useEffect(() => {
    if (deleted) window.history.replaceState(null, "");
  }, [deleted]);

  const list = workspaces.data ? ordered(workspaces.data, user.defaultWorkspace) : [];

  return (
    <div className="dashboard">
      <title>Workspaces · Atelier</title>
      <header className="page-header page-header--row">
        <div>
          <h1 className="page-header__title">{greeting()}</h1>
          <p className="page-header__lead">Your workspaces, and the ones shared with you.</p>
        </div>
        {!creating && list.length > 0 ? (
          <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
            <span aria-hidden="true">+</span> New workspace
          </button>
        ) : null}
      </header>

      {deleted ? (
        <p className="banner banner--ok" role="status">
          “{deleted}” is deleted, with everything in it.
        </p>
      ) : null}

      {health.data && health.data.database !== "ok" ? (
        <p className="banner banner--warn" role="status">
          Atelier can’t reach its database right now; changes may not save.
        </p>
      ) : null}

      {creating ? (
        <section className="card card--form">
          <CreateWorkspaceForm onCancel={() => setCreating(false)} />
        </section>
      ) : null}

      {workspaces.isPending ? (
        <ul className="workspace-grid" aria-busy="true" aria-label="Loading workspaces">
          {[0, 1, 2].map((i) => (
            <li key={i} className="workspace-tile workspace-tile--skeleton" aria-hidden="true" />
          ))}
        </ul>
      ) : workspaces.isError ? (
        <PageError title="Your workspaces didn’t load" error={workspaces.error} onRetry={() => void workspaces.refetch()} />
      ) : list.length === 0 ? (
        creating ? null : (
          <section className="empty-state">
            <div className="empty-state__art" aria-hidden="true">
              <span />
              <span />
              <span />
            </div>
            <h2 className="empty-state__title">No workspaces yet</h2>
            <p className="empty-state__text">
              A workspace holds pages that you and your agents keep up to date. Start one, then invite people or connect an agent.
            </p>
            <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
              Create your first workspace
            </button>
          </section>
        )
      ) : (
        <ul className="workspace-grid" aria-label="Workspaces">
          {list.map((ws) => (
            <li key={ws.id}>
              <Link href={`/buckets/${ws.slug}`} className="workspace-tile">
                <span className="workspace-tile__head">
                  <span className="workspace-tile__name">{ws.name}</span>
                  {ws.slug === user.defaultWorkspace ? <span className="chip">Default</span> : null}
                </span>
                <span className="workspace-tile__slug">{ws.slug}</span>
                <span className="badge-row">
                  <VisibilityBadge visibility={ws.visibility} />
                  <RoleBadge role={ws.role} />
                  <SandboxBadge sandbox={ws.sandbox} />
                </span>
                <span className="workspace-tile__meta">
                  {plural(ws.usage.pages, "page")} · {formatBytes(ws.usage.bytes)} · <TimeAgo iso={ws.created_at} prefix="created " />
                  {commentCounts.data?.workspaces[ws.slug] ? <> · {plural(commentCounts.data.workspaces[ws.slug] ?? 0, "open comment")}</> : null}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}

      <aside className="card hint-card" aria-labelledby="connect-agent-title">
        <span className="hint-card__icon" aria-hidden="true">
          <AgentIcon size={22} />
        </span>
        <div className="hint-card__body">
          <h2 id="connect-agent-title" className="hint-card__title">
            Let an AI agent work in your workspaces
          </h2>
          <p className="card__text">
            Create a token for Claude Code or any MCP client. Every change it makes is signed with its name, and you can cut it off at any time.
          </p>
        </div>
        <Link href="/settings/agents" className="button">
          Connect an agent
        </Link>
      </aside>
    </div>
  );
}
