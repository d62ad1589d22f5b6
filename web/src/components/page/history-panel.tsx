// Who changed the page, version by version; any earlier version can be read and restored
// (restoring makes a new version, so the history itself never changes).
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { Directory } from "../../lib/actors";
import { type RouterOutputs, useTRPC } from "../../trpc";
import { ActorName } from "../actor-name";
import { QueryFallback } from "../load-error";
import { TimeAgo } from "../time-ago";
import { RevisionDialog } from "./revision-dialog";
import "./history-panel.css";

type PageView = RouterOutputs["pages"]["get"];

export function HistoryPanel({ page, directory, canWrite, onClose }: { page: PageView; directory: Directory; canWrite: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const history = useQuery(trpc.pages.history.queryOptions({ slug: page.slug }));
  const [viewing, setViewing] = useState<number | null>(null);

  // The page moved on (an agent saved, or a restore): the list must show the new version.
  const newest = history.data?.[0]?.version;
  const { refetch } = history;
  useEffect(() => {
    if (newest !== undefined && newest < page.version) void refetch();
  }, [newest, page.version, refetch]);

  return (
    <aside className="history" aria-labelledby="history-title">
      <div className="history__head">
        <h2 id="history-title" className="section-title">
          History
        </h2>
        <button type="button" className="button button--small button--quiet" onClick={onClose} aria-label="Close history">
          Close
        </button>
      </div>
      {!history.isSuccess ? (
        <QueryFallback query={history} loading="Loading history…" what="The history" />
      ) : (
        <ol className="history__list" aria-label="Versions, newest first">
          {history.data.map((rev) => {
            const current = rev.version === page.version;
            return (
              <li key={rev.version} className={`history__item ${current ? "history__item--current" : ""}`}>
                <div className="history__line">
                  <span className="history__version">v{rev.version}</span>
                  {current ? <span className="chip">Current</span> : null}
                  <span className="history__time">
                    <TimeAgo iso={rev.created_at} />
                  </span>
                </div>
                <div className="history__who">
                  <ActorName actor={rev.actor} directory={directory} />
                </div>
                <p className="history__summary">{rev.change_summary}</p>
                {rev.title !== page.title && !current ? <p className="history__title">“{rev.title}”</p> : null}
                {!current ? (
                  <button
                    type="button"
                    className="button button--small button--quiet history__view"
                    onClick={() => setViewing(rev.version)}
                    aria-label={`View version ${rev.version}`}
                  >
                    View{canWrite ? " or restore" : ""}
                  </button>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
      <RevisionDialog page={page} version={viewing} directory={directory} canWrite={canWrite} onClose={() => setViewing(null)} />
    </aside>
  );
}
