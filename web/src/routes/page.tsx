// /app/buckets/:slug/:pageSlug — one page: the published artifact in a sandboxed frame sized
// to its content, its link, the history, and for those who may edit, the editor.
import { useIsMutating, useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState } from "react";
import { useSearchParams } from "wouter";
import { ActorName } from "../components/actor-name";
import { VisibilityBadge } from "../components/badges";
import { Breadcrumb } from "../components/breadcrumb";
import { ConfirmDialog, confirmsMutation } from "../components/confirm-dialog";
import { CopyButton } from "../components/copy-button";
import { PageComments } from "../components/comments/page-comments";
import { ArtifactFrame } from "../components/page/artifact-frame";
import { HistoryPanel } from "../components/page/history-panel";
import { ReadingFigures } from "../components/page/reading-figures";
import { LiveTablesNote } from "../components/page/live-tables-note";
import { MovePageDialog } from "../components/page/move-page-dialog";
import { useDeletePage } from "../components/page/use-delete-page";
import { NotFound } from "../components/not-found";
import { PageError, PageLoading, PageSkeleton } from "../components/page-state";
import { ShareButton } from "../components/share/share-menu";
import { TimeAgo } from "../components/time-ago";
import { useDirectory } from "../components/workspace/use-directory";
import { isNotFound } from "../lib/errors";
import { recordRecent } from "../lib/recent";
import { signInHref } from "../lib/safe-next";
import { tableSpecsOf } from "../lib/table/table-view-specs";
import { useTRPC } from "../trpc";
import type { PublicScreenProps } from "./app-routes";
import "./page.css";

// The editor (CodeMirror and its Markdown support) loads when someone edits, not for reading.
const PageEditor = lazy(() => import("../components/page/editor/page-editor").then((m) => ({ default: m.PageEditor })));

export function PageScreen({ user, params }: PublicScreenProps) {
  const slug = params.slug ?? "";
  const pageSlug = params.pageSlug ?? "";
  const trpc = useTRPC();
  const [search, setSearch] = useSearchParams();
  const editing = search.get("edit") === "1";
  const historyOpen = search.get("history") === "1";
  // Just made with "New page": the title is selected to type over.
  const fresh = search.get("new") === "1";
  const commentsOpen = search.get("comments") === "1";
  const readersOpen = search.get("readers") === "1";

  const workspace = useQuery(trpc.workspaces.get.queryOptions({ slug }));
  // While editing, look for other people's (and agents') saves every 15 s, so a conflict
  // shows up before the save rather than after it.
  const page = useQuery(trpc.pages.get.queryOptions({ slug: pageSlug }, { refetchInterval: editing ? 15_000 : false }));
  // A page taking a new address (named on its first save, or "Change address") answers 404 at
  // the old one from the moment the move lands until this screen follows it there: a refetch in
  // that moment (a live update, the 15 s look) is the move, not a deletion, and must not replace
  // the open editor with "not found" (it would come back on the new address with the cursor lost).
  const movingAway = useIsMutating({ mutationKey: trpc.pages.move.mutationKey() }) > 0 && page.isError && isNotFound(page.error) && page.data !== undefined;
  const [deleting, setDeleting] = useState(false);
  const [moving, setMoving] = useState(false);
  const remove = useDeletePage(slug);

  const ws = workspace.data;
  const isMember = Boolean(user && ws?.role);
  const directory = useDirectory(slug, user?.id ?? null, isMember);
  const opened = page.data && ws && user ? { href: `/buckets/${slug}/${page.data.slug}`, title: page.data.title, where: ws.name } : null;
  useEffect(() => {
    if (opened) recordRecent({ kind: "page", ...opened });
  }, [opened?.href, opened?.title, opened?.where]);

  const setFlag = (name: "edit" | "history" | "comments" | "readers", on: boolean) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (on) next.set(name, "1");
        else next.delete(name);
        if (name === "edit" && !on) next.delete("new");
        return next;
      },
      { replace: name !== "edit" },
    );

  if (page.isPending || workspace.isPending) return <PageSkeleton kind="page" label="Opening the page…" />;
  if ((page.isError && !movingAway) || workspace.isError) {
    const err = page.error ?? workspace.error;
    if (isNotFound(err)) {
      return (
        <NotFound
          title="This page isn’t here"
          action={user ? { href: `/buckets/${slug}`, label: "Back to the workspace" } : { href: signInHref(`/buckets/${slug}/${pageSlug}`), label: "Sign in" }}
        >
          It may have been deleted or renamed, or it’s in a private workspace
          {user ? " you’re not a member of" : " (sign in to see it if you’re a member)"}.
        </NotFound>
      );
    }
    return <PageError title="This page didn’t load" error={err} onRetry={() => void Promise.all([page.refetch(), workspace.refetch()])} />;
  }

  const data = page.data;
  const wsData = workspace.data;
  const canWrite = Boolean(user) && wsData.can_write;
  const artifactPath = `/a/${data.slug}`;
  const artifactLink = `${window.location.origin}${artifactPath}`;
  const showEditor = editing && canWrite;
  // Comments are members' (docs/comments.md#who-sees-and-writes-them), never over the editor.
  const showComments = commentsOpen && isMember && !showEditor;
  // Reading figures are for owners and editors (issue 32), beside the page like the history.
  const showReaders = readersOpen && canWrite && !showEditor && !historyOpen;

  return (
    <div className={`page-screen ${historyOpen || showComments || showReaders ? "page-screen--with-history" : ""}`}>
      <title>{`${data.title} · ${wsData.name} · Atelier`}</title>
      <Breadcrumb trail={[...(user ? [{ href: "/", label: "Workspaces" }] : []), { href: `/buckets/${slug}`, label: wsData.name }]} current={data.title} />

      <header className="page-header page-header--row">
        <div className="page-header__main">
          <h1 className="page-header__title">{data.title}</h1>
          {data.summary ? <p className="page-header__lead">{data.summary}</p> : null}
          <p className="page-meta">
            <span>Version {data.version}</span>
            <span aria-hidden="true">·</span>
            <span>
              <TimeAgo iso={data.updated_at} prefix="edited " /> by
            </span>
            <ActorName actor={data.updated_by} directory={directory} />
          </p>
        </div>
        <div className="page-header__actions">
          {canWrite && !showEditor ? (
            <button type="button" className="button button--primary" onClick={() => setFlag("edit", true)}>
              Edit
            </button>
          ) : null}
          <ShareButton
            workspace={wsData}
            signedIn={user !== null}
            target={{ kind: "page", slug: data.slug, title: data.title, markdown: data.parts.some((p) => p.kind !== "html") }}
          />
          <button type="button" className="button" aria-pressed={historyOpen} onClick={() => setFlag("history", !historyOpen)}>
            History
          </button>
          {canWrite && !showEditor ? (
            <button type="button" className="button" aria-pressed={showReaders} onClick={() => setFlag("readers", !showReaders)}>
              Readers
            </button>
          ) : null}
          {isMember && !showEditor ? (
            <button type="button" className="button" aria-pressed={showComments} onClick={() => setFlag("comments", !showComments)}>
              Comments
            </button>
          ) : null}
          {canWrite && !showEditor ? (
            <button type="button" className="button" onClick={() => setMoving(true)}>
              Change address
            </button>
          ) : null}
          {canWrite && !showEditor ? (
            <button type="button" className="button button--quiet-danger" onClick={() => setDeleting(true)}>
              Delete
            </button>
          ) : null}
        </div>
      </header>

      <div className="link-bar" hidden={showEditor}>
        <div className="link-box">
          <VisibilityBadge visibility={wsData.visibility} />
          <a className="link-box__url" href={artifactPath} target="_blank" rel="noopener" title="Open the published page in a new tab">
            {artifactLink.replace(/^https?:\/\//, "")}
          </a>
          <CopyButton text={artifactLink} label="Copy the page link" />
        </div>
        <p className="link-bar__note">
          {wsData.visibility === "public" ? "Anyone with this link can read the page." : "Only members of this workspace can open this link."}
        </p>
      </div>

      {!showEditor ? <LiveTablesNote workspace={slug} specs={tableSpecsOf(data.parts)} /> : null}

      <div className="page-screen__body">
        {showComments ? <PageComments page={data} directory={directory} onClose={() => setFlag("comments", false)} /> : null}
        <div className="page-screen__main" hidden={showComments}>
          {showEditor ? (
            // The editor keeps the version it opened on as its base until it saves; `latest`
            // tells it when someone else has saved meanwhile.
            <Suspense fallback={<PageLoading label="Opening the editor…" />}>
              <PageEditor key={data.page_id} page={data} latest={data} directory={directory} fresh={fresh} onClose={() => setFlag("edit", false)} />
            </Suspense>
          ) : (
            <div className="artifact">
              <ArtifactFrame path={artifactPath} version={data.version} title={`${data.title} (the published page)`} />
            </div>
          )}
        </div>
        {showReaders ? <ReadingFigures slug={data.slug} onClose={() => setFlag("readers", false)} /> : null}
        {historyOpen ? <HistoryPanel page={data} directory={directory} canWrite={canWrite} onClose={() => setFlag("history", false)} /> : null}
      </div>

      {canWrite ? <MovePageDialog open={moving} workspace={slug} slug={data.slug} onClose={() => setMoving(false)} /> : null}
      <ConfirmDialog
        open={deleting}
        title={`Delete “${data.title}”?`}
        confirmLabel="Delete page"
        pendingLabel="Deleting…"
        {...confirmsMutation(remove, () => setDeleting(false))}
        onConfirm={() => remove.mutate({ slug: data.slug })}
      >
        <p>
          The page and its whole history are deleted, and <span className="mono">{artifactPath}</span> stops working. This can’t be undone.
        </p>
      </ConfirmDialog>
    </div>
  );
}
