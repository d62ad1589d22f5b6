import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useLocation } from "wouter";
import { describeError, fieldIssue, isConflict } from "../../lib/errors";
import { SLUG_MAX, slugify, slugProblem } from "../../lib/slug";
import { useTRPC } from "../../trpc";

/** A new page: title, address (slug) and format; then straight into the editor. */
export function NewPageDialog({ open, workspace, onClose }: { open: boolean; workspace: string; onClose: () => void }) {
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [title, setTitle] = useState("");
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  const [summary, setSummary] = useState("");
  const [format, setFormat] = useState<"markdown" | "html">("markdown");
  const [showProblems, setShowProblems] = useState(false);

  const create = useMutation(
    trpc.pages.create.mutationOptions({
      onSuccess: async (page) => {
        queryClient.setQueryData(trpc.pages.get.queryKey({ slug: page.slug }), page);
        await Promise.all([
          queryClient.invalidateQueries(trpc.pages.list.pathFilter()),
          queryClient.invalidateQueries(trpc.workspaces.pathFilter()),
        ]);
        onClose();
        navigate(`/buckets/${workspace}/${page.slug}?edit=1`);
      },
    }),
  );

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setTitle("");
      setSlug("");
      setSlugEdited(false);
      setSummary("");
      setFormat("markdown");
      setShowProblems(false);
      create.reset();
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
    // Runs when the dialog opens or closes, not when the form changes.
  }, [open]);

  const titleProblem = title.trim() ? null : "Give the page a title.";
  const localSlugProblem = slugProblem(slug);
  const slugError =
    (showProblems ? localSlugProblem : null) ??
    (create.error
      ? isConflict(create.error)
        ? `The address /a/${slug} is already taken (page addresses are shared by all of Atelier). Try another.`
        : fieldIssue(create.error, "slug")
      : null);
  const titleError = (showProblems ? titleProblem : null) ?? (create.error ? fieldIssue(create.error, "title") : null);
  const otherError =
    create.error && !slugError && !titleError && !fieldIssue(create.error, "summary") ? describeError(create.error) : null;
  const summaryError = create.error ? fieldIssue(create.error, "summary") : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShowProblems(true);
    if (titleProblem || localSlugProblem) return;
    const base = { workspace, slug, title: title.trim(), ...(summary.trim() ? { summary: summary.trim() } : {}) };
    create.mutate(format === "markdown" ? { ...base, body_markdown: "" } : { ...base, body_html: "" });
  };

  return (
    <dialog
      ref={ref}
      className="dialog dialog--wide"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        if (!create.isPending) onClose();
      }}
    >
      <form className="dialog__form" onSubmit={submit} noValidate>
        <h2 id={`${id}-title`} className="dialog__title">
          New page
        </h2>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-t`}>
            Title
          </label>
          <input
            id={`${id}-t`}
            className="field__input"
            value={title}
            maxLength={200}
            autoFocus
            onChange={(e) => {
              setTitle(e.target.value);
              if (!slugEdited) setSlug(slugify(e.target.value));
              if (create.isError) create.reset();
            }}
            aria-invalid={titleError ? true : undefined}
            aria-describedby={titleError ? `${id}-t-error` : undefined}
          />
          {titleError ? (
            <p id={`${id}-t-error`} className="field__message field__message--error">
              {titleError}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-s`}>
            Address
          </label>
          <div className="input-prefix">
            <span className="input-prefix__text" aria-hidden="true">
              /a/
            </span>
            <input
              id={`${id}-s`}
              className="field__input field__input--mono"
              value={slug}
              maxLength={SLUG_MAX + 10}
              autoCapitalize="off"
              autoCorrect="off"
              spellCheck={false}
              onChange={(e) => {
                setSlug(e.target.value);
                setSlugEdited(e.target.value !== "");
                if (create.isError) create.reset();
              }}
              aria-invalid={slugError ? true : undefined}
              aria-describedby={`${id}-s-hint${slugError ? ` ${id}-s-error` : ""}`}
            />
          </div>
          <p id={`${id}-s-hint`} className="field__hint">
            The page’s own link. Lower-case letters, digits and hyphens; unique across Atelier.
          </p>
          {slugError ? (
            <p id={`${id}-s-error`} className="field__message field__message--error">
              {slugError}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-sum`}>
            Summary <span className="field__optional">(optional)</span>
          </label>
          <input
            id={`${id}-sum`}
            className="field__input"
            value={summary}
            maxLength={500}
            onChange={(e) => setSummary(e.target.value)}
            aria-invalid={summaryError ? true : undefined}
          />
          {summaryError ? <p className="field__message field__message--error">{summaryError}</p> : null}
        </div>
        <fieldset className="choice-group">
          <legend className="field__label">Format</legend>
          <label className="choice">
            <input type="radio" name={`${id}-f`} checked={format === "markdown"} onChange={() => setFormat("markdown")} />
            <span>
              <strong>Markdown</strong>
              <span className="choice__hint">Headings, lists, links and tables, with a live preview</span>
            </span>
          </label>
          <label className="choice">
            <input type="radio" name={`${id}-f`} checked={format === "html"} onChange={() => setFormat("html")} />
            <span>
              <strong>HTML</strong>
              <span className="choice__hint">A page of your own, scripts included, shown in a sandbox</span>
            </span>
          </label>
        </fieldset>
        <p className="field__error" role="alert">
          {otherError}
        </p>
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose} disabled={create.isPending}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create and edit"}
          </button>
        </div>
      </form>
    </dialog>
  );
}
