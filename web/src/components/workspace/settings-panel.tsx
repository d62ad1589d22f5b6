// The owner's settings of a workspace: its name, its share links (those agents made too), its webhooks,
// and deleting it, with what happens to everything in it said plainly.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useLocation } from "wouter";
import { describeError, fieldIssue } from "../../lib/errors";
import { plural } from "../../lib/format";
import { type RouterOutputs, useTRPC } from "../../trpc";
import { ConfirmDialog, confirmsMutation } from "../confirm-dialog";
import { CopyButton } from "../copy-button";
import { Field, TextField } from "../field";
import { QueryFallback } from "../load-error";
import { ModalDialog } from "../modal-dialog";
import { TimeAgo } from "../time-ago";
import { ArchiveSection } from "./archive-section";
import { WebhooksSection } from "./webhooks-section";
import "./panels.css";
import "./settings-panel.css";

type Workspace = RouterOutputs["workspaces"]["get"];
type ShareLink = RouterOutputs["workspaces"]["shareLinks"]["list"][number];

export function SettingsPanel({ workspace }: { workspace: Workspace }) {
  return (
    <div className="settings">
      <NameSection workspace={workspace} />
      <ShareLinksSection workspace={workspace} />
      <ArchiveSection workspace={workspace} />
      <WebhooksSection workspace={workspace} />
      <DeleteSection workspace={workspace} />
    </div>
  );
}

function NameSection({ workspace }: { workspace: Workspace }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState(workspace.name);
  const [saved, setSaved] = useState(false);
  const rename = useMutation(
    trpc.workspaces.rename.mutationOptions({
      onSuccess: async (ws) => {
        queryClient.setQueryData(trpc.workspaces.get.queryKey({ slug: ws.slug }), ws);
        setSaved(true);
        await queryClient.invalidateQueries(trpc.workspaces.pathFilter());
      },
    }),
  );
  const problem = name.trim() ? null : "Give the workspace a name.";
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    rename.mutate({ slug: workspace.slug, name: name.trim() });
  };
  return (
    <section className="panel-section settings__section" aria-labelledby="settings-name-title">
      <h2 id="settings-name-title" className="section-title">
        Name
      </h2>
      <form className="settings__row-form" onSubmit={submit} noValidate>
        <TextField
          label="Workspace name"
          hint={
            <>
              Its address stays <span className="mono">/b/{workspace.slug}</span>, so links keep working.
            </>
          }
          error={(rename.error ? (fieldIssue(rename.error, "name") ?? describeError(rename.error)) : null) ?? (name.trim() ? null : problem)}
          value={name}
          maxLength={100}
          onChange={(v) => {
            setName(v);
            setSaved(false);
            if (rename.isError) rename.reset();
          }}
        />
        <button type="submit" className="button button--primary" disabled={rename.isPending || name.trim() === workspace.name || Boolean(problem)}>
          {rename.isPending ? "Saving…" : "Rename"}
        </button>
      </form>
      <p className="notice" role="status" aria-live="polite">
        {saved ? "Renamed." : null}
      </p>
    </section>
  );
}

function ShareLinksSection({ workspace }: { workspace: Workspace }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const slug = workspace.slug;
  const links = useQuery(trpc.workspaces.shareLinks.list.queryOptions({ slug }));
  const pages = useQuery(trpc.pages.list.queryOptions({ workspace: slug, limit: 200 }));
  const [target, setTarget] = useState("");
  const [lifetime, setLifetime] = useState("30");
  const [created, setCreated] = useState<{ url: string; what: string } | null>(null);
  const [revoking, setRevoking] = useState<ShareLink | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.workspaces.shareLinks.list.queryFilter({ slug }));
  const create = useMutation(
    trpc.workspaces.shareLinks.create.mutationOptions({
      onSuccess: async (link) => {
        setCreated({ url: link.url, what: link.page_slug ? `the page ${link.page_slug}` : "every page of this workspace" });
        await refresh();
      },
    }),
  );
  const revoke = useMutation(
    trpc.workspaces.shareLinks.revoke.mutationOptions({
      onSuccess: async () => {
        setRevoking(null);
        await refresh();
      },
    }),
  );
  const titleOf = new Map((pages.data?.pages ?? []).map((p) => [p.slug, p.title]));
  const unclaimed = workspace.sandbox?.state === "unclaimed";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setCreated(null);
    const expires_in_days = lifetime === "never" ? null : Number(lifetime);
    create.mutate(target ? { slug, page: target, expires_in_days } : { slug, expires_in_days });
  };

  return (
    <section className="panel-section settings__section" aria-labelledby="settings-links-title">
      <h2 id="settings-links-title" className="section-title">
        Share links
      </h2>
      <p className="muted">
        A share link lets anyone who has it read one page, or every page here, without an account, even while the workspace is private. Links that agents made
        show here too. Revoke one and it stops working at once; a link also stops at its end date, and when whoever made it can no longer share here (a person
        no longer an owner, an agent revoked or cut off).
      </p>
      {unclaimed ? (
        <p className="muted">An unclaimed sandbox can’t be shared. Claim it first.</p>
      ) : (
        <form className="settings__row-form" onSubmit={submit} noValidate aria-label="New share link">
          <Field label="What the link opens">
            {(control) => (
              <select {...control} className="select select--field" value={target} onChange={(e) => setTarget(e.target.value)}>
                <option value="">Every page of this workspace</option>
                {(pages.data?.pages ?? []).map((p) => (
                  <option key={p.slug} value={p.slug}>
                    Page: {p.title} ({p.slug})
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Works for">
            {(control) => (
              <select {...control} className="select select--field" value={lifetime} onChange={(e) => setLifetime(e.target.value)}>
                <option value="1">1 day</option>
                <option value="7">7 days</option>
                <option value="30">30 days</option>
                <option value="90">90 days</option>
                <option value="never">No end date</option>
              </select>
            )}
          </Field>
          <button type="submit" className="button button--primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create link"}
          </button>
        </form>
      )}
      {create.isError ? (
        <p className="field__error" role="alert">
          Couldn’t create the link. {describeError(create.error)}
        </p>
      ) : null}
      {created ? (
        <div className="callout settings__created" role="status">
          <p>A link to {created.what}. It stays in the list below to copy again later.</p>
          <div className="link-box">
            <span className="link-box__url" data-testid="new-share-link">
              {created.url}
            </span>
            <CopyButton text={created.url} label="Copy the share link" />
          </div>
        </div>
      ) : null}
      {!links.isSuccess ? (
        <QueryFallback query={links} loading="Loading share links…" what="The share links" />
      ) : links.data.length === 0 ? (
        <p className="muted">No share links yet.</p>
      ) : (
        <ul className="member-list" aria-label="Share links">
          {links.data.map((l) => {
            const what = l.page_slug ? `Page: ${titleOf.get(l.page_slug) ?? l.page_slug}` : l.page_id ? "A page that is gone" : "Every page";
            return (
              <li key={l.link_id} className="member-row">
                <span className="member-row__who">
                  <span className="member-row__email">{what}</span>
                  <span className="member-row__meta">
                    Made by {l.created_by} · <TimeAgo iso={l.created_at} /> ·{" "}
                    {l.last_used_at ? <TimeAgo iso={l.last_used_at} prefix="last used " /> : "never used"} ·{" "}
                    {l.expires_at ? `works until ${new Date(l.expires_at).toLocaleDateString()}` : "no end date"}
                  </span>
                </span>
                {l.url ? <CopyButton text={l.url} label={`Copy the link to ${what.toLowerCase()}`} /> : null}
                <button type="button" className="button button--small" onClick={() => setRevoking(l)} aria-label={`Revoke the link to ${what.toLowerCase()}`}>
                  Revoke
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this share link?"
        confirmLabel="Revoke"
        pendingLabel="Revoking…"
        {...confirmsMutation(revoke, () => setRevoking(null))}
        onConfirm={() => {
          if (revoking) revoke.mutate({ slug, link_id: revoking.link_id });
        }}
      >
        <p>Anyone who has it can no longer open it. Copies of pages they already saved can’t be taken back.</p>
      </ConfirmDialog>
    </section>
  );
}

function DeleteSection({ workspace }: { workspace: Workspace }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const id = useId();
  const tables = useQuery(trpc.collections.list.queryOptions({ workspace: workspace.slug }, { enabled: open }));
  const tableCount = tables.data?.filter((t) => t.kind === "table").length ?? null;
  const remove = useMutation(
    trpc.workspaces.delete.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        // The dashboard says it is done (history state: a reload does not say it again).
        navigate("/", { replace: true, state: { deleted: workspace.name } });
        queryClient.removeQueries({ queryKey: trpc.workspaces.get.queryKey({ slug: workspace.slug }) });
        await queryClient.invalidateQueries(trpc.workspaces.pathFilter());
      },
    }),
  );
  // Capital letters don't matter, and the label says so (the server agrees).
  const matches = typed.trim().toLowerCase() === workspace.slug;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (matches) remove.mutate({ slug: workspace.slug, confirm: typed.trim() });
  };
  const close = () => {
    if (remove.isPending) return;
    setOpen(false);
    remove.reset();
  };
  return (
    <section className="panel-section settings__section settings__danger" aria-labelledby="settings-delete-title">
      <h2 id="settings-delete-title" className="section-title">
        Delete this workspace
      </h2>
      <p className="muted">Deletes every page, table and share link in it, for good.</p>
      <div className="form-actions form-actions--start">
        <button
          type="button"
          className="button button--danger"
          onClick={() => {
            setTyped("");
            setOpen(true);
          }}
        >
          Delete workspace…
        </button>
      </div>
      <ModalDialog open={open} onCancel={close} labelledBy={`${id}-title`} describedBy={`${id}-text`}>
        <form className="dialog__form" onSubmit={submit} noValidate>
          <h2 id={`${id}-title`} className="dialog__title">
            Delete “{workspace.name}”?
          </h2>
          <div id={`${id}-text`} className="dialog__text">
            <p>This can’t be undone. Deleting it removes, for good:</p>
            <ul className="settings__consequences">
              <li>
                its {plural(workspace.usage.pages, "page")}, with every earlier version; their addresses (<span className="mono">/a/…</span>) stop working and
                can be taken by other pages;
              </li>
              <li>its {tableCount === null ? "tables" : plural(tableCount, "table")}, with every row;</li>
              <li>every share link to it: people who have one can no longer open anything;</li>
              <li>its activity, and its members’ access to it.</li>
            </ul>
            <p>
              Agent tokens limited to this workspace lose it; a token limited to this workspace alone stops working. Tokens for all your workspaces keep working
              in the others.
            </p>
          </div>
          <TextField
            label={
              <>
                Type <span className="mono">{workspace.slug}</span> to confirm (capital letters don’t matter)
              </>
            }
            value={typed}
            onChange={setTyped}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
          />
          <p className="field__error" role="alert">
            {remove.error ? describeError(remove.error) : null}
          </p>
          <div className="dialog__actions">
            <button type="button" className="button" onClick={close} disabled={remove.isPending}>
              Cancel
            </button>
            <button type="submit" className="button button--danger" disabled={!matches || remove.isPending}>
              {remove.isPending ? "Deleting…" : "Delete for good"}
            </button>
          </div>
        </form>
      </ModalDialog>
    </section>
  );
}
