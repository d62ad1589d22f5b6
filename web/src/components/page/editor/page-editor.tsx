// Editing a page: title, summary and the body (Markdown written in place with a live preview,
// or HTML with a sandboxed preview). It saves itself after each pause in typing (one version
// per pause, not per keystroke) and on Ctrl/⌘+S anywhere on the page; a failed save is tried
// again when the connection comes back. Saving says which version it builds on (expected_version); when
// someone else saved meanwhile, the conflict panel shows both texts and lets the person
// choose, and nothing typed is ever thrown away. The state lives in editor-session.ts
// (what is on screen), use-page-save.ts (saving) and use-stored-draft.ts (the browser copy).
import { type FormEvent, useEffect, useRef, useState } from "react";
import type { Directory } from "../../../lib/actors";
import { draftOf, editableKind, keepMine, sameDraft, tablesOf, tablesText } from "../../../lib/draft";
import { useConnection } from "../../../lib/connection";
import { describeError, fieldIssue, isNetworkFailure, isVersionConflict } from "../../../lib/errors";
import { mergeDrafts } from "../../../lib/merge";
import { ActorName } from "../../actor-name";
import { CopyButton } from "../../copy-button";
import { TextField } from "../../field";
import { ConflictPanel } from "../conflict-panel";
import { TableViewsField } from "../table-views-field";
import { BodyEditor } from "./body-editor";
import { EditorBar } from "./editor-bar";
import { DiscardedText, NewerVersion, ReferenceText, StoredDraftOffer } from "./editor-notes";
import { type PageView, statusOf } from "./editor-session";
import { useAddressFromTitle } from "./use-address-from-title";
import { useLeaveGuard } from "./use-leave-guard";
import { usePageSave } from "./use-page-save";
import { useStoredDraft } from "./use-stored-draft";
import "./page-editor.css";

/** How long a pause in typing is before the page saves itself. */
export const AUTOSAVE_PAUSE_MS = 1500;

export function PageEditor({
  page,
  latest,
  directory,
  onClose,
  fresh = false,
}: {
  /** The page as it was when editing started. */
  page: PageView;
  /** The newest version the app has heard of (refreshed while editing). */
  latest: PageView;
  directory: Directory;
  onClose: () => void;
  /** A page just made with "New page": the title is selected to type over. */
  fresh?: boolean;
}) {
  const kind = editableKind(page);
  const { session, dispatch, save, send } = usePageSave(page);
  const { base, draft, conflict, conflictError, discarded, reference } = session;
  const [pane, setPane] = useState<"write" | "preview">("write");
  const [titleProblem, setTitleProblem] = useState<string | null>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const dirty = !sameDraft(draft, draftOf(base));
  const stored = useStoredDraft(page.slug, draftOf(page), { dirty, draft, baseVersion: base.version, savedVersion: session.savedVersion });
  const connection = useConnection();
  // The draft a save failed on for a reason other than a race (offline, refused): not sent
  // again by itself until it changes or the connection comes back.
  const [failedOn, setFailedOn] = useState<typeof draft | null>(null);
  useLeaveGuard(dirty || save.isPending);
  useAddressFromTitle(page.workspace, base, (slug) => dispatch({ type: "moved", slug }));

  const submit = (event?: FormEvent, quiet = false) => {
    event?.preventDefault();
    if (save.isPending || conflict) return;
    if (!draft.title.trim()) {
      // An autosave waits quietly for a title; only an explicit save says so.
      if (quiet) return;
      setTitleProblem("Give the page a title.");
      titleRef.current?.focus();
      return;
    }
    setTitleProblem(null);
    setFailedOn(null);
    lastSent.current = draft;
    send(base, draft, false);
  };
  const submitRef = useRef(submit);
  submitRef.current = submit;

  // Ctrl/⌘+S saves from anywhere on the page, not only from inside the text.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === "s") {
        event.preventDefault();
        submitRef.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // Autosave: a pause in typing saves (one version per pause, not one per keystroke).
  const saveFailed = Boolean(save.error) && !isVersionConflict(save.error);
  const lastSent = useRef(draft);
  useEffect(() => {
    if (saveFailed) setFailedOn(lastSent.current);
  }, [saveFailed]);
  useEffect(() => {
    if (!fresh) return;
    titleRef.current?.focus();
    titleRef.current?.select();
  }, [fresh]);
  const waiting = dirty && !conflict && !save.isPending && failedOn !== draft && !connection.offline;
  useEffect(() => {
    if (!waiting) return undefined;
    const timer = window.setTimeout(() => submitRef.current(undefined, true), AUTOSAVE_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [waiting, draft]);

  // Back online: what failed is sent again.
  const wasOffline = useRef(connection.offline);
  useEffect(() => {
    const cameBack = wasOffline.current && !connection.offline;
    wasOffline.current = connection.offline;
    if (cameBack && dirty && !conflict) submitRef.current(undefined, true);
  }, [connection.offline, dirty, conflict]);

  const newer = !conflict && latest.version > base.version ? latest : null;
  const serverError =
    save.error && !isVersionConflict(save.error) && !conflict
      ? isNetworkFailure(save.error)
        ? "Not saved yet: Atelier can’t be reached. Your text stays here and is saved when the connection comes back."
        : (fieldIssue(save.error, "title") ?? fieldIssue(save.error, "body_markdown") ?? fieldIssue(save.error, "tables") ?? describeError(save.error))
      : null;

  return (
    <form className="editor" onSubmit={submit} noValidate aria-label={`Edit ${page.title}`}>
      <EditorBar
        status={statusOf(session, save.isPending, dirty)}
        dirty={dirty}
        pane={pane}
        onPane={setPane}
        showPanes={kind !== null && !conflict}
        saving={save.isPending}
        showSave={!conflict}
        onClose={() => {
          if (stored.leave()) onClose();
        }}
      />

      {stored.offer ? (
        <StoredDraftOffer
          offer={stored.offer}
          baseVersion={base.version}
          onRestore={() => {
            if (stored.offer) dispatch({ type: "restore-stored", stored: stored.offer });
            stored.acceptOffer();
          }}
          onDiscard={stored.discardOffer}
        />
      ) : null}

      {newer ? (
        <NewerVersion
          newer={newer}
          dirty={dirty}
          directory={directory}
          onCompare={() => dispatch({ type: "conflict", theirs: newer })}
          onLoad={() => dispatch({ type: "load", page: newer })}
        />
      ) : null}

      {session.merged ? (
        <p className="callout" role="status">
          Merged with <ActorName actor={session.merged.with} directory={directory} />
          ’s change to version {session.merged.version}
          {session.savedVersion !== null && session.savedVersion > session.merged.version
            ? `, saved as version ${session.savedVersion}.`
            : ": your changes and theirs touch different parts, so both are kept."}
        </p>
      ) : null}

      {discarded ? (
        <DiscardedText discarded={discarded} onPutBack={() => dispatch({ type: "put-back" })} onDismiss={() => dispatch({ type: "dismiss-discarded" })} />
      ) : null}

      {conflict ? (
        <ConflictPanel
          base={base}
          mine={draft}
          theirs={conflict}
          directory={directory}
          saving={save.isPending}
          error={conflictError}
          onKeepMine={() => {
            // Their changes that don't overlap mine are kept too; where they overlap, mine wins.
            const merged = mergeDrafts(draftOf(base), draft, draftOf(conflict)) ?? keepMine(draftOf(base), draft, draftOf(conflict));
            dispatch({ type: "keep-mine", merged });
            send(conflict, merged, true);
          }}
          onTakeTheirs={() => dispatch({ type: "take-theirs" })}
          onEditMine={() => dispatch({ type: "combine" })}
        />
      ) : (
        <>
          {conflictError ? (
            <div className="callout callout--warn" role="alert">
              <p>{conflictError}</p>
              <CopyButton text={draft.body} label="Copy your text" />
            </div>
          ) : null}
          <div className="editor__meta">
            <TextField
              label="Title"
              error={titleProblem}
              inputRef={titleRef}
              value={draft.title}
              maxLength={200}
              onChange={(title) => {
                dispatch({ type: "edit", change: { title } });
                setTitleProblem(null);
              }}
            />
            <TextField
              label={
                <>
                  Summary <span className="field__optional">(optional)</span>
                </>
              }
              value={draft.summary}
              maxLength={500}
              onChange={(summary) => dispatch({ type: "edit", change: { summary } })}
            />
          </div>

          {reference ? <ReferenceText reference={reference} body={draft.body} onHide={() => dispatch({ type: "hide-reference" })} /> : null}

          {kind === null ? (
            <p className="callout" role="note">
              This page is made of tables, which people and agents keep up to date. You can change its title, its summary and which tables it shows here.
            </p>
          ) : (
            <BodyEditor
              kind={kind}
              body={draft.body}
              onChange={(body) => dispatch({ type: "edit", change: { body } })}
              pane={pane}
              title={draft.title}
              summary={draft.summary}
              autoFocus={!fresh}
              workspace={page.workspace}
            />
          )}
          <TableViewsField
            workspace={page.workspace}
            value={tablesOf(draft)}
            onChange={(specs) => dispatch({ type: "edit", change: { tables: tablesText(specs) } })}
            disabled={save.isPending}
          />
          <p className="field__error" role="alert">
            {serverError}
          </p>
        </>
      )}
    </form>
  );
}
