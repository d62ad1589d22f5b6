// The columns of a new table, one row each: name, type, required, and for a choice column
// its choices. A column just added takes the focus, so typing goes on from the keyboard.
import { useEffect, useId, useRef, useState } from "react";
import { type ColumnDraft } from "../../lib/table/column-drafts";
import { COLUMN_TYPES, type ColumnType } from "../../lib/table/types";
import { Field, FieldError } from "../field";
import "./columns-editor.css";

/** The most columns a table can have. */
const MAX_COLUMNS = 50;

let columnSeq = 0;
export const newColumn = (): ColumnDraft => ({ key: `c${++columnSeq}`, name: "", type: "text", required: false, options: "" });

export interface ColumnErrors {
  name?: string | undefined;
  options?: string | undefined;
}

export function ColumnsEditor({
  columns,
  onChange,
  errorsOf,
  overall,
}: {
  columns: ColumnDraft[];
  /** `how`: a column's fields were edited, or a column was added or removed. */
  onChange: (columns: ColumnDraft[], how: "edit" | "add" | "remove") => void;
  errorsOf: (key: string) => ColumnErrors;
  /** A problem with the columns as a whole. */
  overall: string | null;
}) {
  const id = useId();
  const listRef = useRef<HTMLOListElement>(null);
  const [focusKey, setFocusKey] = useState<string | null>(null);

  useEffect(() => {
    if (!focusKey) return;
    listRef.current?.querySelector<HTMLInputElement>(`[data-key="${focusKey}"]`)?.focus();
    setFocusKey(null);
  }, [focusKey]);

  const change = (key: string, patch: Partial<ColumnDraft>) =>
    onChange(
      columns.map((c) => (c.key === key ? { ...c, ...patch } : c)),
      "edit",
    );

  return (
    <fieldset className="columns-editor" aria-describedby={overall ? `${id}-error` : undefined}>
      <legend className="field__label">Columns</legend>
      <p className="field__hint">Each row of the table has a value for each column. Types are checked on every save.</p>
      <ol ref={listRef} className="columns-editor__list">
        {columns.map((col, i) => (
          <ColumnRow
            key={col.key}
            column={col}
            n={i + 1}
            errors={errorsOf(col.key)}
            onChange={(patch) => change(col.key, patch)}
            onRemove={
              columns.length === 1
                ? null
                : () =>
                    onChange(
                      columns.filter((c) => c.key !== col.key),
                      "remove",
                    )
            }
          />
        ))}
      </ol>
      <button
        type="button"
        className="button button--small columns-editor__add"
        disabled={columns.length >= MAX_COLUMNS}
        onClick={() => {
          const col = newColumn();
          onChange([...columns, col], "add");
          setFocusKey(col.key);
        }}
      >
        <span aria-hidden="true">+</span> Add a column
      </button>
      <FieldError id={`${id}-error`}>{overall}</FieldError>
    </fieldset>
  );
}

function ColumnRow({
  column: col,
  n,
  errors,
  onChange,
  onRemove,
}: {
  column: ColumnDraft;
  /** Its place, from 1. */
  n: number;
  errors: ColumnErrors;
  onChange: (patch: Partial<ColumnDraft>) => void;
  /** Null for the last column left: a table needs one. */
  onRemove: (() => void) | null;
}) {
  const label = col.name.trim() ? `column ${n} (${col.name.trim()})` : `column ${n}`;
  return (
    <li className="column-row">
      <div className="column-row__main">
        <Field
          className="column-row__name"
          labelClassName="field__label field__label--small"
          label={
            <>
              <span className="sr-only">Column {n} </span>Name
            </>
          }
          error={errors.name}
        >
          {(control) => (
            <input
              {...control}
              data-key={col.key}
              className="field__input field__input--small"
              value={col.name}
              maxLength={70}
              placeholder={n === 1 ? "e.g. Title" : "e.g. Due"}
              autoCapitalize="off"
              onChange={(e) => onChange({ name: e.target.value })}
            />
          )}
        </Field>
        <Field
          className="column-row__type"
          labelClassName="field__label field__label--small"
          label={
            <>
              <span className="sr-only">Column {n} </span>Type
            </>
          }
        >
          {(control) => (
            <select {...control} className="select column-row__select" value={col.type} onChange={(e) => onChange({ type: e.target.value as ColumnType })}>
              {COLUMN_TYPES.map((t) => (
                <option key={t.type} value={t.type}>
                  {t.label} — {t.hint}
                </option>
              ))}
            </select>
          )}
        </Field>
        <label className="column-row__required">
          <input type="checkbox" checked={col.required} onChange={(e) => onChange({ required: e.target.checked })} />
          <span>
            Required<span className="sr-only"> for {label}</span>
          </span>
        </label>
        <button
          type="button"
          className="icon-button icon-button--danger column-row__remove"
          onClick={onRemove ?? undefined}
          disabled={onRemove === null}
          title={onRemove === null ? "A table needs at least one column" : "Remove this column"}
        >
          <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
            <path d="M3 3l8 8M11 3l-8 8" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
          </svg>
          <span className="sr-only">Remove {label}</span>
        </button>
      </div>
      {col.type === "select" ? (
        <Field
          className="column-row__options"
          labelClassName="field__label field__label--small"
          label={
            <>
              Choices for {col.name.trim() || `column ${n}`} <span className="field__optional">(one a line)</span>
            </>
          }
          error={errors.options}
        >
          {(control) => (
            <textarea
              {...control}
              className="field__input field__input--small column-row__textarea"
              rows={3}
              value={col.options}
              placeholder={"todo\ndoing\ndone"}
              onChange={(e) => onChange({ options: e.target.value })}
            />
          )}
        </Field>
      ) : null}
    </li>
  );
}
