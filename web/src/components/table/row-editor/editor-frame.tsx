// The frame both row editors share. On wide screens the row's own cells become inputs, with
// a panel row under it for messages; on phones a stacked form opens under the row.
import { type KeyboardEvent, type ReactNode, type RefObject, useId, useRef } from "react";
import type { Column } from "../../../lib/table/types";
import { CellInput } from "../cells";
import "./editor-frame.css";

export type EditorLayout = "cells" | "stacked";

/** The ids that tie an input to its problem and to the other side's value. */
export function fieldIds(prefix: string) {
  return {
    input: (i: number) => `${prefix}-in-${i}`,
    problem: (i: number) => `${prefix}-pr-${i}`,
    reference: (i: number) => `${prefix}-ref-${i}`,
  };
}
export type FieldIds = ReturnType<typeof fieldIds>;

export function describedBy(...ids: (string | false | null | undefined)[]): string | undefined {
  const list = ids.filter(Boolean);
  return list.length > 0 ? list.join(" ") : undefined;
}

/**
 * What both editors need of their frame: the ids of their inputs, the row (cells) or the
 * panel (stacked form) that holds them, and `frame`, to spread into EditorFrame.
 */
export function useEditorFrame({ layout, colSpan, columns }: { layout: EditorLayout; colSpan: number; columns: Column[] }) {
  const ids = fieldIds(useId());
  const rowRef = useRef<HTMLTableRowElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  /** Where the inputs are now. */
  const container = () => (layout === "cells" ? rowRef.current : panelRef.current);
  return { ids, container, frame: { layout, colSpan, columns, ids, rowRef, panelRef } };
}

/** Renders the input (and what goes under it) of column `i`, in cells or stacked. */
export type RenderField = (column: Column, i: number, stacked: boolean) => ReactNode;

export function EditorFrame({
  layout,
  colSpan,
  columns,
  ids,
  field,
  meta,
  actions,
  stackedTitle,
  stackedHint,
  panel,
  onKeyDown,
  rowRef,
  panelRef,
  className,
}: {
  layout: EditorLayout;
  colSpan: number;
  columns: Column[];
  ids: FieldIds;
  field: RenderField;
  /** The "Last change" cell while editing: status and keys. */
  meta: ReactNode;
  actions: ReactNode;
  stackedTitle: ReactNode;
  stackedHint: ReactNode;
  /** Messages under the row (null for none). */
  panel: ReactNode;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  rowRef: RefObject<HTMLTableRowElement | null>;
  panelRef: RefObject<HTMLDivElement | null>;
  className: string;
}) {
  if (layout === "cells") {
    return (
      <>
        <tr ref={rowRef} className={`grid-row grid-row--editing ${className}`} onKeyDown={onKeyDown}>
          {columns.map((col, i) => {
            const Tag = i === 0 ? "th" : "td";
            return (
              <Tag key={col.name} scope={i === 0 ? "row" : undefined} className={`grid-cell grid-cell--${col.type} grid-cell--input`}>
                {field(col, i, false)}
              </Tag>
            );
          })}
          <td className="grid-meta">{meta}</td>
          <td className="grid-actions">{actions}</td>
        </tr>
        {panel ? (
          <tr className="grid-panel-row">
            <td colSpan={colSpan}>
              <div ref={panelRef} className="grid-panel" onKeyDown={onKeyDown}>
                {panel}
              </div>
            </td>
          </tr>
        ) : null}
      </>
    );
  }
  return (
    <tr ref={rowRef} className={`grid-panel-row grid-panel-row--form ${className}`}>
      <td colSpan={colSpan}>
        <div ref={panelRef} className="grid-panel row-form" onKeyDown={onKeyDown}>
          <h2 className="row-form__title">{stackedTitle}</h2>
          <p className="field__hint">{stackedHint}</p>
          {columns.map((col, i) => (
            <div key={col.name} className={`field row-form__field row-form__field--${col.type}`}>
              <label className="field__label" htmlFor={ids.input(i)}>
                {col.name}
                {col.required ? <span className="field__optional"> (required)</span> : null}
              </label>
              {field(col, i, true)}
            </div>
          ))}
          {panel}
          <div className="row-form__actions">{actions}</div>
        </div>
      </td>
    </tr>
  );
}

/** Status and keys in the "Last change" cell while editing. */
export function EditorMeta({ status, keys }: { status: string; keys: string }) {
  return (
    <span className="grid-meta__editing">
      {status}
      <span className="grid-meta__keys">{keys}</span>
    </span>
  );
}

/** Save (or Add) and Cancel (or Done). */
export function EditorButtons({
  saveLabel,
  onSave,
  saveDisabled,
  cancelLabel,
  onCancel,
  cancelDisabled,
}: {
  saveLabel: string;
  onSave: () => void;
  saveDisabled: boolean;
  cancelLabel: string;
  onCancel: () => void;
  cancelDisabled: boolean;
}) {
  return (
    <div className="grid-actions__buttons">
      <button type="button" className="button button--primary button--small" onClick={onSave} disabled={saveDisabled} aria-keyshortcuts="Enter">
        {saveLabel}
      </button>
      <button type="button" className="button button--small" onClick={onCancel} disabled={cancelDisabled} aria-keyshortcuts="Escape">
        {cancelLabel}
      </button>
    </div>
  );
}

/** An input of the row and the problem under it; `below` is what else goes under it. */
export function RowField({
  column,
  i,
  ids,
  stacked,
  label,
  value,
  onChange,
  problem,
  extraDescription,
  below = null,
}: {
  column: Column;
  i: number;
  ids: FieldIds;
  stacked: boolean;
  /** The accessible name in cells (the stacked form has a visible label). */
  label: string;
  value: string;
  onChange: (value: string) => void;
  problem: string | undefined;
  /** Another id that describes the input (the other side's value). */
  extraDescription?: string | null | undefined;
  below?: ReactNode;
}) {
  return (
    <>
      <CellInput
        column={column}
        value={value}
        onChange={onChange}
        id={ids.input(i)}
        label={stacked ? undefined : label}
        invalid={Boolean(problem)}
        describedBy={describedBy(problem && ids.problem(i), extraDescription)}
        stacked={stacked}
      />
      {problem ? (
        <p id={ids.problem(i)} className="cell-problem">
          {problem}
        </p>
      ) : null}
      {below}
    </>
  );
}
