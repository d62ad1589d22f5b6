import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useLocation } from "wouter";
import { describeError, isConflict } from "../../lib/errors";
import { slugProblem } from "../../lib/slug";
import { type ColumnDraft, columnProblems, columnServerProblems, columnsInput, hasColumnProblems } from "../../lib/table/column-drafts";
import { useTRPC } from "../../trpc";
import { TextField } from "../field";
import { FormDialog } from "../modal-dialog";
import { SlugField, useNameAndSlug } from "../slug-field";
import { ColumnsEditor, newColumn } from "./columns-editor";

/** A new table: its name, its slug, and its columns (name, type, required, choices). */
export function NewTableDialog({ open, workspace, onClose }: { open: boolean; workspace: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [columns, setColumns] = useState<ColumnDraft[]>(() => [newColumn()]);
  const [showProblems, setShowProblems] = useState(false);

  const create = useMutation(
    trpc.collections.create.mutationOptions({
      onSuccess: async (table) => {
        await Promise.all([
          queryClient.invalidateQueries(trpc.collections.list.queryFilter({ workspace })),
          queryClient.invalidateQueries(trpc.workspaces.pathFilter()),
        ]);
        onClose();
        navigate(`/buckets/${workspace}/tables/${table.slug}?add=1`);
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
    setColumns([newColumn()]);
    setShowProblems(false);
    create.reset();
  };

  const nameProblem = name.trim() ? null : "Give the table a name.";
  const localSlugProblem = slugProblem(slug);
  const local = columnProblems(columns);
  const server = create.error ? columnServerProblems(create.error, columns) : { byKey: {}, rest: [] };
  const serverSlug = create.error
    ? isConflict(create.error)
      ? `This workspace already has a table or collection called “${slug}”. Choose another address.`
      : (server.rest.find((p) => p.path === "slug")?.message ?? null)
    : null;
  const slugError = (showProblems ? localSlugProblem : null) ?? (serverSlug ? `The slug ${serverSlug.replace(/^The slug /, "")}` : null);
  const nameError = (showProblems ? nameProblem : null) ?? (server.rest.find((p) => p.path === "name") ? "The name must be 1 to 100 characters." : null);
  const columnErrors = (key: string) => ({
    name: (showProblems ? local.byKey[key]?.name : undefined) ?? server.byKey[key]?.name,
    options: (showProblems ? local.byKey[key]?.options : undefined) ?? server.byKey[key]?.options,
  });
  const overall = (showProblems ? local.overall : null) ?? (server.rest.find((p) => p.path === "columns") ? describeError(create.error) : null);
  const otherError =
    create.error && !isConflict(create.error) && !slugError && !nameError && !overall && Object.keys(server.byKey).length === 0
      ? describeError(create.error)
      : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setShowProblems(true);
    if (nameProblem || localSlugProblem || hasColumnProblems(local)) {
      // Take the person to the first thing to fix (once the messages show).
      const form = event.currentTarget;
      window.setTimeout(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      return;
    }
    create.mutate({ workspace, slug, name: name.trim(), kind: "table", columns: columnsInput(columns) });
  };

  return (
    <FormDialog
      open={open}
      onOpen={startAfresh}
      onClose={onClose}
      busy={create.isPending}
      title="New table"
      className="dialog dialog--medium"
      onSubmit={submit}
      error={otherError}
      submitLabel="Create table"
    >
      <div className="form-grid">
        <TextField label="Name" error={nameError} value={name} maxLength={100} autoFocus placeholder="e.g. Reading list" onChange={changeName} />
        <SlugField
          value={slug}
          onChange={changeSlug}
          error={slugError}
          hint="In the table’s link, and how agents name it. Lower-case letters, digits and hyphens."
        />
      </div>

      <ColumnsEditor
        columns={columns}
        onChange={(next, how) => {
          setColumns(next);
          if (how === "edit" && create.isError) create.reset();
        }}
        errorsOf={columnErrors}
        overall={overall}
      />
    </FormDialog>
  );
}
