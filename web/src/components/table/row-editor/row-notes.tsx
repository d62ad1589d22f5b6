// What the row editor says under the row while editing: a refusal, a newer version saved by
// someone else, a row that left the list, or that it now edits over the other side's version.
import type { Directory } from "../../../lib/actors";
import type { Row } from "../../../lib/table/types";
import { ActorName } from "../../actor-name";
import { TimeAgo } from "../../time-ago";

export function RowNotes({
  other,
  newer,
  gone,
  referenceVersion,
  directory,
  onCompare,
}: {
  other: string | null;
  /** A version someone else saved since editing started. */
  newer: Row | null;
  /** The row no longer shows in the list. */
  gone: boolean;
  /** Editing over this version of theirs, after "Combine by hand". */
  referenceVersion: number | null;
  directory: Directory;
  onCompare: () => void;
}) {
  return (
    <>
      {other ? (
        <p className="field__error" role="alert">
          {other}
        </p>
      ) : null}
      {newer ? (
        <div className="callout callout--warn" role="status">
          <p>
            <ActorName actor={newer.updated_by} directory={directory} /> saved version {newer.version} of this row <TimeAgo iso={newer.updated_at} /> while
            you’re editing. Saving will ask you to choose between your values and theirs.
          </p>
          <div className="callout__actions">
            <button type="button" className="button button--small" onClick={onCompare}>
              Compare now
            </button>
          </div>
        </div>
      ) : null}
      {gone ? (
        <p className="callout callout--warn" role="status">
          This row no longer shows in the table (it was deleted, or no longer matches the filters). Saving will tell you which.
        </p>
      ) : null}
      {referenceVersion !== null ? (
        <p className="field__hint">Editing over version {referenceVersion}. Where theirs differs from what you have, it is shown under the field.</p>
      ) : null}
    </>
  );
}
