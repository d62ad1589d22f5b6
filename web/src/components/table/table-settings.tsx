// A table's settings, for those who may write: its name, each column (rename, type, remove),
// a new column, and deleting the table. What happens to the rows' values is said before it
// happens: a rename carries them, a removal says how many rows lose one, a type change is
// refused while the column holds values.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useLocation } from "wouter";
import { describeError, fieldIssuesOf } from "../../lib/errors";
import { plural } from "../../lib/format";
import { COLUMN_TYPES, type ColumnType, type TableInfo, typeLabel } from "../../lib/table/types";
import { useTRPC } from "../../trpc";
import { ConfirmDialog, confirmsMutation } from "../confirm-dialog";
import { Field, type FieldControl, TextField } from "../field";
import "./table-settings.css";

type Column = TableInfo["columns"][number];

/** The server's field problem in words, for the column forms. */
function problemOf(err: unknown): string | null {
  if (!err) return null;
  const issue = fieldIssuesOf(err)[0];
  if (!issue) return describeError(err);
  switch (issue.code) {
    case "duplicate":
      return "Another column already has that name.";
    case "reserved_name":
      return "That name is reserved; choose another.";
    case "invalid_name":
      return "A column name starts with a letter or _, then letters, digits, spaces, _ or -.";
    case "has_values": {
      const rows = issue.params?.rows;
      return typeof rows === "number"
        ? `${plural(rows, "row")} ${rows === 1 ? "has" : "have"} a value in this column, and values aren’t converted between types. Empty the column first, or add a new column.`
        : "Some rows still use the choices you left out.";
    }
    case "not_allowed":
      return "A column added to a table that has rows can’t be required: those rows would have no value.";
    default:
      return describeError(err);
  }
}

export function TableSettings({ workspace, table, onClose }: { workspace: string; table: TableInfo; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.collections.pathFilter()),
      queryClient.invalidateQueries(trpc.rows.pathFilter()),
      queryClient.invalidateQueries(trpc.workspaces.pathFilter()),
    ]);
  const ref = { workspace, collection: table.slug };
  const [name, setName] = useState(table.name);
  const [deleting, setDeleting] = useState(false);
  const rename = useMutation(trpc.collections.rename.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(
    trpc.collections.delete.mutationOptions({
      onSuccess: async () => {
        setDeleting(false);
        navigate(`/buckets/${workspace}?tab=tables`, { replace: true });
        await refresh();
      },
    }),
  );

  return (
    <section className="table-settings" aria-labelledby="table-settings-title">
      <div className="table-settings__head">
        <h2 id="table-settings-title" className="section-title">
          Table settings
        </h2>
        <button type="button" className="button button--small" onClick={onClose}>
          Done
        </button>
      </div>

      <form
        className="table-settings__row"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          if (name.trim()) rename.mutate({ ...ref, name: name.trim() });
        }}
        noValidate
      >
        <TextField
          label="Table name"
          hint={
            <>
              The address stays <span className="mono">{table.slug}</span>, so pages showing it keep working.
            </>
          }
          error={rename.error ? describeError(rename.error) : name.trim() ? null : "Give the table a name."}
          value={name}
          maxLength={100}
          onChange={(v) => {
            setName(v);
            if (rename.isError) rename.reset();
          }}
        />
        <button type="submit" className="button" disabled={rename.isPending || !name.trim() || name.trim() === table.name}>
          {rename.isPending ? "Saving…" : "Rename table"}
        </button>
      </form>

      <h3 className="table-settings__subtitle">Columns</h3>
      <ul className="table-settings__columns" aria-label="Columns">
        {table.columns.map((c) => (
          <ColumnRow key={c.name} workspace={workspace} table={table} column={c} onChanged={refresh} />
        ))}
      </ul>
      <AddColumn workspace={workspace} table={table} onChanged={refresh} />

      <div className="table-settings__danger">
        <p className="muted">Deleting the table removes its {plural(table.row_count, "row")} and their history, for good.</p>
        <button type="button" className="button button--danger" onClick={() => setDeleting(true)}>
          Delete table…
        </button>
      </div>
      <ConfirmDialog
        open={deleting}
        title={`Delete the table “${table.name}”?`}
        confirmLabel="Delete table"
        pendingLabel="Deleting…"
        {...confirmsMutation(remove, () => setDeleting(false))}
        onConfirm={() => remove.mutate(ref)}
      >
        <p>
          Its {plural(table.row_count, "row")} and every earlier version of them go for good. Pages that show this table will say it no longer exists. This
          can’t be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}

function ColumnRow({ workspace, table, column, onChanged }: { workspace: string; table: TableInfo; column: Column; onChanged: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const ref = { workspace, collection: table.slug, column: column.name };
  const [name, setName] = useState(column.name);
  const [type, setType] = useState<ColumnType>(column.type);
  const [options, setOptions] = useState((column.options ?? []).join(", "));
  const [removing, setRemoving] = useState(false);
  const values = useQuery(trpc.collections.columnValues.queryOptions(ref, { enabled: removing, staleTime: 0 }));
  const renameColumn = useMutation(trpc.collections.renameColumn.mutationOptions({ onSuccess: onChanged }));
  const changeType = useMutation(trpc.collections.changeColumnType.mutationOptions({ onSuccess: onChanged }));
  const removeColumn = useMutation(
    trpc.collections.removeColumn.mutationOptions({
      onSuccess: async () => {
        setRemoving(false);
        await onChanged();
      },
    }),
  );
  const count = values.data?.rows_with_values;
  const error = problemOf(renameColumn.error ?? changeType.error);
  const optionList = options
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
  const typeChanged = type !== column.type || (type === "select" && optionList.join(",") !== (column.options ?? []).join(","));

  return (
    <li className="table-settings__column">
      <form
        className="table-settings__column-form"
        aria-label={`Column ${column.name}`}
        onSubmit={async (e: FormEvent) => {
          e.preventDefault();
          // One Save for the column: its new name, then its type (under the name it then has).
          const newName = name.trim();
          if (!newName) return;
          if (newName !== column.name) {
            const ok = await renameColumn.mutateAsync({ ...ref, name: newName }).then(
              () => true,
              () => false,
            );
            if (!ok) return;
          }
          if (typeChanged) changeType.mutate({ ...ref, column: newName, type, ...(type === "select" ? { options: optionList } : {}) });
        }}
        noValidate
      >
        <TextField
          label={`Name of column ${column.name}`}
          value={name}
          maxLength={63}
          onChange={(v) => {
            setName(v);
            renameColumn.reset();
          }}
        />
        <Field label={`Type of ${column.name}`}>
          {(control) => (
            <TypeSelect
              control={control}
              value={type}
              onChange={(t) => {
                setType(t);
                changeType.reset();
              }}
            />
          )}
        </Field>
        {type === "select" ? <TextField label="Choices, separated by commas" value={options} onChange={setOptions} /> : null}
        <button
          type="submit"
          className="button button--small"
          disabled={renameColumn.isPending || changeType.isPending || !name.trim() || (name.trim() === column.name && !typeChanged)}
        >
          {renameColumn.isPending || changeType.isPending ? "Saving…" : "Save"}
        </button>
      </form>
      <button type="button" className="button button--small button--quiet-danger" onClick={() => setRemoving(true)} disabled={table.columns.length <= 1}>
        Remove column…
      </button>
      {error ? (
        <p className="field__message field__message--error table-settings__error" role="alert">
          {error}
        </p>
      ) : null}
      <ConfirmDialog
        open={removing}
        title={`Remove the column “${column.name}”?`}
        confirmLabel={count ? `Remove and drop ${plural(count, "value")}` : "Remove column"}
        pendingLabel="Removing…"
        {...confirmsMutation(removeColumn, () => setRemoving(false))}
        onConfirm={() => {
          if (count !== undefined) removeColumn.mutate({ ...ref, expected_values: count });
        }}
      >
        {count === undefined ? (
          <p>{values.isError ? describeError(values.error) : "Counting the rows that have a value…"}</p>
        ) : count === 0 ? (
          <p>No row has a value in this column, so nothing is lost.</p>
        ) : (
          <p>
            {plural(count, "row")} {count === 1 ? "has a value" : "have values"} in “{column.name}” ({typeLabel(column.type)}). Removing the column drops{" "}
            {count === 1 ? "it" : "them"} for good; earlier versions of the rows in their history keep them.
          </p>
        )}
      </ConfirmDialog>
    </li>
  );
}

/** The form that adds a column (here and from the grid's header, where it opens focused). */
export function AddColumn({
  workspace,
  table,
  onChanged,
  onAdded,
  autoFocus,
}: {
  workspace: string;
  table: TableInfo;
  onChanged: () => Promise<unknown>;
  onAdded?: (name: string) => void;
  autoFocus?: boolean;
}) {
  const trpc = useTRPC();
  const [name, setName] = useState("");
  const [type, setType] = useState<ColumnType>("text");
  const [options, setOptions] = useState("");
  const add = useMutation(
    trpc.collections.addColumn.mutationOptions({
      onSuccess: async (_table, input) => {
        setName("");
        setOptions("");
        await onChanged();
        onAdded?.(input.column.name);
      },
    }),
  );
  const optionList = options
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
  return (
    <form
      className="table-settings__row table-settings__add"
      aria-label="Add a column"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        if (name.trim())
          add.mutate({ workspace, collection: table.slug, column: { name: name.trim(), type, ...(type === "select" ? { options: optionList } : {}) } });
      }}
      noValidate
    >
      <TextField
        label="New column"
        autoFocus={autoFocus}
        value={name}
        maxLength={63}
        onChange={(v) => {
          setName(v);
          add.reset();
        }}
        hint="Every row gets it empty."
      />
      <Field label="Type">{(control) => <TypeSelect control={control} value={type} onChange={setType} />}</Field>
      {type === "select" ? <TextField label="Choices, separated by commas" value={options} onChange={setOptions} /> : null}
      <button type="submit" className="button" disabled={add.isPending || !name.trim()}>
        {add.isPending ? "Adding…" : "Add column"}
      </button>
      {add.error ? (
        <p className="field__message field__message--error table-settings__error" role="alert">
          {problemOf(add.error)}
        </p>
      ) : null}
    </form>
  );
}

/** A column type chooser: the same list wherever a column's type is picked here. */
function TypeSelect({ control, value, onChange }: { control: FieldControl; value: ColumnType; onChange: (type: ColumnType) => void }) {
  return (
    <select {...control} className="select select--field" value={value} onChange={(e) => onChange(e.target.value as ColumnType)}>
      {COLUMN_TYPES.map((t) => (
        <option key={t.type} value={t.type}>
          {t.label}
        </option>
      ))}
    </select>
  );
}
