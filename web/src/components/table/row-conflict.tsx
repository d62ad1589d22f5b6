// Someone (a person or an agent) changed or deleted a row while this person was editing it.
// Their values and the newest ones are shown side by side, column by column; whichever way
// they choose, neither side is lost (the other stays on screen, or in the row's history).
import { useId } from "react";
import type { Directory } from "../../lib/actors";
import type { ActorView } from "../../lib/collaboration";
import { compareRow, nameList, rowText } from "../../lib/table/row-conflicts";
import { type Column, type RowValues } from "../../lib/table/types";
import { ActorName } from "../actor-name";
import { CopyButton } from "../copy-button";
import { TimeAgo } from "../time-ago";
import { CellValue } from "./cells";
import "../page/conflict-panel.css";
import "./row-conflict.css";

/** The newest version of a row: from the list, or from its history (then maybe deleted). */
export interface TheirRow {
  version: number;
  values: RowValues | null;
  deleted: boolean;
  actor: ActorView;
  at: string;
}

export function RowConflict({
  columns,
  base,
  mine,
  theirs,
  directory,
  saving,
  error,
  onKeepMine,
  onTakeTheirs,
  onCombine,
  onRestore,
}: {
  columns: Column[];
  /** The values the person started from. */
  base: RowValues;
  /** The columns they changed, with their new values (not saved). */
  mine: RowValues;
  theirs: TheirRow;
  directory: Directory;
  saving: boolean;
  error: string | null;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
  onCombine: () => void;
  /** The row was deleted: add it back, with the person's values. */
  onRestore: () => void;
}) {
  const id = useId();
  const theirValues = theirs.values ?? {};
  const comparison = compareRow(columns, base, mine, theirValues);
  const iChanged = comparison.filter((c) => c.iChanged).map((c) => c.column.name);
  const theyChanged = comparison.filter((c) => c.theyChanged).map((c) => c.column.name);
  const keptOfTheirs = theyChanged.filter((n) => !iChanged.includes(n));
  const shown = comparison.filter((c) => c.iChanged || c.theyChanged);
  const myRow = { ...base, ...mine };

  return (
    <section className="conflict row-conflict" aria-labelledby={`${id}-title`}>
      <div className="conflict__intro" role="alert">
        <h3 id={`${id}-title`} className="conflict__title">
          {theirs.deleted ? "This row was deleted while you were editing" : "This row changed while you were editing"}
        </h3>
        <p>
          <ActorName actor={theirs.actor} directory={directory} /> {theirs.deleted ? "deleted it" : `saved version ${theirs.version}`}{" "}
          <TimeAgo iso={theirs.at} />
          {!theirs.deleted && theyChanged.length > 0 ? `, changing ${nameList(theyChanged)}` : ""}. You changed {nameList(iChanged)}. Your values aren’t saved
          yet and nothing is lost: choose what to keep.
        </p>
      </div>

      <div className="compare-wrap">
        <table className="compare">
          <caption className="sr-only">Your values beside {theirs.deleted ? "the deleted row" : `version ${theirs.version}`}</caption>
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">
                Yours <span className="muted">(not saved)</span>
              </th>
              <th scope="col">{theirs.deleted ? "Now" : `Version ${theirs.version}`}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((c) => (
              <tr key={c.column.name} className={c.iChanged && c.theyChanged ? "compare__row--both" : undefined}>
                <th scope="row">{c.column.name}</th>
                <td className={c.iChanged ? "compare__cell compare__cell--mine" : "compare__cell"}>
                  <CellValue column={c.column} value={c.mine} />
                  {c.mine === null ? <span className="muted">(empty)</span> : null}
                  {c.iChanged ? <span className="sr-only"> (your change)</span> : null}
                </td>
                <td className={c.theyChanged && !theirs.deleted ? "compare__cell compare__cell--theirs" : "compare__cell"}>
                  {theirs.deleted ? (
                    <span className="muted">(deleted)</span>
                  ) : (
                    <>
                      <CellValue column={c.column} value={c.theirs} />
                      {c.theirs === null ? <span className="muted">(empty)</span> : null}
                      {c.theyChanged ? <span className="sr-only"> (their change)</span> : null}
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <p className="field__error" role="alert">
        {error}
      </p>
      {theirs.deleted ? (
        <div className="conflict__choices conflict__choices--two">
          <div className="conflict__choice">
            <button type="button" className="button button--primary" onClick={onRestore} disabled={saving}>
              {saving ? "Adding…" : "Add it back with my values"}
            </button>
            <p className="field__hint">Adds a new row with the values you see under “Yours”.</p>
          </div>
          <div className="conflict__choice">
            <button type="button" className="button" onClick={onTakeTheirs} disabled={saving}>
              Let it go
            </button>
            <p className="field__hint">Your values stay on screen to copy from; the deleted row stays in its history.</p>
          </div>
        </div>
      ) : (
        <div className="conflict__choices">
          <div className="conflict__choice">
            <button type="button" className="button button--primary" onClick={onKeepMine} disabled={saving}>
              {saving ? "Saving…" : `Keep mine (save over version ${theirs.version})`}
            </button>
            <p className="field__hint">
              Saves your {nameList(iChanged)} as version {theirs.version + 1}.
              {keptOfTheirs.length > 0 ? ` Their change to ${nameList(keptOfTheirs)} is kept.` : ""} Their values stay in the row’s history.
            </p>
          </div>
          <div className="conflict__choice">
            <button type="button" className="button" onClick={onTakeTheirs} disabled={saving}>
              Take theirs
            </button>
            <p className="field__hint">Keeps version {theirs.version}. Your values stay on screen to copy from.</p>
          </div>
          <div className="conflict__choice">
            <button type="button" className="button" onClick={onCombine} disabled={saving}>
              Combine by hand
            </button>
            <p className="field__hint">Back to editing from version {theirs.version}, with your changes in place and theirs beside them.</p>
          </div>
        </div>
      )}
      <div className="callout__actions">
        <CopyButton text={rowText(columns, myRow)} label="Copy your values">
          Copy my values
        </CopyButton>
      </div>
    </section>
  );
}
