// The Share menu on a page and on a table (docs/decisions.md, "The app, third pass (issue 27):
// the Share menu"): who can see it now (the workspace's visibility, its members, the links
// that open it), its addresses to copy, publishing the workspace it lives in, and a share
// link made on the spot — copyable again later, since the server can make its secret again
// from SECRET_KEY while it stores only the hash.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { describeError } from "../../lib/errors";
import { type RouterOutputs, useTRPC } from "../../trpc";
import { VisibilityBadge } from "../badges";
import { CopyButton } from "../copy-button";
import { ModalDialog } from "../modal-dialog";
import { PublicStatement } from "../workspace/sharing-panel";
import "../field.css";
import "./share-menu.css";

type Workspace = RouterOutputs["workspaces"]["get"];
type ShareLink = RouterOutputs["workspaces"]["shareLinks"]["list"][number];

export type ShareTarget = { kind: "page"; slug: string; title: string; markdown: boolean } | { kind: "table"; slug: string; title: string };

/** The "Share" button and the dialog it opens. */
export function ShareButton({ workspace, target, signedIn }: { workspace: Workspace; target: ShareTarget; signedIn: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Share
      </button>
      <ShareDialog open={open} onClose={() => setOpen(false)} workspace={workspace} target={target} signedIn={signedIn} />
    </>
  );
}

function ShareDialog({
  open,
  onClose,
  workspace,
  target,
  signedIn,
}: {
  open: boolean;
  onClose: () => void;
  workspace: Workspace;
  target: ShareTarget;
  signedIn: boolean;
}) {
  const id = useId();
  const titleId = `${id}-title`;
  return (
    <ModalDialog open={open} onCancel={onClose} className="dialog dialog--wide share-menu" labelledBy={titleId}>
      <h2 id={titleId} className="dialog__title">
        Share “{target.title}”
      </h2>
      {open ? <ShareBody workspace={workspace} target={target} signedIn={signedIn} /> : null}
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onClose}>
          Done
        </button>
      </div>
    </ModalDialog>
  );
}

function ShareBody({ workspace, target, signedIn }: { workspace: Workspace; target: ShareTarget; signedIn: boolean }) {
  const origin = window.location.origin;
  const isPublic = workspace.visibility === "public";
  const what = target.kind === "page" ? "page" : "table";
  const addresses =
    target.kind === "page"
      ? [
          { label: "Public address", url: `${origin}/a/${target.slug}`, copy: "Copy the public address" },
          ...(target.markdown ? [{ label: "Markdown", url: `${origin}/a/${target.slug}.md`, copy: "Copy the Markdown address" }] : []),
        ]
      : [{ label: "The table in the app", url: `${origin}/app/buckets/${workspace.slug}/tables/${target.slug}`, copy: "Copy the table’s address" }];
  const these = addresses.length > 1 ? "these" : "it";

  return (
    <div className="share-menu__body">
      <section className="share-menu__section" aria-label="Who can see it now">
        <div className="share-menu__head">
          <h3 className="share-menu__heading">Who can see it now</h3>
          <VisibilityBadge visibility={workspace.visibility} />
        </div>
        <p className="share-menu__text">
          {isPublic ? (
            <>
              Public, with the rest of “{workspace.name}”. <PublicStatement slug={workspace.slug} />
            </>
          ) : (
            <>
              Private, with the rest of “{workspace.name}”: only its members and their agents can open this {what}
              {target.kind === "page" ? ", and anyone holding a share link to it." : "."}
            </>
          )}
        </p>
        {signedIn && workspace.role ? <Members workspace={workspace.slug} /> : null}
      </section>

      <section className="share-menu__section" aria-label="Addresses">
        <h3 className="share-menu__heading">{target.kind === "page" ? "Addresses" : "Address"}</h3>
        {addresses.map((a) => (
          <div key={a.url} className="share-menu__address">
            <span className="share-menu__label">{a.label}</span>
            <div className="link-box">
              <span className="link-box__url">{a.url.replace(/^https?:\/\//, "")}</span>
              <CopyButton text={a.url} label={a.copy} />
            </div>
          </div>
        ))}
        <p className="share-menu__note">
          {isPublic ? `Anyone can open ${these} without signing in.` : `Only members can open ${these} while the workspace is private.`}
        </p>
      </section>

      {workspace.can_manage ? <Publish workspace={workspace} /> : null}
      {workspace.can_manage ? <Links workspace={workspace} target={target} /> : null}
      {!workspace.can_manage && signedIn ? <p className="share-menu__note">Only an owner can publish this workspace or make share links.</p> : null}
    </div>
  );
}

function Members({ workspace }: { workspace: string }) {
  const trpc = useTRPC();
  const members = useQuery(trpc.workspaces.members.list.queryOptions({ slug: workspace }));
  if (!members.isSuccess) return <p className="share-menu__note">{members.isError ? "The members didn’t load." : "Loading the members…"}</p>;
  const shown = members.data.slice(0, 6);
  const more = members.data.length - shown.length;
  return (
    <div>
      <p className="share-menu__note">
        {members.data.length === 1 ? "1 member" : `${members.data.length} members`} can read it{isRoleMix(members.data) ? " (viewers can’t change it)" : ""}:
      </p>
      <ul className="share-menu__members" aria-label="Members">
        {shown.map((m) => (
          <li key={m.user_id}>
            <span className="share-menu__email">{m.email}</span> <span className="share-menu__role">{roleName(m.role)}</span>
          </li>
        ))}
        {more > 0 ? <li className="share-menu__role">and {more} more</li> : null}
      </ul>
    </div>
  );
}

const isRoleMix = (members: { role: string }[]) => members.some((m) => m.role === "viewer");
const roleName = (role: string) => (role === "owner" ? "owner" : role === "editor" ? "editor" : "viewer");

function Publish({ workspace }: { workspace: Workspace }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const isPublic = workspace.visibility === "public";
  const setVisibility = useMutation(
    trpc.workspaces.setVisibility.mutationOptions({
      onSuccess: async (ws) => {
        queryClient.setQueryData(trpc.workspaces.get.queryKey({ slug: ws.slug }), ws);
        setAsking(false);
        await queryClient.invalidateQueries(trpc.workspaces.pathFilter());
      },
    }),
  );
  if (workspace.sandbox?.state === "unclaimed") return <p className="share-menu__note">An unclaimed sandbox can’t be published. Claim it first.</p>;
  return (
    <section className="share-menu__section" aria-label="Publish">
      <h3 className="share-menu__heading">{isPublic ? "Published" : "Publish"}</h3>
      <p className="share-menu__text">
        Pages and tables are public or private with their workspace: {isPublic ? "unpublishing" : "publishing"} changes every page and table in “
        {workspace.name}” ({workspace.usage.pages === 1 ? "1 page" : `${workspace.usage.pages} pages`}).
      </p>
      {asking ? (
        <div className="share-menu__confirm" role="group" aria-label={isPublic ? "Unpublish the workspace?" : "Publish the workspace?"}>
          <p className="share-menu__text">
            {isPublic
              ? "Links that were shared stop working for anyone who isn’t a member. Copies others already saved can’t be taken back."
              : "Anyone with the link will be able to read every page, without signing in; search engines may show them. You can unpublish at any time."}
          </p>
          <div className="share-menu__actions">
            <button type="button" className="button" onClick={() => setAsking(false)} disabled={setVisibility.isPending}>
              Cancel
            </button>
            <button
              type="button"
              className="button button--primary"
              disabled={setVisibility.isPending}
              onClick={() => setVisibility.mutate({ slug: workspace.slug, visibility: isPublic ? "private" : "public" })}
            >
              {setVisibility.isPending ? "Saving…" : isPublic ? `Unpublish “${workspace.name}”` : `Publish “${workspace.name}”`}
            </button>
          </div>
        </div>
      ) : (
        <div className="share-menu__actions share-menu__actions--start">
          <button type="button" className={isPublic ? "button" : "button button--primary"} onClick={() => setAsking(true)}>
            {isPublic ? "Unpublish…" : "Publish…"}
          </button>
        </div>
      )}
      {setVisibility.isError ? (
        <p className="field__error" role="alert">
          Couldn’t change it. {describeError(setVisibility.error)}
        </p>
      ) : null}
    </section>
  );
}

function Links({ workspace, target }: { workspace: Workspace; target: ShareTarget }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const slug = workspace.slug;
  const lifetimeId = useId();
  const [lifetime, setLifetime] = useState("30");
  const links = useQuery(trpc.workspaces.shareLinks.list.queryOptions({ slug }));
  const create = useMutation(
    trpc.workspaces.shareLinks.create.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.workspaces.shareLinks.list.queryFilter({ slug })),
    }),
  );
  if (workspace.sandbox?.state === "unclaimed") return null;
  // The links that open this: to this page, or to every page of the workspace.
  const opening = (links.data ?? []).filter((l) => (target.kind === "page" ? l.page_slug === target.slug || l.page_id === null : false));
  const wholeWorkspace = (links.data ?? []).filter((l) => l.page_id === null);

  if (target.kind === "table") {
    return (
      <section className="share-menu__section" aria-label="Share links">
        <h3 className="share-menu__heading">Share links</h3>
        <p className="share-menu__text">
          Share links open pages. To share this table without publishing the workspace, show it on a page (a live table) and share that page.
          {wholeWorkspace.length > 0
            ? ` ${wholeWorkspace.length === 1 ? "One link opens" : `${wholeWorkspace.length} links open`} every page of this workspace.`
            : ""}
        </p>
      </section>
    );
  }

  return (
    <section className="share-menu__section" aria-label="Share links">
      <h3 className="share-menu__heading">Share links</h3>
      <p className="share-menu__text">A share link lets anyone who has it read this page without an account, even while the workspace is private.</p>
      {links.isError ? <p className="share-menu__note">The links didn’t load. {describeError(links.error)}</p> : null}
      {opening.length > 0 ? (
        <ul className="share-menu__links" aria-label="Links that open this page">
          {opening.map((l) => (
            <LinkRow key={l.link_id} link={l} />
          ))}
        </ul>
      ) : links.isSuccess ? (
        <p className="share-menu__note">No link opens this page yet.</p>
      ) : null}
      <div className="share-menu__make">
        <label htmlFor={lifetimeId} className="share-menu__label">
          Works for
        </label>
        <select id={lifetimeId} className="select" value={lifetime} onChange={(e) => setLifetime(e.target.value)}>
          <option value="1">1 day</option>
          <option value="7">7 days</option>
          <option value="30">30 days</option>
          <option value="90">90 days</option>
          <option value="never">No end date</option>
        </select>
        <button
          type="button"
          className="button button--primary"
          disabled={create.isPending}
          onClick={() => create.mutate({ slug, page: target.slug, expires_in_days: lifetime === "never" ? null : Number(lifetime) })}
        >
          {create.isPending ? "Making…" : "Make a link"}
        </button>
      </div>
      {create.isError ? (
        <p className="field__error" role="alert">
          Couldn’t make the link. {describeError(create.error)}
        </p>
      ) : null}
      {create.isSuccess ? (
        <p className="share-menu__note" role="status">
          Made. It stays here to copy again; revoke it in the workspace’s Settings.
        </p>
      ) : null}
    </section>
  );
}

function LinkRow({ link }: { link: ShareLink }) {
  const what = link.page_id ? "This page" : "Every page";
  const until = link.expires_at ? `works until ${new Date(link.expires_at).toLocaleDateString()}` : "no end date";
  return (
    <li className="share-menu__link">
      <span className="share-menu__link-what">
        {what} · made by {link.created_by} · {until}
      </span>
      {link.url ? (
        <div className="link-box">
          <span className="link-box__url">{link.url.replace(/^https?:\/\//, "")}</span>
          <CopyButton text={link.url} label={`Copy the share link to ${what.toLowerCase()}`} />
        </div>
      ) : (
        <span className="share-menu__note">Made before the server’s key changed: it can’t be shown again. Make a new one to copy.</span>
      )}
    </li>
  );
}
