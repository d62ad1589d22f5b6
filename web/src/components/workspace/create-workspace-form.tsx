import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { useLocation } from "wouter";
import { describeError, fieldIssue, isConflict } from "../../lib/errors";
import { SLUG_MAX, slugProblem } from "../../lib/slug";
import { useTRPC } from "../../trpc";
import { TextField } from "../field";
import { SlugField, useNameAndSlug } from "../slug-field";
import { Spinner } from "../spinner";

/** Name and slug of a new workspace; the slug follows the name until edited by hand. */
export function CreateWorkspaceForm({ onCancel }: { onCancel?: () => void }) {
  const id = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
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
  const { name, slug, changeName, changeSlug } = useNameAndSlug(() => {
    if (create.isError) create.reset();
  });

  const nameProblem = name.trim() ? null : "Give the workspace a name.";
  const localSlugProblem = slugProblem(slug);
  const serverSlugProblem = create.error
    ? isConflict(create.error)
      ? `“${slug}” is already taken. Try another address.`
      : fieldIssue(create.error, "slug")
    : null;
  const serverNameProblem = create.error ? fieldIssue(create.error, "name") : null;
  const slugError = (showProblems ? localSlugProblem : null) ?? serverSlugProblem;
  const nameError = (showProblems ? nameProblem : null) ?? serverNameProblem;
  const otherError = create.error && !serverSlugProblem && !serverNameProblem ? describeError(create.error) : null;

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
        <TextField
          label="Name"
          error={nameError}
          inputRef={nameRef}
          value={name}
          maxLength={100}
          autoFocus
          placeholder="Research notes"
          onChange={changeName}
        />
        <SlugField
          inputRef={slugRef}
          value={slug}
          placeholder="research-notes"
          onChange={changeSlug}
          error={slugError}
          hint={
            <>
              Lower-case letters, digits and hyphens; up to {SLUG_MAX}. It’s in the workspace’s link: <span className="mono">/b/{slug || "…"}</span>
            </>
          }
        />
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
              <Spinner inline /> Creating…
            </>
          ) : (
            "Create workspace"
          )}
        </button>
      </div>
    </form>
  );
}
