// One earlier version of a page: read as it was, or compared with now line by line; those
// who may write can restore it (as a new version, so the history itself never changes).
import { lazy, Suspense, useId, useMemo, useState } from "react";
import type { Directory } from "../../lib/actors";
import { describeError, isVersionConflict } from "../../lib/errors";
import { formatDateTime, plural } from "../../lib/format";
import { changedCount, diffLines } from "@atelier/shared/domain/text-diff";
import { useRestoreRevision, useRevision } from "../../lib/collaboration";
import type { RouterOutputs } from "../../trpc";
import { ActorName } from "../actor-name";
import { CopyButton } from "../copy-button";
import { ModalDialog } from "../modal-dialog";
import { DiffView } from "./diff-view";
import "./conflict-panel.css";
import "./revision-dialog.css";

const RenderedBody = lazy(() => import("./rendered-body").then((m) => ({ default: m.RenderedBody })));

type PageView = RouterOutputs["pages"]["get"];

export function RevisionDialog({
  page,
  version,
  directory,
  canWrite,
  onClose,
}: {
  page: PageView;
  version: number | null;
  directory: Directory;
  canWrite: boolean;
  onClose: () => void;
}) {
  const id = useId();
  const revision = useRevision(page.slug, version);
  const restore = useRestoreRevision();
  const [show, setShow] = useState<"page" | "changes">("page");

  const rev = revision.data;
  const revBody = rev?.parts.find((p) => p.kind === "markdown" || p.kind === "html")?.body ?? "";
  const curBody = page.parts.find((p) => p.kind === "markdown" || p.kind === "html")?.body ?? "";
  const diff = useMemo(() => (show === "changes" ? diffLines(revBody, curBody) : null), [show, revBody, curBody]);

  return (
    <ModalDialog
      open={version !== null}
      onOpen={() => {
        setShow("page");
        restore.reset();
      }}
      className="dialog dialog--large"
      labelledBy={`${id}-title`}
      onCancel={() => {
        if (!restore.isPending) onClose();
      }}
    >
      <div className="revision">
        <div className="revision__head">
          <div>
            <h2 id={`${id}-title`} className="dialog__title">
              {/* The version's title is the heading of the page below: printed once. */}
              Version {version}
            </h2>
            {rev ? (
              <p className="revision__meta">
                <ActorName actor={rev.actor} directory={directory} /> · <time dateTime={rev.created_at}>{formatDateTime(rev.created_at)}</time> ·{" "}
                {/* The pinned address: this version as it is, for as long as it is kept (issue 26). */}
                <a href={`/a/${page.slug}@${rev.version}`} target="_blank" rel="noopener noreferrer">
                  Link to this version
                </a>
              </p>
            ) : null}
          </div>
          <button type="button" className="button button--small button--quiet" onClick={onClose} disabled={restore.isPending}>
            Close
          </button>
        </div>
        {revision.isPending ? (
          <p className="muted" role="status">
            Loading version {version}…
          </p>
        ) : revision.isError ? (
          <p className="field__error" role="alert">
            This version didn’t load. {describeError(revision.error)}
          </p>
        ) : rev ? (
          <>
            <div className="segmented" role="group" aria-label="Show">
              <button type="button" aria-pressed={show === "page"} onClick={() => setShow("page")}>
                The page then
              </button>
              <button type="button" aria-pressed={show === "changes"} onClick={() => setShow("changes")}>
                Compared with now
              </button>
            </div>
            <div className="revision__body">
              {show === "page" ? (
                <Suspense fallback={<p className="muted">Preparing…</p>}>
                  <RenderedBody parts={rev.parts} title={rev.title} summary={rev.summary} label={`Version ${rev.version}`} />
                </Suspense>
              ) : diff ? (
                <div className="conflict__columns">
                  <div className="conflict__side">
                    <div className="conflict__side-head">
                      <h3 className="conflict__side-title">Version {rev.version}</h3>
                      <CopyButton text={revBody} label={`Copy the text of version ${rev.version}`} />
                    </div>
                    <DiffView lines={diff.mine} label={`Version ${rev.version}`} tone="theirs" />
                    <p className="conflict__count">{plural(changedCount(diff.mine), "line")} not in the current version</p>
                  </div>
                  <div className="conflict__side">
                    <div className="conflict__side-head">
                      <h3 className="conflict__side-title">Now (version {page.version})</h3>
                      <CopyButton text={curBody} label={`Copy the text of version ${page.version}`} />
                    </div>
                    <DiffView lines={diff.theirs} label={`Version ${page.version}`} tone="mine" />
                    <p className="conflict__count">{plural(changedCount(diff.theirs), "line")} added since</p>
                  </div>
                </div>
              ) : null}
            </div>
            {restore.isError ? (
              <p className="field__error" role="alert">
                {isVersionConflict(restore.error)
                  ? "The page changed while you were looking. Close this and check the newest version first."
                  : describeError(restore.error)}
              </p>
            ) : null}
            {canWrite ? (
              <div className="dialog__actions">
                <p className="field__hint revision__hint">Restoring saves this text as a new version {page.version + 1}; nothing in the history is lost.</p>
                <button
                  type="button"
                  className="button button--primary"
                  disabled={restore.isPending}
                  onClick={() => restore.mutate({ slug: page.slug, version: rev.version, expected_version: page.version }, { onSuccess: onClose })}
                >
                  {restore.isPending ? "Restoring…" : `Restore version ${rev.version}`}
                </button>
              </div>
            ) : null}
          </>
        ) : null}
      </div>
    </ModalDialog>
  );
}
