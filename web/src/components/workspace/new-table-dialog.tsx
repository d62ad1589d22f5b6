import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useLocation } from "wouter";
import { describeError, isConflict } from "../../lib/errors";
import { SLUG_MAX, slugify, slugProblem } from "../../lib/slug";
import {
  COLUMN_TYPES,
  type ColumnDraft,
  type ColumnType,
  columnProblems,
  columnServerProblems,
  columnsInput,
  hasColumnProblems,
} from "../../lib/table-cells";
import { useTRPC } from "../../trpc";

let columnSeq = 0;
const newColumn = (): ColumnDraft => ({ key: `c${++columnSeq}`, name: "", type: "text", required: false, options: "" });

/** A new table: its name, its slug, and its columns (name, type, required, choices). */
export function NewTableDialog({ open, workspace, onClose }: { open: boolean; workspace: string; onClose: () => void }) {
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  const [columns, setColumns] = useState<ColumnDraft[]>(() => [newColumn()]);
  const [showProblems, setShowProblems] = useState(false);
  const [focusKey, setFocusKey] = useState<string | null>(null);

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

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setName("");
      setSlug("");
      setSlugEdited(false);
      setColumns([newColumn()]);
      setShowProblems(false);
      create.reset();
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
    // Runs when the dialog opens or closes, not when the form changes.
  }, [open]);

  // A column just added gets the focus, so typing goes on from the keyboard.
  useEffect(() => {
    if (!focusKey) return;
    listRef.current?.querySelector<HTMLInputElement>(`[data-key="${focusKey}"]`)?.focus();
    setFocusKey(null);
  }, [focusKey]);

  const nameProblem = name.trim() ? null : "Give the table a name.";
  const localSlugProblem = slugProblem(slug);
  const local = columnProblems(columns);
  const server = create.error ? columnServerProblems(create.error, columns) : { byKey: {}, rest: [] };
  const serverSlug = create.error
    ? isConflict(create.error)
      ? `This workspace already has a table or collection called “${slug}”. Choose another slug.`
      : (server.rest.find((p) => p.path === "slug")?.message ?? null)
    : null;
  const slugError = (showProblems ? localSlugProblem : null) ?? (serverSlug ? `The slug ${serverSlug.replace(/^The slug /, "")}` : null);
  const nameError =
    (showProblems ? nameProblem : null) ?? (server.rest.find((p) => p.path === "name") ? "The name must be 1 to 100 characters." : null);
  const columnError = (key: string) => ({
    name: (showProblems ? local.byKey[key]?.name : undefined) ?? server.byKey[key]?.name,
    options: (showProblems ? local.byKey[key]?.options : undefined) ?? server.byKey[key]?.options,
  });
  const overall =
    (showProblems ? local.overall : null) ??
    (server.rest.find((p) => p.path === "columns") ? describeError(create.error) : null);
  const otherError =
    create.error && !isConflict(create.error) && !slugError && !nameError && !overall && Object.keys(server.byKey).length === 0
      ? describeError(create.error)
      : null;

  const change = (key: string, patch: Partial<ColumnDraft>) => {
    setColumns((cols) => cols.map((c) => (c.key === key ? { ...c, ...patch } : c)));
    if (create.isError) create.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShowProblems(true);
    if (nameProblem || localSlugProblem || hasColumnProblems(local)) {
      // Take the person to the first thing to fix (once the messages show).
      window.setTimeout(() => ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      return;
    }
    create.mutate({ workspace, slug, name: name.trim(), kind: "table", columns: columnsInput(columns) });
  };

  return (
    <dialog
      ref={ref}
      className="dialog dialog--medium"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        if (!create.isPending) onClose();
      }}
    >
      <form className="dialog__form" onSubmit={submit} noValidate>
        <h2 id={`${id}-title`} className="dialog__title">
          New table
        </h2>
        <div className="form-grid">
          <div className="field">
            <label className="field__label" htmlFor={`${id}-n`}>
              Name
            </label>
            <input
              id={`${id}-n`}
              className="field__input"
              value={name}
              maxLength={100}
              autoFocus
              placeholder="e.g. Reading list"
              onChange={(e) => {
                setName(e.target.value);
                if (!slugEdited) setSlug(slugify(e.target.value));
                if (create.isError) create.reset();
              }}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? `${id}-n-error` : undefined}
            />
            {nameError ? (
              <p id={`${id}-n-error`} className="field__message field__message--error">
                {nameError}
              </p>
            ) : null}
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-s`}>
              Slug
            </label>
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
            <p id={`${id}-s-hint`} className="field__hint">
              In the table’s link, and how agents name it. Lower-case letters, digits and hyphens.
            </p>
            {slugError ? (
              <p id={`${id}-s-error`} className="field__message field__message--error">
                {slugError}
              </p>
            ) : null}
          </div>
        </div>

        <fieldset className="columns-editor" aria-describedby={overall ? `${id}-cols-error` : undefined}>
          <legend className="field__label">Columns</legend>
          <p className="field__hint">Each row of the table has a value for each column. Types are checked on every save.</p>
          <ol ref={listRef} className="columns-editor__list">
            {columns.map((col, i) => {
              const errors = columnError(col.key);
              const n = i + 1;
              const label = col.name.trim() ? `column ${n} (${col.name.trim()})` : `column ${n}`;
              return (
                <li key={col.key} className="column-row">
                  <div className="column-row__main">
                    <div className="field column-row__name">
                      <label className="field__label field__label--small" htmlFor={`${id}-c${col.key}-n`}>
                        <span className="sr-only">Column {n} </span>Name
                      </label>
                      <input
                        id={`${id}-c${col.key}-n`}
                        data-key={col.key}
                        className="field__input field__input--small"
                        value={col.name}
                        maxLength={70}
                        placeholder={i === 0 ? "e.g. Title" : "e.g. Due"}
                        autoCapitalize="off"
                        onChange={(e) => change(col.key, { name: e.target.value })}
                        aria-invalid={errors.name ? true : undefined}
                        aria-describedby={errors.name ? `${id}-c${col.key}-ne` : undefined}
                      />
                      {errors.name ? (
                        <p id={`${id}-c${col.key}-ne`} className="field__message field__message--error">
                          {errors.name}
                        </p>
                      ) : null}
                    </div>
                    <div className="field column-row__type">
                      <label className="field__label field__label--small" htmlFor={`${id}-c${col.key}-t`}>
                        <span className="sr-only">Column {n} </span>Type
                      </label>
                      <select
                        id={`${id}-c${col.key}-t`}
                        className="select column-row__select"
                        value={col.type}
                        onChange={(e) => change(col.key, { type: e.target.value as ColumnType })}
                      >
                        {COLUMN_TYPES.map((t) => (
                          <option key={t.type} value={t.type}>
                            {t.label} — {t.hint}
                          </option>
                        ))}
                      </select>
                    </div>
                    <label className="column-row__required">
                      <input type="checkbox" checked={col.required} onChange={(e) => change(col.key, { required: e.target.checked })} />
                      <span>
                        Required<span className="sr-only"> for {label}</span>
                      </span>
                    </label>
                    <button
                      type="button"
                      className="icon-button icon-button--danger column-row__remove"
                      onClick={() => setColumns((cols) => cols.filter((c) => c.key !== col.key))}
                      disabled={columns.length === 1}
                      title={columns.length === 1 ? "A table needs at least one column" : "Remove this column"}
                    >
                      <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
                        <path d="M3 3l8 8M11 3l-8 8" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
                      </svg>
                      <span className="sr-only">Remove {label}</span>
                    </button>
                  </div>
                  {col.type === "select" ? (
                    <div className="field column-row__options">
                      <label className="field__label field__label--small" htmlFor={`${id}-c${col.key}-o`}>
                        Choices for {col.name.trim() || `column ${n}`} <span className="field__optional">(one a line)</span>
                      </label>
                      <textarea
                        id={`${id}-c${col.key}-o`}
                        className="field__input field__input--small column-row__textarea"
                        rows={3}
                        value={col.options}
                        placeholder={"todo\ndoing\ndone"}
                        onChange={(e) => change(col.key, { options: e.target.value })}
                        aria-invalid={errors.options ? true : undefined}
                        aria-describedby={errors.options ? `${id}-c${col.key}-oe` : undefined}
                      />
                      {errors.options ? (
                        <p id={`${id}-c${col.key}-oe`} className="field__message field__message--error">
                          {errors.options}
                        </p>
                      ) : null}
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ol>
          <button
            type="button"
            className="button button--small columns-editor__add"
            disabled={columns.length >= 50}
            onClick={() => {
              const col = newColumn();
              setColumns((cols) => [...cols, col]);
              setFocusKey(col.key);
            }}
          >
            <span aria-hidden="true">+</span> Add a column
          </button>
          {overall ? (
            <p id={`${id}-cols-error`} className="field__message field__message--error">
              {overall}
            </p>
          ) : null}
        </fieldset>

        <p className="field__error" role="alert">
          {otherError}
        </p>
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose} disabled={create.isPending}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create table"}
          </button>
        </div>
      </form>
    </dialog>
  );
}
