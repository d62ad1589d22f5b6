import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { useLocation } from "wouter";
import { describeError, fieldIssue, isConflict } from "../../lib/errors";
import { SLUG_MAX, slugify, slugProblem } from "../../lib/slug";
import { useTRPC } from "../../trpc";

/** Name and slug of a new workspace; the slug follows the name until edited by hand. */
export function CreateWorkspaceForm({ onCancel }: { onCancel?: () => void }) {
  const id = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  const [showProblems, setShowProblems] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const slugRef = useRef<HTMLInputElement>(null);

  const create = useMutation(
    trpc.workspaces.create.mutationOptions({
      onSuccess: async (ws) => {
        await queryClient.invalidateQueries({ queryKey: trpc.workspaces.list.queryKey() });
        navigate(`/buckets/${ws.slug}`);
      },
    }),
  );

  const nameProblem = name.trim() ? null : "Give the workspace a name.";
  const localSlugProblem = slugProblem(slug);
  const serverSlugProblem = create.error
    ? isConflict(create.error)
      ? `“${slug}” is already taken. Try another slug.`
      : fieldIssue(create.error, "slug")
    : null;
  const serverNameProblem = create.error ? fieldIssue(create.error, "name") : null;
  const slugError = (showProblems ? localSlugProblem : null) ?? serverSlugProblem;
  const nameError = (showProblems ? nameProblem : null) ?? serverNameProblem;
  const otherError =
    create.error && !serverSlugProblem && !serverNameProblem ? describeError(create.error) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShowProblems(true);
    if (nameProblem) {
      nameRef.current?.focus();
      return;
    }
    if (localSlugProblem) {
      slugRef.current?.focus();
      return;
    }
    create.mutate({ name: name.trim(), slug });
  };

  return (
    <form className="create-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        New workspace
      </h2>
      <div className="form-grid">
        <div className="field">
          <label className="field__label" htmlFor={`${id}-name`}>
            Name
          </label>
          <input
            ref={nameRef}
            id={`${id}-name`}
            className="field__input"
            value={name}
            maxLength={100}
            autoFocus
            placeholder="Research notes"
            onChange={(e) => {
              setName(e.target.value);
              if (!slugEdited) setSlug(slugify(e.target.value));
              if (create.isError) create.reset();
            }}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${id}-name-error` : undefined}
          />
          {nameError ? (
            <p id={`${id}-name-error`} className="field__message field__message--error">
              {nameError}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-slug`}>
            Slug
          </label>
          <input
            ref={slugRef}
            id={`${id}-slug`}
            className="field__input field__input--mono"
            value={slug}
            maxLength={SLUG_MAX + 10}
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            placeholder="research-notes"
            onChange={(e) => {
              setSlug(e.target.value);
              setSlugEdited(e.target.value !== "");
              if (create.isError) create.reset();
            }}
            aria-invalid={slugError ? true : undefined}
            aria-describedby={`${id}-slug-hint${slugError ? ` ${id}-slug-error` : ""}`}
          />
          <p id={`${id}-slug-hint`} className="field__hint">
            Lower-case letters, digits and hyphens; up to {SLUG_MAX}. It’s in the address:{" "}
            <span className="mono">/app/buckets/{slug || "…"}</span>
          </p>
          {slugError ? (
            <p id={`${id}-slug-error`} className="field__message field__message--error">
              {slugError}
            </p>
          ) : null}
        </div>
      </div>
      <p className="field__error" role="alert">
        {otherError}
      </p>
      <div className="form-actions">
        {onCancel ? (
          <button type="button" className="button" onClick={onCancel} disabled={create.isPending}>
            Cancel
          </button>
        ) : null}
        <button type="submit" className="button button--primary" disabled={create.isPending}>
          {create.isPending ? (
            <>
              <span className="spinner spinner--inline" aria-hidden="true" /> Creating…
            </>
          ) : (
            "Create workspace"
          )}
        </button>
      </div>
    </form>
  );
}
