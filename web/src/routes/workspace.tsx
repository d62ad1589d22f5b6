// /app/buckets/:slug — a workspace: its pages, and for its members the activity, people,
// agents and sharing. A public workspace shows its pages to visitors who are not signed in.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { Link, useSearchParams } from "wouter";
import { RoleBadge, SandboxBadge, VisibilityBadge } from "../components/badges";
import { Breadcrumb } from "../components/breadcrumb";
import { NotFound } from "../components/not-found";
import { PageError, PageSkeleton } from "../components/page-state";
import { ReadOnlyBanner } from "../components/read-only-banner";
import { type TabItem, TabPanel, Tabs } from "../components/tabs";
import { ActivityPanel } from "../components/workspace/activity-panel";
import { AgentsPanel } from "../components/workspace/agents-panel";
import { MembersPanel } from "../components/workspace/members-panel";
import { NewPageDialog } from "../components/workspace/new-page-dialog";
import { recordRecent } from "../lib/recent";
import { useNewPage } from "../components/workspace/use-new-page";
import { NewTableDialog } from "../components/workspace/new-table-dialog";
import { PagesPanel } from "../components/workspace/pages-panel";
import { MostRead } from "../components/page/reading-figures";
import { SettingsPanel } from "../components/workspace/settings-panel";
import { SharingPanel } from "../components/workspace/sharing-panel";
import { TablesPanel } from "../components/workspace/tables-panel";
import { FilesPanel } from "../components/files/files-panel";
import { useTables } from "../components/table/use-table";
import { useDirectory } from "../components/workspace/use-directory";
import { describeError, isNotFound } from "../lib/errors";
import { formatBytes, plural } from "../lib/format";
import { signInHref } from "../lib/safe-next";
import { useTRPC } from "../trpc";
import type { PublicScreenProps } from "./app-routes";

type TabKey = "pages" | "tables" | "files" | "activity" | "people" | "agents" | "sharing" | "settings";

export function WorkspaceScreen({ user, params }: PublicScreenProps) {
  const slug = params.slug ?? "";
  const trpc = useTRPC();
  const workspace = useQuery(trpc.workspaces.get.queryOptions({ slug }));
  const [search, setSearch] = useSearchParams();
  const [newPageOpen, setNewPageOpen] = useState(false);
  const [newTableOpen, setNewTableOpen] = useState(false);
  const newPage = useNewPage(slug);
  const tabsId = useId();

  const ws = workspace.data;
  const wsName = user && ws ? ws.name : null;
  useEffect(() => {
    if (wsName) recordRecent({ kind: "workspace", href: `/buckets/${slug}`, title: wsName, where: "" });
  }, [slug, wsName]);
  const isMember = Boolean(user && ws?.role);
  const canManage = Boolean(ws?.can_manage);
  const directory = useDirectory(slug, user?.id ?? null, isMember);
  const { query: tablesQuery, tables } = useTables(slug, workspace.isSuccess);

  if (workspace.isPending) return <PageSkeleton kind="list" label="Opening the workspace…" />;
  if (workspace.isError) {
    if (isNotFound(workspace.error)) return <WorkspaceNotFound slug={slug} signedIn={user !== null} />;
    return <PageError title="This workspace didn’t load" error={workspace.error} onRetry={() => void workspace.refetch()} />;
  }
  const data = workspace.data;

  const tabs: TabItem<TabKey>[] = [
    { key: "pages", label: "Pages", badge: data.usage.pages },
    { key: "tables", label: "Tables", ...(tablesQuery.isSuccess ? { badge: tables.length } : {}) },
  ];
  // Members see who and what is here; owners also get the controls inside each tab.
  if (isMember) {
    tabs.push(
      { key: "files", label: "Files" },
      { key: "activity", label: "Activity" },
      { key: "people", label: "People" },
      { key: "agents", label: "Agents" },
      { key: "sharing", label: "Sharing" },
    );
    if (canManage) tabs.push({ key: "settings", label: "Settings" });
  }
  const requested = search.get("tab") as TabKey | null;
  const tab: TabKey = tabs.some((t) => t.key === requested) && requested ? requested : "pages";
  const selectTab = (key: TabKey) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (key === "pages") next.delete("tab");
        else next.set("tab", key);
        return next;
      },
      { replace: true },
    );

  return (
    <div className="workspace">
      <title>{`${data.name} · Atelier`}</title>
      {user ? <Breadcrumb trail={[{ href: "/", label: "Workspaces" }]} current={data.name} /> : null}
      <header className="page-header page-header--row">
        <div className="page-header__main">
          <h1 className="page-header__title">{data.name}</h1>
          <p className="workspace-head__meta">
            <span className="mono">{data.slug}</span>
            <VisibilityBadge visibility={data.visibility} />
            <RoleBadge role={user ? data.role : null} />
            <SandboxBadge sandbox={data.sandbox} />
            <span className="muted">
              {plural(data.usage.pages, "page")} · {formatBytes(data.usage.bytes)}
            </span>
          </p>
        </div>
        {isMember ? (
          <div className="page-header__actions">
            <Link href={`/settings/agents?workspace=${encodeURIComponent(slug)}`} className="button">
              Connect an agent
            </Link>
            {data.can_write && tab === "tables" ? (
              <button type="button" className="button button--primary" onClick={() => setNewTableOpen(true)}>
                <span aria-hidden="true">+</span> New table
              </button>
            ) : data.can_write ? (
              <>
                <button type="button" className="button" onClick={() => setNewPageOpen(true)}>
                  Choose address and format…
                </button>
                <button type="button" className="button button--primary" onClick={newPage.start} disabled={newPage.pending}>
                  <span aria-hidden="true">+</span> New page
                </button>
              </>
            ) : null}
          </div>
        ) : null}
      </header>

      {newPage.error ? (
        <p className="callout callout--warn" role="alert">
          The new page wasn’t made. {describeError(newPage.error)}
        </p>
      ) : null}

      {!user || !isMember ? (
        <ReadOnlyBanner signedIn={user !== null} isMember={isMember} what="workspace" path={`/buckets/${slug}`} />
      ) : data.visibility === "public" && tab !== "sharing" ? (
        <p className="banner banner--ok" role="note">
          Public: anyone with the link can read every page here.{" "}
          {canManage ? (
            <button type="button" className="button--inline-link" onClick={() => selectTab("sharing")}>
              Sharing settings
            </button>
          ) : null}
        </p>
      ) : null}

      {tabs.length > 1 ? <Tabs id={tabsId} label="Workspace sections" items={tabs} selected={tab} onSelect={selectTab} /> : null}

      {tabs.length > 1 ? (
        <TabPanel id={tabsId} tab={tab}>
          <WorkspaceTab
            tab={tab}
            slug={slug}
            canWrite={data.can_write}
            canManage={canManage}
            meId={user?.id ?? ""}
            directory={directory}
            onNewPage={newPage.start}
            onNewTable={() => setNewTableOpen(true)}
            workspace={data}
          />
        </TabPanel>
      ) : (
        <>
          {data.can_write ? <MostRead workspace={slug} /> : null}
          <PagesPanel slug={slug} canWrite={data.can_write} directory={directory} onNewPage={newPage.start} />
        </>
      )}

      {data.can_write ? <NewPageDialog open={newPageOpen} workspace={slug} onClose={() => setNewPageOpen(false)} /> : null}
      {data.can_write ? <NewTableDialog open={newTableOpen} workspace={slug} onClose={() => setNewTableOpen(false)} /> : null}
    </div>
  );
}

function WorkspaceTab({
  tab,
  slug,
  canWrite,
  canManage,
  meId,
  directory,
  onNewPage,
  onNewTable,
  workspace,
}: {
  tab: TabKey;
  slug: string;
  canWrite: boolean;
  canManage: boolean;
  meId: string;
  directory: ReturnType<typeof useDirectory>;
  onNewPage: () => void;
  onNewTable: () => void;
  workspace: Parameters<typeof SharingPanel>[0]["workspace"];
}) {
  switch (tab) {
    case "pages":
      return (
        <>
          {/* Reading figures (issue 32): owners and editors see the most-read pages above the list. */}
          {canWrite ? <MostRead workspace={slug} /> : null}
          <PagesPanel slug={slug} canWrite={canWrite} directory={directory} onNewPage={onNewPage} />
        </>
      );
    case "tables":
      return <TablesPanel slug={slug} canWrite={canWrite} onNewTable={onNewTable} />;
    case "files":
      return <FilesPanel slug={slug} canWrite={canWrite} />;
    case "activity":
      return <ActivityPanel slug={slug} directory={directory} />;
    case "people":
      return <MembersPanel slug={slug} canManage={canManage} meId={meId} />;
    case "agents":
      return <AgentsPanel slug={slug} canManage={canManage} />;
    case "sharing":
      return <SharingPanel workspace={workspace} />;
    case "settings":
      return <SettingsPanel workspace={workspace} />;
  }
}

function WorkspaceNotFound({ slug, signedIn }: { slug: string; signedIn: boolean }) {
  return (
    <NotFound
      title="This workspace isn’t here"
      action={signedIn ? { href: "/", label: "Back to your workspaces" } : { href: signInHref(`/buckets/${slug}`), label: "Sign in to open it" }}
    >
      There’s no workspace <span className="mono">{slug}</span> that you can open. It may be private, or the address may be mistyped.
    </NotFound>
  );
}
