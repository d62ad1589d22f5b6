import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent } from "react";
import { useLocation } from "wouter";
import { describeError, fieldIssue, isConflict } from "../../lib/errors";
import { slugProblem } from "../../lib/slug";
import { useTRPC } from "../../trpc";
import { TextField } from "../field";
import { FormDialog } from "../modal-dialog";
import { SlugField, useNameAndSlug } from "../slug-field";

/** The column every new table starts with: the rows' names. More are added from the grid's header. */
export const FIRST_COLUMN = { name: "Name", type: "text" } as const;

/**
 * A new table: a name first, nothing else to decide. It opens with one text column, "Name";
 * its other columns grow from the grid's header ("+"), as in a spreadsheet.
 */
export function NewTableDialog({ open, workspace, onClose }: { open: boolean; workspace: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();

  const create = useMutation(
    trpc.collections.create.mutationOptions({
      onSuccess: async (table) => {
        await Promise.all([
          queryClient.invalidateQueries(trpc.collections.list.queryFilter({ workspace })),
          queryClient.invalidateQueries(trpc.workspaces.pathFilter()),
        ]);
        onClose();
        navigate(`/buckets/${workspace}/tables/${table.slug}`);
      },
    }),
  );
  const {
    name,
    slug,
    changeName,
    changeSlug,
    reset: resetNames,
  } = useNameAndSlug(() => {
    if (create.isError) create.reset();
  });

  const startAfresh = () => {
    resetNames();
    create.reset();
  };

  const localSlugProblem = name.trim() ? slugProblem(slug) : null;
  const serverSlug = create.error
    ? isConflict(create.error)
      ? `This workspace already has a table or collection called “${slug}”. Choose another address.`
      : fieldIssue(create.error, "slug")
    : null;
  const nameError = create.error ? fieldIssue(create.error, "name") : null;
  const slugError = serverSlug ?? (create.isError ? localSlugProblem : null);
  const otherError = create.error && !serverSlug && !nameError ? describeError(create.error) : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!name.trim() || localSlugProblem) {
      event.currentTarget.querySelector<HTMLElement>("input")?.focus();
      return;
    }
    create.mutate({ workspace, slug, name: name.trim(), kind: "table", columns: [FIRST_COLUMN] });
  };

  return (
    <FormDialog
      open={open}
      onOpen={startAfresh}
      onClose={onClose}
      busy={create.isPending}
      title="New table"
      className="dialog"
      onSubmit={submit}
      error={otherError}
      submitLabel="Create table"
    >
      <div className="form-grid">
        <TextField
          label="Name"
          error={nameError}
          value={name}
          maxLength={100}
          autoFocus
          placeholder="e.g. Reading list"
          hint="It starts with a “Name” column; add the others from the table’s header."
          onChange={changeName}
        />
        <SlugField
          value={slug}
          onChange={changeSlug}
          error={slugError}
          hint="In the table’s link, and how agents name it. Lower-case letters, digits and hyphens."
        />
      </div>
    </FormDialog>
  );
}
