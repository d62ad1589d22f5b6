import { useState } from "react";
import { Link } from "wouter";
import { describeError } from "../../lib/errors";
import { useSetAgentBlocked, useWorkspaceAgents, type WorkspaceAgent } from "../../lib/collaboration";
import { AgentIcon } from "../actor-name";
import { Badge } from "../badges";
import { ConfirmDialog, confirmsMutation } from "../confirm-dialog";
import { TimeAgo } from "../time-ago";
import { QueryFallback } from "../load-error";
import { EmptyState } from "../empty-state";
import "./panels.css";
import "./agents-panel.css";

/** The agents (tokens) that have acted here, for whom, when; an owner can cut one off. */
export function AgentsPanel({ slug, canManage }: { slug: string; canManage: boolean }) {
  const agents = useWorkspaceAgents(slug, true);
  const setBlocked = useSetAgentBlocked();
  const [cutting, setCutting] = useState<WorkspaceAgent | null>(null);

  return (
    <section className="panel-section" aria-labelledby="agents-title">
      <div className="panel-section__head">
        <h2 id="agents-title" className="section-title">
          Agents in this workspace
        </h2>
        <Link href="/settings/agents" className="button button--small">
          Connect an agent
        </Link>
      </div>
      <p className="muted">
        Agents show up here once they have read or written something in this workspace.
        {canManage ? " Cutting one off stops it here at once; its token keeps working in other workspaces." : null}
      </p>
      {!agents.isSuccess ? (
        <QueryFallback query={agents} loading="Loading agents…" what="The agents" />
      ) : agents.data.length === 0 ? (
        <EmptyState title="No agent has worked here yet">
          Create a token in <Link href="/settings/agents">Connected agents</Link> and give it to Claude Code or another MCP client.
        </EmptyState>
      ) : (
        <ul className="agent-list" aria-label="Agents">
          {agents.data.map((agent) => (
            <li key={agent.token_id} className={`agent-row ${agent.blocked ? "agent-row--blocked" : ""}`}>
              <span className="agent-row__icon" aria-hidden="true">
                <AgentIcon size={18} />
              </span>
              <span className="agent-row__who">
                <span className="agent-row__label">
                  {agent.label}
                  {agent.blocked ? <Badge tone="warn">Cut off here</Badge> : null}
                  {agent.status === "revoked" ? <Badge>Token revoked</Badge> : agent.status === "expired" ? <Badge>Token expired</Badge> : null}
                </span>
                <span className="agent-row__meta">
                  {agent.acting_for ? `for ${agent.acting_for}` : "anonymous, not claimed"}
                  <span aria-hidden="true"> · </span>
                  {agent.last_active_at ? <TimeAgo iso={agent.last_active_at} prefix="last active " /> : "not active yet"}
                </span>
              </span>
              {canManage ? (
                agent.blocked ? (
                  <button
                    type="button"
                    className="button button--small"
                    disabled={setBlocked.isPending}
                    onClick={() => setBlocked.mutate({ slug, token_id: agent.token_id, blocked: false })}
                    aria-label={`Restore access for ${agent.label}`}
                  >
                    Restore access
                  </button>
                ) : (
                  <button
                    type="button"
                    className="button button--small button--quiet-danger"
                    onClick={() => setCutting(agent)}
                    aria-label={`Cut ${agent.label} off this workspace`}
                  >
                    Cut off
                  </button>
                )
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {setBlocked.isError && cutting === null ? (
        <p className="field__error" role="alert">
          {describeError(setBlocked.error)}
        </p>
      ) : null}
      <ConfirmDialog
        open={cutting !== null}
        title={`Cut ${cutting?.label ?? "this agent"} off?`}
        confirmLabel="Cut off"
        pendingLabel="Cutting off…"
        {...confirmsMutation(setBlocked, () => setCutting(null))}
        onConfirm={() => {
          if (cutting) {
            setBlocked.mutate({ slug, token_id: cutting.token_id, blocked: true }, { onSuccess: () => setCutting(null) });
          }
        }}
      >
        <p>
          It can no longer read or change anything in this workspace, starting with its next request. What it wrote stays, signed with its name. You can restore
          its access later.
        </p>
      </ConfirmDialog>
    </section>
  );
}
