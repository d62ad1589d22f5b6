import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { type RouterOutputs, useTRPC } from "../../trpc";
import { VisibilityBadge } from "../badges";
import { ConfirmDialog, confirmsMutation } from "../confirm-dialog";
import { CopyButton } from "../copy-button";
import "./panels.css";
import "./sharing-panel.css";

type Workspace = RouterOutputs["workspaces"]["get"];

/** What "public" means, said the same way wherever visibility is shown. */
export function PublicStatement({ slug }: { slug: string }) {
  return (
    <>
      Anyone with the link can read every page at <span className="mono">/a/…</span> and the workspace at <span className="mono">/b/{slug}</span>, without
      signing in. Search engines and link previews may show them. Only members and their agents can change anything.
    </>
  );
}

export function SharingPanel({ workspace }: { workspace: Workspace }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<"public" | "private" | null>(null);
  const setVisibility = useMutation(
    trpc.workspaces.setVisibility.mutationOptions({
      onSuccess: async (ws) => {
        queryClient.setQueryData(trpc.workspaces.get.queryKey({ slug: ws.slug }), ws);
        setConfirming(null);
        await queryClient.invalidateQueries(trpc.workspaces.pathFilter());
      },
    }),
  );
  const isPublic = workspace.visibility === "public";
  // The short link (/b/…) that redirects into the app: the same everywhere it is shown.
  const workspaceLink = `${window.location.origin}/b/${workspace.slug}`;
  const unclaimed = workspace.sandbox?.state === "unclaimed";

  return (
    <section className="panel-section" aria-labelledby="sharing-title">
      <div className="panel-section__head">
        <h2 id="sharing-title" className="section-title">
          Who can read this workspace
        </h2>
        <VisibilityBadge visibility={workspace.visibility} />
      </div>
      <div className={`visibility-card ${isPublic ? "visibility-card--public" : ""}`}>
        {isPublic ? (
          <>
            <p className="visibility-card__title">Public: anyone with the link</p>
            <p className="visibility-card__text">
              <PublicStatement slug={workspace.slug} />
            </p>
            <div className="link-box">
              <span className="link-box__url">{workspaceLink}</span>
              <CopyButton text={workspaceLink} label="Copy the workspace link" />
            </div>
          </>
        ) : (
          <>
            <p className="visibility-card__title">Private: members only</p>
            <p className="visibility-card__text">
              Only the people in this workspace can open it, and agents only through a member’s token. Page links (<span className="mono">/a/…</span>) show “not
              found” to everyone else.
            </p>
          </>
        )}
      </div>
      {workspace.can_manage ? (
        unclaimed ? (
          <p className="muted">An unclaimed sandbox can’t be made public. Claim it first.</p>
        ) : (
          <div className="form-actions form-actions--start">
            <button type="button" className={isPublic ? "button" : "button button--primary"} onClick={() => setConfirming(isPublic ? "private" : "public")}>
              {isPublic ? "Make private…" : "Make public…"}
            </button>
          </div>
        )
      ) : (
        <p className="muted">Only an owner can change who can read this workspace.</p>
      )}

      <ConfirmDialog
        open={confirming === "public"}
        title={`Make “${workspace.name}” public?`}
        confirmLabel="Make public"
        pendingLabel="Publishing…"
        tone="primary"
        {...confirmsMutation(setVisibility, () => setConfirming(null))}
        onConfirm={() => setVisibility.mutate({ slug: workspace.slug, visibility: "public" })}
      >
        <p>
          <PublicStatement slug={workspace.slug} />
        </p>
        <p>This includes every page already in it ({workspace.usage.pages}) and every page added later. You can make it private again at any time.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === "private"}
        title={`Make “${workspace.name}” private?`}
        confirmLabel="Make private"
        pendingLabel="Saving…"
        tone="primary"
        {...confirmsMutation(setVisibility, () => setConfirming(null))}
        onConfirm={() => setVisibility.mutate({ slug: workspace.slug, visibility: "private" })}
      >
        <p>Links that were shared stop working for anyone who isn’t a member. Copies others already saved can’t be taken back.</p>
      </ConfirmDialog>
    </section>
  );
}
