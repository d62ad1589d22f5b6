// Who changed a row, version by version, and what each version changed; a deletion is
// marked as such (its values are gone, the earlier versions stay readable).
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import type { Directory } from "../../lib/actors";
import { formatDateTime } from "../../lib/format";
import { sameCell } from "../../lib/table/type-value";
import { type Column, type RowRevision, type RowValues } from "../../lib/table/types";
import { useTRPC } from "../../trpc";
import { ActorName } from "../actor-name";
import { ModalDialog } from "../modal-dialog";
import { TimeAgo } from "../time-ago";
import { CellValue } from "./cells";
import { QueryFallback } from "../load-error";
import "./row-history.css";

export interface HistoryTarget {
  rowId: string;
  name: string;
}

export function RowHistoryDialog({
  workspace,
  collection,
  columns,
  target,
  directory,
  onClose,
}: {
  workspace: string;
  collection: string;
  columns: Column[];
  target: HistoryTarget | null;
  directory: Directory;
  onClose: () => void;
}) {
  const id = useId();
  const trpc = useTRPC();
  const history = useQuery(trpc.rows.history.queryOptions({ workspace, collection, row_id: target?.rowId ?? "row_0000000000" }, { enabled: target !== null }));

  return (
    <ModalDialog open={target !== null} className="dialog dialog--wide row-history" labelledBy={`${id}-title`} onCancel={onClose}>
      <div className="revision__head">
        <div>
          <h2 id={`${id}-title`} className="dialog__title">
            History of “{target?.name}”
          </h2>
          <p className="field__hint">Newest first. Each version says who saved it and what it changed.</p>
        </div>
        <button type="button" className="button button--small button--quiet" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
      {!target ? null : !history.isSuccess ? (
        <QueryFallback query={history} loading="Loading the history…" what="The history" />
      ) : history.data.length === 0 ? (
        <p className="muted">No versions are recorded for this row.</p>
      ) : (
        <ol className="row-history__list" aria-label="Versions, newest first">
          {history.data.map((rev, i) => (
            <RevisionItem
              key={rev.version}
              rev={rev}
              previous={history.data[i + 1] ?? null}
              current={i === 0 && !rev.deleted}
              columns={columns}
              directory={directory}
            />
          ))}
        </ol>
      )}
    </ModalDialog>
  );
}

function RevisionItem({
  rev,
  previous,
  current,
  columns,
  directory,
}: {
  rev: RowRevision;
  previous: RowRevision | null;
  current: boolean;
  columns: Column[];
  directory: Directory;
}) {
  const before: RowValues = previous?.values ?? {};
  const after: RowValues = rev.values ?? {};
  const changes = rev.deleted
    ? []
    : columns.filter((c) => (previous ? !sameCell(before[c.name], after[c.name]) : after[c.name] !== null && after[c.name] !== undefined));
  const verb = rev.deleted ? "Deleted" : previous ? "Edited" : "Added";
  return (
    <li className={`row-history__item ${rev.deleted ? "row-history__item--deleted" : ""}`}>
      <div className="history__line">
        <span className="history__version">v{rev.version}</span>
        <span className={`chip ${rev.deleted ? "chip--deleted" : ""}`}>{verb}</span>
        {current ? <span className="chip chip--current">Current</span> : null}
        <span className="history__time" title={formatDateTime(rev.created_at)}>
          <TimeAgo iso={rev.created_at} />
        </span>
      </div>
      <div className="history__who">
        <ActorName actor={rev.actor} directory={directory} />
      </div>
      {rev.deleted ? (
        <p className="muted">The row was deleted; its last values are in the version below.</p>
      ) : changes.length === 0 ? (
        <p className="muted">No values changed.</p>
      ) : (
        <dl className="row-history__changes">
          {changes.map((c) => (
            <div key={c.name} className="row-history__change">
              <dt>{c.name}</dt>
              <dd>
                {previous ? (
                  <>
                    <span className="row-history__old">
                      {before[c.name] === null || before[c.name] === undefined ? (
                        <span className="muted">(empty)</span>
                      ) : (
                        <CellValue column={c} value={before[c.name]} />
                      )}
                    </span>
                    <span aria-hidden="true"> → </span>
                    <span className="sr-only"> changed to </span>
                  </>
                ) : null}
                <span className="row-history__new">
                  {after[c.name] === null || after[c.name] === undefined ? (
                    <span className="muted">(empty)</span>
                  ) : (
                    <CellValue column={c} value={after[c.name]} />
                  )}
                </span>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}
