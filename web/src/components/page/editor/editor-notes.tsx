// The notes the editor shows above the text: unsaved work from an earlier visit, a newer
// version saved by someone else, the person's own text after taking theirs, and their
// version for reference while combining by hand.
import type { Directory } from "../../../lib/actors";
import { type Draft, draftOf, type StoredDraft } from "../../../lib/draft";
import { diffLines } from "@atelier/shared/domain/text-diff";
import { ActorName } from "../../actor-name";
import { CopyButton } from "../../copy-button";
import { TimeAgo } from "../../time-ago";
import { DiffView } from "../diff-view";
import type { PageView } from "./editor-session";

interface StoredDraftOfferProps {
  offer: StoredDraft;
  /** The version the editor builds on now. */
  baseVersion: number;
  onRestore: () => void;
  onDiscard: () => void;
}

export function StoredDraftOffer({ offer, baseVersion, onRestore, onDiscard }: StoredDraftOfferProps) {
  return (
    <div className="callout" role="note">
      <p>
        You have unsaved changes to this page from <TimeAgo iso={offer.savedAt} />, kept in this browser
        {offer.baseVersion !== baseVersion ? ` (started from version ${offer.baseVersion})` : ""}.
      </p>
      <div className="callout__actions">
        <button type="button" className="button button--small button--primary" onClick={onRestore}>
          Bring them back
        </button>
        <button type="button" className="button button--small" onClick={onDiscard}>
          Discard them
        </button>
      </div>
    </div>
  );
}

interface NewerVersionProps {
  newer: PageView;
  /** The draft has unsaved changes (so loading theirs would throw them away). */
  dirty: boolean;
  directory: Directory;
  onCompare: () => void;
  onLoad: () => void;
}

export function NewerVersion({ newer, dirty, directory, onCompare, onLoad }: NewerVersionProps) {
  return (
    <div className="callout callout--warn" role="status">
      <p>
        <ActorName actor={newer.updated_by} directory={directory} /> saved version {newer.version} <TimeAgo iso={newer.updated_at} /> while you’re editing.
        {dirty ? " Saving now would need a choice between your text and theirs." : ""}
      </p>
      <div className="callout__actions">
        {dirty ? (
          <button type="button" className="button button--small" onClick={onCompare}>
            Compare now
          </button>
        ) : (
          <button type="button" className="button button--small button--primary" onClick={onLoad}>
            Load version {newer.version}
          </button>
        )}
      </div>
    </div>
  );
}

export function DiscardedText({ discarded, onPutBack, onDismiss }: { discarded: Draft; onPutBack: () => void; onDismiss: () => void }) {
  return (
    <details className="callout" open>
      <summary>Your text from before (not saved)</summary>
      <p className="field__hint">You took the other version. Your own text is here until you close the editor.</p>
      <pre className="text-block">{discarded.body}</pre>
      <div className="callout__actions">
        <CopyButton text={discarded.body} label="Copy your earlier text" />
        <button type="button" className="button button--small" onClick={onPutBack}>
          Put my text back
        </button>
        <button type="button" className="button button--small button--quiet" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    </details>
  );
}

export function ReferenceText({ reference, body, onHide }: { reference: PageView; body: string; onHide: () => void }) {
  const theirs = draftOf(reference).body;
  return (
    <details className="callout" open>
      <summary>Version {reference.version} by the other side, for reference</summary>
      <p className="field__hint">Marked lines are not in your text yet. Saving goes over version {reference.version}.</p>
      <DiffView lines={diffLines(body, theirs).theirs} label={`Text of version ${reference.version}`} tone="theirs" />
      <div className="callout__actions">
        <CopyButton text={theirs} label={`Copy the text of version ${reference.version}`} />
        <button type="button" className="button button--small button--quiet" onClick={onHide}>
          Hide
        </button>
      </div>
    </details>
  );
}
