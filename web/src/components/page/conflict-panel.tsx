// Someone saved the page while this person was editing. Both texts are shown in full, side
// by side, with the differing lines marked; nothing is lost whichever way they choose.
import { useId, useMemo } from "react";
import type { Directory } from "../../lib/actors";
import { changedFields, type Draft, draftOf, fieldList, keepMine, tablesOf } from "../../lib/draft";
import { changedCount, diffLines } from "@atelier/shared/domain/text-diff";
import { plural } from "../../lib/format";
import type { RouterOutputs } from "../../trpc";
import { ActorName } from "../actor-name";
import { CopyButton } from "../copy-button";
import { TimeAgo } from "../time-ago";
import { DiffView } from "./diff-view";
import { specSummary } from "./table-views-field";
import "./conflict-panel.css";

type PageView = RouterOutputs["pages"]["get"];

function tablesList(draft: Draft): string {
  const specs = tablesOf(draft);
  return specs.length === 0 ? "(none)" : specs.map((s) => `${s.collection} (${specSummary(s)})`).join("; ");
}

export function ConflictPanel({
  base,
  mine,
  theirs,
  directory,
  saving,
  error,
  onKeepMine,
  onTakeTheirs,
  onEditMine,
}: {
  /** The version the person started editing from. */
  base: PageView;
  mine: Draft;
  theirs: PageView;
  directory: Directory;
  saving: boolean;
  error: string | null;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
  onEditMine: () => void;
}) {
  const id = useId();
  const was = draftOf(base);
  const theirDraft = draftOf(theirs);
  const theyChanged = changedFields(was, theirDraft);
  const iChanged = changedFields(was, mine);
  const merged = keepMine(was, mine, theirDraft);
  const keptOfTheirs = theyChanged.filter((f) => !iChanged.includes(f));
  const diff = useMemo(() => diffLines(mine.body, theirDraft.body), [mine.body, theirDraft.body]);

  return (
    <section className="conflict" aria-labelledby={`${id}-title`} role="region">
      <div className="conflict__intro" role="alert">
        <h2 id={`${id}-title`} className="conflict__title">
          This page changed while you were editing
        </h2>
        <p>
          <ActorName actor={theirs.updated_by} directory={directory} /> saved version {theirs.version} <TimeAgo iso={theirs.updated_at} />
          {theyChanged.length > 0 ? `, changing ${fieldList(theyChanged)}` : ""}. You changed {fieldList(iChanged)}. Your text isn’t saved yet and nothing is
          lost: choose what to keep.
        </p>
      </div>

      {iChanged.includes("title") && theyChanged.includes("title") && mine.title !== theirDraft.title ? (
        <BothSides what="title" mine={mine.title} theirs={theirDraft.title} />
      ) : null}
      {iChanged.includes("summary") && theyChanged.includes("summary") && mine.summary !== theirDraft.summary ? (
        <BothSides what="summary" mine={mine.summary || "(none)"} theirs={theirDraft.summary || "(none)"} />
      ) : null}

      {iChanged.includes("tables") && theyChanged.includes("tables") && mine.tables !== theirDraft.tables ? (
        <BothSides what="tables" mine={tablesList(mine)} theirs={tablesList(theirDraft)} />
      ) : null}

      {iChanged.includes("body") || theyChanged.includes("body") ? (
        <div className="conflict__columns">
          <div className="conflict__side">
            <div className="conflict__side-head">
              <h3 className="conflict__side-title">
                Your text <span className="muted">(not saved)</span>
              </h3>
              <CopyButton text={mine.body} label="Copy your text" />
            </div>
            <DiffView lines={diff.mine} label="Your text" tone="mine" />
            <p className="conflict__count">{diff.compared ? `${plural(changedCount(diff.mine), "line")} not in theirs` : "Too long to compare line by line"}</p>
          </div>
          <div className="conflict__side">
            <div className="conflict__side-head">
              <h3 className="conflict__side-title">Version {theirs.version}</h3>
              <CopyButton text={theirDraft.body} label={`Copy the text of version ${theirs.version}`} />
            </div>
            <DiffView lines={diff.theirs} label={`Text of version ${theirs.version}`} tone="theirs" />
            <p className="conflict__count">{diff.compared ? `${plural(changedCount(diff.theirs), "line")} not in yours` : ""}</p>
          </div>
        </div>
      ) : null}

      <p className="field__error" role="alert">
        {error}
      </p>
      <div className="conflict__choices">
        <div className="conflict__choice">
          <button type="button" className="button button--primary" onClick={onKeepMine} disabled={saving}>
            {saving ? "Saving…" : `Keep mine (save over version ${theirs.version})`}
          </button>
          <p className="field__hint">
            Saves your version of {fieldList(iChanged)} as version {theirs.version + 1}.
            {keptOfTheirs.length > 0 ? ` Their change to ${fieldList(keptOfTheirs)} is kept.` : ""}
            {merged.body === theirDraft.body ? "" : " Their text stays in the history."}
          </p>
        </div>
        <div className="conflict__choice">
          <button type="button" className="button" onClick={onTakeTheirs} disabled={saving}>
            Take theirs
          </button>
          <p className="field__hint">Continue from version {theirs.version}. Your text stays on screen to copy from.</p>
        </div>
        <div className="conflict__choice">
          <button type="button" className="button" onClick={onEditMine} disabled={saving}>
            Combine by hand
          </button>
          <p className="field__hint">Back to your text, with theirs beside it, and save when it’s right.</p>
        </div>
      </div>
    </section>
  );
}

/** One field both sides changed: theirs under yours. */
function BothSides({ what, mine, theirs }: { what: string; mine: string; theirs: string }) {
  return (
    <dl className="conflict__fields">
      <div>
        <dt>{`Your ${what}`}</dt>
        <dd>{mine}</dd>
      </div>
      <div>
        <dt>{`Their ${what}`}</dt>
        <dd>{theirs}</dd>
      </div>
    </dl>
  );
}
