import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useLocation } from "wouter";
import { describeError, fieldIssue, isConflict } from "../../lib/errors";
import { slugProblem } from "../../lib/slug";
import { useTRPC } from "../../trpc";
import { FieldError, TextField } from "../field";
import { FormDialog } from "../modal-dialog";
import { SlugField, useNameAndSlug } from "../slug-field";

/** A new page: title, address (slug) and format; then straight into the editor. */
export function NewPageDialog({ open, workspace, onClose }: { open: boolean; workspace: string; onClose: () => void }) {
  const id = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [summary, setSummary] = useState("");
  const [format, setFormat] = useState<"markdown" | "html">("markdown");
  const [showProblems, setShowProblems] = useState(false);

  const create = useMutation(
    trpc.pages.create.mutationOptions({
      onSuccess: async (page) => {
        queryClient.setQueryData(trpc.pages.get.queryKey({ slug: page.slug }), page);
        await Promise.all([queryClient.invalidateQueries(trpc.pages.list.pathFilter()), queryClient.invalidateQueries(trpc.workspaces.pathFilter())]);
        onClose();
        navigate(`/buckets/${workspace}/${page.slug}?edit=1`);
      },
    }),
  );
  const {
    name: title,
    slug,
    changeName: changeTitle,
    changeSlug,
    reset: resetNames,
  } = useNameAndSlug(() => {
    if (create.isError) create.reset();
  });

  const startAfresh = () => {
    resetNames();
    setSummary("");
    setFormat("markdown");
    setShowProblems(false);
    create.reset();
  };

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
  const otherError = create.error && !slugError && !titleError && !fieldIssue(create.error, "summary") ? describeError(create.error) : null;
  const summaryError = create.error ? fieldIssue(create.error, "summary") : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShowProblems(true);
    if (titleProblem || localSlugProblem) return;
    const base = { workspace, slug, title: title.trim(), ...(summary.trim() ? { summary: summary.trim() } : {}) };
    create.mutate(format === "markdown" ? { ...base, body_markdown: "" } : { ...base, body_html: "" });
  };

  return (
    <FormDialog
      open={open}
      onOpen={startAfresh}
      onClose={onClose}
      busy={create.isPending}
      title="New page"
      className="dialog dialog--wide"
      onSubmit={submit}
      error={otherError}
      submitLabel="Create and edit"
    >
      <TextField label="Title" error={titleError} value={title} maxLength={200} autoFocus onChange={changeTitle} />
      <SlugField
        label="Address"
        prefix="/a/"
        value={slug}
        onChange={changeSlug}
        error={slugError}
        hint="The page’s own link. Lower-case letters, digits and hyphens; unique across Atelier."
      />
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
        <FieldError>{summaryError}</FieldError>
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
    </FormDialog>
  );
}
