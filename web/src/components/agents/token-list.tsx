import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import { daysUntil, formatDate } from "../../lib/format";
import { type RouterOutputs, useTRPC } from "../../trpc";
import { AgentIcon } from "../actor-name";
import { Badge } from "../badges";
import { ConfirmDialog, confirmsMutation } from "../confirm-dialog";
import { TimeAgo } from "../time-ago";
import { QueryFallback } from "../load-error";
import { EmptyState } from "../empty-state";
import "./token-list.css";

type Token = RouterOutputs["tokens"]["list"][number];
type Issued = RouterOutputs["tokens"]["rotate"];

const SCOPE_NAMES: Record<string, string> = { "mcp:read": "Read", "mcp:write": "Write" };

function StatusBadge({ token }: { token: Token }) {
  switch (token.status) {
    case "active": {
      const days = daysUntil(token.expires_at);
      return days <= 7 ? <Badge tone="warn">{days <= 1 ? "Expires today" : `Expires in ${days} days`}</Badge> : <Badge tone="ok">Active</Badge>;
    }
    case "revoked":
      return <Badge>Revoked</Badge>;
    case "expired":
      return <Badge>Expired</Badge>;
  }
}

function kindNote(kind: Token["kind"]): string | null {
  switch (kind) {
    case "user":
      return null;
    case "claimed_anonymous":
      return "Started in an anonymous sandbox you claimed";
    case "anonymous":
      return "Anonymous sandbox token";
    case "verified_email":
      return "Registered by an agent with your verified e-mail";
    case "oauth":
      return "Connected through sign-in (OAuth): the app asked, you allowed it";
  }
}

/** Where a client identified itself: the host of its metadata document, else its registered id. */
function clientHost(clientId: string): string {
  try {
    const u = new URL(clientId);
    return u.host;
  } catch {
    return clientId.length > 24 ? `${clientId.slice(0, 24)}…` : clientId;
  }
}

export function TokenList({ onIssued }: { onIssued: (issued: Issued, label: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tokens = useQuery(trpc.tokens.list.queryOptions());
  const [rotating, setRotating] = useState<Token | null>(null);
  const [revoking, setRevoking] = useState<Token | null>(null);
  const [showInactive, setShowInactive] = useState(false);

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });
  const rotate = useMutation(
    trpc.tokens.rotate.mutationOptions({
      onSuccess: async (issued) => {
        onIssued(issued, rotating?.label ?? "Token");
        setRotating(null);
        await refresh();
      },
    }),
  );
  const revoke = useMutation(
    trpc.tokens.revoke.mutationOptions({
      onSuccess: async () => {
        setRevoking(null);
        await refresh();
      },
    }),
  );

  if (!tokens.isSuccess) return <QueryFallback query={tokens} loading="Loading your tokens…" what="Your tokens" />;

  const active = tokens.data.filter((t) => t.status === "active");
  const inactive = tokens.data.filter((t) => t.status !== "active");
  const shown = showInactive ? [...active, ...inactive] : active;

  return (
    <>
      {active.length === 0 ? <EmptyState title="No active tokens">Create a token, then give it to your agent.</EmptyState> : null}
      {shown.length > 0 ? (
        <ul className="token-list" aria-label="Your tokens">
          {shown.map((token) => {
            const note = kindNote(token.kind);
            return (
              <li key={token.token_id} className={`token ${token.status !== "active" ? "token--inactive" : ""}`}>
                <div className="token__head">
                  <span className="token__icon" aria-hidden="true">
                    <AgentIcon size={18} />
                  </span>
                  <span className="token__name">
                    {token.label}
                    {token.agent_label && token.agent_label !== token.label ? <span className="muted"> · calls itself “{token.agent_label}”</span> : null}
                  </span>
                  <StatusBadge token={token} />
                </div>
                {token.oauth ? (
                  <p className="token__client">
                    <Badge tone="accent">Signed in</Badge>{" "}
                    <span className="muted">
                      {token.oauth.via === "metadata_document" ? "Client " : "Registered client "}
                      <span className="mono">{clientHost(token.oauth.client_id)}</span>
                    </span>
                  </p>
                ) : (
                  <code className="token__hint" aria-label="Credential begins with">
                    {token.hint}
                  </code>
                )}
                <dl className="token__facts">
                  <div>
                    <dt>May</dt>
                    <dd>{token.scopes.map((s) => SCOPE_NAMES[s] ?? s).join(" and ")}</dd>
                  </div>
                  <div className="token__where">
                    <dt>Where</dt>
                    <dd>
                      {token.workspaces === null
                        ? "All your workspaces"
                        : token.workspaces.map((slug, i) => (
                            <span key={slug}>
                              {i > 0 ? ", " : ""}
                              <Link href={`/buckets/${slug}`}>{slug}</Link>
                            </span>
                          ))}
                    </dd>
                  </div>
                  <div>
                    <dt>Last used</dt>
                    <dd>{token.last_used_at ? <TimeAgo iso={token.last_used_at} /> : "Never"}</dd>
                  </div>
                  <div>
                    <dt>{token.status === "revoked" ? "Revoked" : token.status === "expired" ? "Expired" : "Expires"}</dt>
                    <dd>{token.status === "revoked" && token.revoked_at ? formatDate(token.revoked_at) : formatDate(token.expires_at)}</dd>
                  </div>
                  <div>
                    <dt>Created</dt>
                    <dd>{formatDate(token.created_at)}</dd>
                  </div>
                </dl>
                {note ? <p className="token__note">{note}</p> : null}
                {token.status === "active" ? (
                  <div className="token__actions">
                    {token.oauth ? null : (
                      <button type="button" className="button button--small" onClick={() => setRotating(token)}>
                        Rotate…
                      </button>
                    )}
                    <button type="button" className="button button--small button--quiet-danger" onClick={() => setRevoking(token)}>
                      Revoke…
                    </button>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      {inactive.length > 0 ? (
        <button type="button" className="button button--link" aria-expanded={showInactive} onClick={() => setShowInactive((v) => !v)}>
          {showInactive ? "Hide revoked and expired tokens" : `Show ${inactive.length} revoked or expired`}
        </button>
      ) : null}

      <ConfirmDialog
        open={rotating !== null}
        title={`Rotate “${rotating?.label ?? ""}”?`}
        confirmLabel="Rotate"
        pendingLabel="Rotating…"
        tone="primary"
        {...confirmsMutation(rotate, () => setRotating(null))}
        onConfirm={() => {
          if (rotating) rotate.mutate({ token_id: rotating.token_id });
        }}
      >
        <p>
          You get a new credential, shown once. The current one stops working right away, so the agent needs the new one to go on. Its name, permissions,
          workspaces and expiry stay the same.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.label ?? ""}”?`}
        confirmLabel="Revoke"
        pendingLabel="Revoking…"
        {...confirmsMutation(revoke, () => setRevoking(null))}
        onConfirm={() => {
          if (revoking) revoke.mutate({ token_id: revoking.token_id });
        }}
      >
        <p>
          {revoking?.oauth
            ? "The app loses access on its very next request, in every workspace, and cannot refresh it. What it wrote stays, signed with its name. To use it again, connect it again and sign in."
            : "The agent using it loses access on its very next request, in every workspace. What it wrote stays, signed with its name. This can’t be undone; you can create a new token later."}
        </p>
      </ConfirmDialog>
    </>
  );
}
