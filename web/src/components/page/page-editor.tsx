// Editing a page: title, summary and the body (Markdown with a live preview, or HTML with a
// sandboxed preview). Saving says which version it builds on (expected_version); when
// someone else saved meanwhile, the conflict panel shows both texts and lets the person
// choose, and nothing typed is ever thrown away.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, lazy, type KeyboardEvent, Suspense, useEffect, useId, useMemo, useRef, useState } from "react";
import type { Directory } from "../../lib/actors";
import {
  clearStoredDraft,
  type Draft,
  draftOf,
  editableKind,
  isEmptyUpdate,
  keepMine,
  loadStoredDraft,
  sameDraft,
  type StoredDraft,
  storeDraft,
  storedAsDraft,
  tablesOf,
  tablesText,
  updateInputFor,
} from "../../lib/draft";
import { describeError, fieldIssue, isNotFound, isVersionConflict } from "../../lib/errors";
import { diffLines } from "../../lib/line-diff";
import { type RouterOutputs, useTRPC } from "../../trpc";
import { ActorName } from "../actor-name";
import { CopyButton } from "../copy-button";
import { TimeAgo } from "../time-ago";
import { ConflictPanel } from "./conflict-panel";
import { DiffView } from "./diff-view";
import { TableViewsField } from "./table-views-field";

const RenderedBody = lazy(() => import("./rendered-body").then((m) => ({ default: m.RenderedBody })));

type PageView = RouterOutputs["pages"]["get"];

interface Conflict {
  theirs: PageView;
}

export function PageEditor({
  page,
  latest,
  directory,
  onClose,
}: {
  /** The page as it was when editing started. */
  page: PageView;
  /** The newest version the app has heard of (refreshed while editing). */
  latest: PageView;
  directory: Directory;
  onClose: () => void;
}) {
  const id = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const kind = editableKind(page);

  const [base, setBase] = useState<PageView>(page);
  const [draft, setDraft] = useState<Draft>(() => draftOf(page));
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [conflictError, setConflictError] = useState<string | null>(null);
  const [discarded, setDiscarded] = useState<Draft | null>(null);
  const [reference, setReference] = useState<PageView | null>(null);
  const [pane, setPane] = useState<"write" | "preview">("write");
  const [savedVersion, setSavedVersion] = useState<number | null>(null);
  const [offer, setOffer] = useState<StoredDraft | null>(() => {
    const stored = loadStoredDraft(page.slug);
    return stored && !sameDraft(storedAsDraft(stored, draftOf(page)), draftOf(page)) ? stored : null;
  });
  const [titleProblem, setTitleProblem] = useState<string | null>(null);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const titleRef = useRef<HTMLInputElement>(null);

  const dirty = !sameDraft(draft, draftOf(base));

  const afterSave = async (saved: PageView) => {
    queryClient.setQueryData(trpc.pages.get.queryKey({ slug: saved.slug }), saved);
    await Promise.all([
      queryClient.invalidateQueries(trpc.pages.list.pathFilter()),
      queryClient.invalidateQueries(trpc.pages.history.queryFilter({ slug: saved.slug })),
      queryClient.invalidateQueries(trpc.workspaces.pathFilter()),
    ]);
  };

  const save = useMutation(trpc.pages.update.mutationOptions());

  /** Someone saved meanwhile: fetch their version and show both side by side. */
  const showConflict = async () => {
    try {
      const theirs = await queryClient.fetchQuery(trpc.pages.get.queryOptions({ slug: page.slug }, { staleTime: 0 }));
      save.reset();
      setConflict({ theirs });
    } catch (fetchErr) {
      setConflictError(
        isNotFound(fetchErr)
          ? "This page was deleted meanwhile. Copy your text below to keep it."
          : `Someone changed this page meanwhile, and the newest version didn’t load. ${describeError(fetchErr)}`,
      );
    }
  };

  /** Sends `next` on top of `over`; on a version conflict, fetches the newest and shows both. */
  const send = (over: PageView, next: Draft, resolving: boolean) => {
    const input = updateInputFor(over, next);
    if (isEmptyUpdate(input)) {
      // Nothing differs from the version it would go over: adopt that version.
      setBase(over);
      setDraft(next);
      setConflict(null);
      clearStoredDraft(page.slug);
      return;
    }
    setConflictError(null);
    save.mutate(input, {
      onSuccess: (saved) => {
        setBase(saved);
        setConflict(null);
        setReference(null);
        setSavedVersion(saved.version);
        // Typing may have gone on during the save: keep it, it is simply not saved yet.
        setDraft((current) => (sameDraft(current, next) ? draftOf(saved) : current));
        clearStoredDraft(page.slug);
        void afterSave(saved);
      },
      onError: (err) => {
        if (!isVersionConflict(err)) {
          if (resolving) setConflictError(describeError(err));
          return;
        }
        void showConflict();
      },
    });
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (save.isPending || conflict) return;
    if (!draft.title.trim()) {
      setTitleProblem("Give the page a title.");
      titleRef.current?.focus();
      return;
    }
    setTitleProblem(null);
    send(base, draft, false);
  };

  // Ctrl/Cmd+S saves, as in any editor.
  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === "s") {
      event.preventDefault();
      submit();
    }
  };

  // Unsaved work is kept in this browser, and leaving the page asks first.
  useEffect(() => {
    if (!dirty) return undefined;
    const timer = window.setTimeout(() => storeDraft(page.slug, draft, base.version), 600);
    const beforeUnload = (event: BeforeUnloadEvent) => {
      storeDraft(page.slug, draft, base.version);
      event.preventDefault();
    };
    window.addEventListener("beforeunload", beforeUnload);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener("beforeunload", beforeUnload);
    };
  }, [dirty, draft, base.version, page.slug]);

  // Leaving the editor inside the app (a link, the back button) keeps unsaved work too.
  const unsaved = useRef<{ dirty: boolean; draft: Draft; baseVersion: number }>({ dirty, draft, baseVersion: base.version });
  unsaved.current = { dirty, draft, baseVersion: base.version };
  useEffect(
    () => () => {
      const { dirty: wasDirty, draft: last, baseVersion } = unsaved.current;
      if (wasDirty) storeDraft(page.slug, last, baseVersion);
    },
    [page.slug],
  );

  const close = () => {
    if (dirty && !window.confirm("Leave the editor? Your changes aren’t saved. (A copy stays in this browser.)")) return;
    unsaved.current = { ...unsaved.current, dirty: false };
    if (dirty) storeDraft(page.slug, draft, base.version);
    else clearStoredDraft(page.slug);
    onClose();
  };

  const newer = !conflict && latest.version > base.version ? latest : null;
  const previewParts = useMemo(
    () => (kind === null ? base.parts : [{ kind, body: draft.body }]),
    [kind, base.parts, draft.body],
  );
  const serverError =
    save.error && !isVersionConflict(save.error) && !conflict
      ? (fieldIssue(save.error, "title") ?? fieldIssue(save.error, "body_markdown") ?? fieldIssue(save.error, "tables") ?? describeError(save.error))
      : null;

  const status = save.isPending
    ? "Saving…"
    : conflict
      ? "Not saved: this page changed meanwhile"
      : dirty
        ? "Unsaved changes"
        : savedVersion !== null
          ? `Saved as version ${savedVersion}`
          : `Editing version ${base.version}`;

  return (
    <form className="editor" onSubmit={submit} onKeyDown={onKeyDown} noValidate aria-label={`Edit ${page.title}`}>
      <div className="editor__bar">
        <p className={`editor__status ${dirty ? "editor__status--dirty" : ""}`} role="status" aria-live="polite">
          {status}
        </p>
        {kind && !conflict ? (
          <div className="segmented editor__panes" role="group" aria-label="Show">
            <button type="button" aria-pressed={pane === "write"} onClick={() => setPane("write")}>
              Write
            </button>
            <button type="button" aria-pressed={pane === "preview"} onClick={() => setPane("preview")}>
              Preview
            </button>
          </div>
        ) : null}
        <div className="editor__actions">
          <button type="button" className="button button--small" onClick={close} disabled={save.isPending}>
            {dirty ? "Cancel" : "Done"}
          </button>
          {!conflict ? (
            <button
              type="submit"
              className="button button--primary button--small"
              disabled={save.isPending || !dirty}
              aria-keyshortcuts="Control+S Meta+S"
              title="Save (Ctrl+S or ⌘S)"
            >
              {save.isPending ? "Saving…" : "Save"}
            </button>
          ) : null}
        </div>
      </div>

      {offer ? (
        <div className="callout" role="note">
          <p>
            You have unsaved changes to this page from <TimeAgo iso={offer.savedAt} />, kept in this browser
            {offer.baseVersion !== base.version ? ` (started from version ${offer.baseVersion})` : ""}.
          </p>
          <div className="callout__actions">
            <button
              type="button"
              className="button button--small button--primary"
              onClick={() => {
                setDraft((d) => storedAsDraft(offer, d));
                setOffer(null);
              }}
            >
              Bring them back
            </button>
            <button
              type="button"
              className="button button--small"
              onClick={() => {
                clearStoredDraft(page.slug);
                setOffer(null);
              }}
            >
              Discard them
            </button>
          </div>
        </div>
      ) : null}

      {newer ? (
        <div className="callout callout--warn" role="status">
          <p>
            <ActorName actor={newer.updated_by} directory={directory} /> saved version {newer.version}{" "}
            <TimeAgo iso={newer.updated_at} /> while you’re editing.
            {dirty ? " Saving now would need a choice between your text and theirs." : ""}
          </p>
          <div className="callout__actions">
            {dirty ? (
              <button type="button" className="button button--small" onClick={() => setConflict({ theirs: newer })}>
                Compare now
              </button>
            ) : (
              <button
                type="button"
                className="button button--small button--primary"
                onClick={() => {
                  setBase(newer);
                  setDraft(draftOf(newer));
                }}
              >
                Load version {newer.version}
              </button>
            )}
          </div>
        </div>
      ) : null}

      {discarded ? (
        <details className="callout" open>
          <summary>Your text from before (not saved)</summary>
          <p className="field__hint">You took the other version. Your own text is here until you close the editor.</p>
          <pre className="text-block">{discarded.body}</pre>
          <div className="callout__actions">
            <CopyButton text={discarded.body} label="Copy your earlier text" />
            <button
              type="button"
              className="button button--small"
              onClick={() => {
                setDraft(discarded);
                setDiscarded(null);
              }}
            >
              Put my text back
            </button>
            <button type="button" className="button button--small button--quiet" onClick={() => setDiscarded(null)}>
              Dismiss
            </button>
          </div>
        </details>
      ) : null}

      {conflict ? (
        <ConflictPanel
          base={base}
          mine={draft}
          theirs={conflict.theirs}
          directory={directory}
          saving={save.isPending}
          error={conflictError}
          onKeepMine={() => {
            const merged = keepMine(draftOf(base), draft, draftOf(conflict.theirs));
            setDraft(merged);
            send(conflict.theirs, merged, true);
          }}
          onTakeTheirs={() => {
            setDiscarded(draft);
            setBase(conflict.theirs);
            setDraft(draftOf(conflict.theirs));
            setConflict(null);
          }}
          onEditMine={() => {
            setDraft(keepMine(draftOf(base), draft, draftOf(conflict.theirs)));
            setBase(conflict.theirs);
            setReference(conflict.theirs);
            setConflict(null);
          }}
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
            <div className="field">
              <label className="field__label" htmlFor={`${id}-title`}>
                Title
              </label>
              <input
                ref={titleRef}
                id={`${id}-title`}
                className="field__input"
                value={draft.title}
                maxLength={200}
                onChange={(e) => {
                  setDraft((d) => ({ ...d, title: e.target.value }));
                  setTitleProblem(null);
                }}
                aria-invalid={titleProblem ? true : undefined}
                aria-describedby={titleProblem ? `${id}-title-error` : undefined}
              />
              {titleProblem ? (
                <p id={`${id}-title-error`} className="field__message field__message--error">
                  {titleProblem}
                </p>
              ) : null}
            </div>
            <div className="field">
              <label className="field__label" htmlFor={`${id}-summary`}>
                Summary <span className="field__optional">(optional)</span>
              </label>
              <input
                id={`${id}-summary`}
                className="field__input"
                value={draft.summary}
                maxLength={500}
                onChange={(e) => setDraft((d) => ({ ...d, summary: e.target.value }))}
              />
            </div>
          </div>

          {reference ? (
            <details className="callout" open>
              <summary>Version {reference.version} by the other side, for reference</summary>
              <p className="field__hint">Marked lines are not in your text yet. Saving goes over version {reference.version}.</p>
              <DiffView lines={diffLines(draft.body, draftOf(reference).body).theirs} label={`Text of version ${reference.version}`} tone="theirs" />
              <div className="callout__actions">
                <CopyButton text={draftOf(reference).body} label={`Copy the text of version ${reference.version}`} />
                <button type="button" className="button button--small button--quiet" onClick={() => setReference(null)}>
                  Hide
                </button>
              </div>
            </details>
          ) : null}

          {kind === null ? (
            <p className="callout" role="note">
              This page is made of tables, which people and agents keep up to date. You can change its title, its summary and
              which tables it shows here.
            </p>
          ) : (
            <div className={`editor__split editor__split--${pane}`}>
              <div className="editor__pane editor__pane--write">
                <label className="editor__pane-label" htmlFor={`${id}-body`}>
                  {kind === "markdown" ? "Markdown" : "HTML"}
                </label>
                <textarea
                  ref={bodyRef}
                  id={`${id}-body`}
                  className="editor__textarea"
                  value={draft.body}
                  spellCheck={kind === "markdown"}
                  autoCapitalize="sentences"
                  onChange={(e) => setDraft((d) => ({ ...d, body: e.target.value }))}
                  aria-describedby={`${id}-body-hint`}
                  placeholder={kind === "markdown" ? "# A heading\n\nWrite in Markdown…" : "<!doctype html>\n<html>…"}
                />
                <p id={`${id}-body-hint`} className="field__hint">
                  {kind === "markdown"
                    ? "Markdown: # heading, **bold**, _italic_, - list, [link](https://…), | tables |. Ctrl+S saves."
                    : "A whole HTML document. It runs in a sandbox, apart from Atelier. Ctrl+S saves."}
                </p>
              </div>
              <div className="editor__pane editor__pane--preview" aria-label="Preview">
                <span className="editor__pane-label" aria-hidden="true">
                  Preview
                </span>
                <Suspense fallback={<p className="muted">Preparing the preview…</p>}>
                  <RenderedBody parts={previewParts} title={draft.title} summary={draft.summary} label="Preview" />
                </Suspense>
              </div>
            </div>
          )}
          <TableViewsField
            workspace={page.workspace}
            value={tablesOf(draft)}
            onChange={(specs) => setDraft((d) => ({ ...d, tables: tablesText(specs) }))}
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
