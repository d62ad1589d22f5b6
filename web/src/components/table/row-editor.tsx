// Editing one row of the grid, or adding one. On wide screens the row's own cells become
// inputs; on phones a stacked form opens under the row. Enter saves, Escape cancels.
// A save says which version it builds on (expected_version): when someone saved or deleted
// the row meanwhile, both sides are shown and the person chooses (RowConflict).
import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useId, useRef, useState } from "react";
import type { Directory } from "../../lib/actors";
import { describeError, isNotFound, isVersionConflict } from "../../lib/errors";
import {
  type Column,
  type Row,
  type RowInputs,
  type RowValues,
  cellText,
  emptyInputs,
  inputOf,
  inputsOf,
  newRowValues,
  parseInput,
  rowChanges,
  rowProblemsOf,
  sameCell,
} from "../../lib/table-cells";
import { ActorName } from "../actor-name";
import { TimeAgo } from "../time-ago";
import { CellInput } from "./cells";
import { RowConflict, type TheirRow } from "./row-conflict";
import { useFetchNewest, useInsertRows, usePatchRows, useRefreshTable, useUpdateRow } from "./use-table";

export type EditorLayout = "cells" | "stacked";

interface Common {
  workspace: string;
  collection: string;
  columns: Column[];
  layout: EditorLayout;
  /** Every column of the grid, data and the two of its own (for panels under a row). */
  colSpan: number;
  directory: Directory;
  /** A short name for the row in labels: its first value. */
  rowName: string;
  onCancel: () => void;
  /** Live words for screen readers ("Saved", "Row added"). */
  announce: (message: string) => void;
}

/** Enter saves and Escape cancels, from any input of the row (not from its buttons). */
function editKeys(save: () => void, cancel: (() => void) | null) {
  return (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    if (event.key === "Escape" && cancel) {
      event.preventDefault();
      event.stopPropagation();
      cancel();
      return;
    }
    if (event.key === "Enter" && !event.shiftKey && !event.altKey && (target.tagName === "INPUT" || target.tagName === "SELECT")) {
      event.preventDefault();
      save();
    }
  };
}

function focusColumn(container: HTMLElement | null, column: string | undefined) {
  const inputs = container?.querySelectorAll<HTMLElement>("[data-column]");
  if (!inputs || inputs.length === 0) return;
  const target = [...inputs].find((el) => el.dataset.column === column) ?? inputs[0];
  if (container?.classList.contains("row-form")) {
    // The stacked form stays put at the left of the grid: only bring it into view vertically,
    // rather than letting the focus scroll the grid sideways.
    target?.focus({ preventScroll: true });
    const r = target?.getBoundingClientRect();
    if (r && (r.top < 64 || r.bottom > window.innerHeight)) window.scrollBy({ top: r.top - window.innerHeight / 3 });
  } else target?.focus();
  if (target instanceof HTMLInputElement && target.type !== "checkbox" && target.type !== "date" && target.type !== "datetime-local") {
    target.select();
  }
}

/** Leaving the page (closing the tab, reloading) asks first while there are unsaved values. */
function useWarnBeforeLeaving(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return undefined;
    const beforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", beforeUnload);
    return () => window.removeEventListener("beforeunload", beforeUnload);
  }, [dirty]);
}

/** The problem under an input, and the ids that point at it. */
function useFieldIds(prefix: string) {
  return {
    input: (i: number) => `${prefix}-in-${i}`,
    problem: (i: number) => `${prefix}-pr-${i}`,
    reference: (i: number) => `${prefix}-ref-${i}`,
  };
}

function describedBy(...ids: (string | false | null | undefined)[]): string | undefined {
  const list = ids.filter(Boolean);
  return list.length > 0 ? list.join(" ") : undefined;
}

/** The editing row (cells) or the stacked form (phones), and a panel row under it for messages. */
function EditorFrame({
  layout,
  colSpan,
  cells,
  meta,
  actions,
  stacked,
  panel,
  onKeyDown,
  rowRef,
  panelRef,
  className,
}: {
  layout: EditorLayout;
  colSpan: number;
  cells: ReactNode;
  meta: ReactNode;
  actions: ReactNode;
  stacked: ReactNode;
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
          {cells}
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
          {stacked}
          {panel}
          <div className="row-form__actions">{actions}</div>
        </div>
      </td>
    </tr>
  );
}

// ---------------------------------------------------------------------------------------

export function RowEditor({
  row,
  latest,
  initial,
  focus,
  onSaved,
  onTakeTheirs,
  ...common
}: Common & {
  /** The row as it was when editing started. */
  row: Row;
  /** The newest version the grid has heard of (refreshed while editing), or null if gone. */
  latest: Row | null;
  /** Values to start from instead of the row's (after "take theirs", to edit again). */
  initial?: RowValues | undefined;
  focus?: string | undefined;
  onSaved: (rowId: string) => void;
  /** The person kept the other side: their own values, to show until dismissed. */
  onTakeTheirs: (mine: RowValues, base: RowValues) => void;
}) {
  const { workspace, collection, columns, layout, colSpan, directory, rowName, onCancel, announce } = common;
  const id = useId();
  const ids = useFieldIds(id);
  const rowRef = useRef<HTMLTableRowElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const [base, setBase] = useState<{ version: number; values: RowValues }>({ version: row.version, values: row.values });
  const [inputs, setInputs] = useState<RowInputs>(() => inputsOf(columns, { ...row.values, ...initial }));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [other, setOther] = useState<string | null>(null);
  const [conflict, setConflict] = useState<{ theirs: TheirRow; mine: RowValues } | null>(null);
  const [reference, setReference] = useState<TheirRow | null>(null);
  const update = useUpdateRow();
  const insert = useInsertRows();
  const refresh = useRefreshTable(workspace, collection);
  const patch = usePatchRows(workspace, collection);
  const fetchNewest = useFetchNewest(workspace, collection);
  const saving = update.isPending || insert.isPending;
  useWarnBeforeLeaving(conflict !== null || columns.some((c) => (inputs[c.name] ?? "") !== inputOf(c, base.values[c.name])));

  useEffect(() => {
    focusColumn(layout === "cells" ? rowRef.current : panelRef.current, focus);
    // Only when the editor opens (or moves between layouts).
  }, [layout]);

  const setInput = (name: string, value: string) => {
    setInputs((prev) => ({ ...prev, [name]: value }));
    if (problems[name]) setProblems(({ [name]: _gone, ...rest }) => rest);
    setOther(null);
  };

  const showConflict = async (mine: RowValues) => {
    try {
      const newest = await fetchNewest(row.row_id);
      if (!newest) {
        setOther("This row isn’t there any more. Copy your values before closing.");
        return;
      }
      update.reset();
      setConflict({
        theirs: { version: newest.version, values: newest.values, deleted: newest.deleted, actor: newest.actor, at: newest.created_at },
        mine,
      });
    } catch (err) {
      setOther(`Someone changed this row meanwhile, and its newest version didn’t load. ${describeError(err)}`);
    }
  };

  const send = (values: RowValues, expectedVersion: number) => {
    setOther(null);
    update.mutate(
      { workspace, collection, row_id: row.row_id, values, expected_version: expectedVersion },
      {
        onSuccess: (saved) => {
          patch(saved.row_id, saved);
          void refresh(saved.row_id);
          announce(`Saved “${rowName}” as version ${saved.version}.`);
          onSaved(saved.row_id);
        },
        onError: (err) => {
          if (isVersionConflict(err) || isNotFound(err)) {
            void showConflict(values);
            return;
          }
          const p = rowProblemsOf(err, columns);
          setProblems(p.fields);
          setOther(p.other ?? (Object.keys(p.fields).length > 0 ? null : describeError(err)));
          const first = columns.find((c) => p.fields[c.name]);
          if (first) focusColumn(layout === "cells" ? rowRef.current : panelRef.current, first.name);
        },
      },
    );
  };

  const save = () => {
    if (saving || conflict) return;
    const { values, problems: found } = rowChanges(columns, base.values, inputs);
    if (Object.keys(found).length > 0) {
      setProblems(found);
      focusColumn(layout === "cells" ? rowRef.current : panelRef.current, columns.find((c) => found[c.name])?.name);
      return;
    }
    if (Object.keys(values).length === 0) {
      // Nothing differs from the version it started from.
      if (reference) onSaved(row.row_id);
      else onCancel();
      return;
    }
    send(values, base.version);
  };

  const cancel = conflict ? null : onCancel;
  const onKeyDown = editKeys(save, cancel);

  // Someone saved this row meanwhile (the list refreshes while editing): say so before saving.
  const newer = !conflict && latest && latest.version > base.version ? latest : null;
  const gone = !conflict && latest === null;

  const panel =
    conflict || other || newer || gone || reference ? (
      <>
        {conflict ? (
          <RowConflict
            columns={columns}
            base={base.values}
            mine={conflict.mine}
            theirs={conflict.theirs}
            directory={directory}
            saving={saving}
            error={other}
            onKeepMine={() => send(conflict.mine, conflict.theirs.version)}
            onTakeTheirs={() => onTakeTheirs(conflict.mine, base.values)}
            onCombine={() => {
              const theirs = conflict.theirs.values ?? {};
              setBase({ version: conflict.theirs.version, values: theirs });
              setInputs(inputsOf(columns, { ...theirs, ...conflict.mine }));
              setReference(conflict.theirs);
              setConflict(null);
            }}
            onRestore={() => {
              const full = newRowValues(columns, inputsOf(columns, { ...base.values, ...conflict.mine }));
              setOther(null);
              insert.mutate(
                { workspace, collection, rows: [full.values] },
                {
                  onSuccess: ({ row_ids }) => {
                    void refresh();
                    announce(`Added “${rowName}” back as a new row.`);
                    onSaved(row_ids[0] ?? row.row_id);
                  },
                  onError: (err) => setOther(rowProblemsOf(err, columns).other ?? describeError(err)),
                },
              );
            }}
          />
        ) : null}
        {!conflict && other ? (
          <p className="field__error" role="alert">
            {other}
          </p>
        ) : null}
        {newer ? (
          <div className="callout callout--warn" role="status">
            <p>
              <ActorName actor={newer.updated_by} directory={directory} /> saved version {newer.version} of this row{" "}
              <TimeAgo iso={newer.updated_at} /> while you’re editing. Saving will ask you to choose between your values and theirs.
            </p>
            <div className="callout__actions">
              <button
                type="button"
                className="button button--small"
                onClick={() => {
                  const { values } = rowChanges(columns, base.values, inputs);
                  setConflict({
                    theirs: { version: newer.version, values: newer.values, deleted: false, actor: newer.updated_by, at: newer.updated_at },
                    mine: values,
                  });
                }}
              >
                Compare now
              </button>
            </div>
          </div>
        ) : null}
        {gone ? (
          <p className="callout callout--warn" role="status">
            This row no longer shows in the table (it was deleted, or no longer matches the filters). Saving will tell you which.
          </p>
        ) : null}
        {reference && !conflict ? (
          <p className="field__hint">
            Editing over version {reference.version}. Where theirs differs from what you have, it is shown under the field.
          </p>
        ) : null}
      </>
    ) : null;

  const referenceText = (col: Column, i: number) => {
    if (!reference?.values) return null;
    const theirs = reference.values[col.name] ?? null;
    const parsed = parseInput({ ...col, required: false }, inputs[col.name] ?? "");
    if (parsed.ok && sameCell(parsed.value, theirs)) return null;
    return (
      <p id={ids.reference(i)} className="cell-reference">
        Theirs: {theirs === null ? "(empty)" : cellText(col, theirs)}
      </p>
    );
  };

  const field = (col: Column, i: number, stacked: boolean) => (
    <>
      <CellInput
        column={col}
        value={inputs[col.name] ?? ""}
        onChange={(v) => setInput(col.name, v)}
        id={ids.input(i)}
        label={stacked ? undefined : `${col.name}, row “${rowName}”`}
        invalid={Boolean(problems[col.name])}
        describedBy={describedBy(problems[col.name] && ids.problem(i), reference && ids.reference(i))}
        stacked={stacked}
      />
      {problems[col.name] ? (
        <p id={ids.problem(i)} className="cell-problem">
          {problems[col.name]}
        </p>
      ) : null}
      {referenceText(col, i)}
    </>
  );

  const actions = (
    <div className="grid-actions__buttons">
      <button type="button" className="button button--primary button--small" onClick={save} disabled={saving || Boolean(conflict)} aria-keyshortcuts="Enter">
        {update.isPending ? "Saving…" : "Save"}
      </button>
      <button
        type="button"
        className="button button--small"
        // With both sides on screen, cancelling keeps theirs and leaves yours to copy from.
        onClick={conflict ? () => onTakeTheirs(conflict.mine, base.values) : onCancel}
        disabled={saving}
        aria-keyshortcuts="Escape"
      >
        Cancel
      </button>
    </div>
  );

  return (
    <EditorFrame
      layout={layout}
      colSpan={colSpan}
      rowRef={rowRef}
      panelRef={panelRef}
      onKeyDown={onKeyDown}
      className=""
      cells={columns.map((col, i) => {
        const Tag = i === 0 ? "th" : "td";
        return (
          <Tag key={col.name} scope={i === 0 ? "row" : undefined} className={`grid-cell grid-cell--${col.type} grid-cell--input`}>
            {field(col, i, false)}
          </Tag>
        );
      })}
      meta={
        <span className="grid-meta__editing">
          {saving ? "Saving…" : `Editing version ${base.version}`}
          <span className="grid-meta__keys">Enter saves · Esc cancels</span>
        </span>
      }
      actions={actions}
      stacked={
        <>
          <h3 className="row-form__title">Edit “{rowName}”</h3>
          <p className="field__hint">Version {base.version}. Enter saves, Escape cancels.</p>
          {columns.map((col, i) => (
            <div key={col.name} className={`field row-form__field row-form__field--${col.type}`}>
              <label className="field__label" htmlFor={ids.input(i)}>
                {col.name}
                {col.required ? <span className="field__optional"> (required)</span> : null}
              </label>
              {field(col, i, true)}
            </div>
          ))}
        </>
      }
      panel={panel}
    />
  );
}

// ---------------------------------------------------------------------------------------

/** The new-row form at the top of the grid: stays open after adding, for the next one. */
export function NewRowEditor({
  onAdded,
  defaults,
  ...common
}: Common & {
  onAdded: (rowId: string) => void;
  /** Values to start each new row with (the filters in force), so it shows where you are. */
  defaults: RowInputs;
}) {
  const { workspace, collection, columns, layout, colSpan, onCancel, announce } = common;
  const id = useId();
  const ids = useFieldIds(id);
  const rowRef = useRef<HTMLTableRowElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const fresh = () => ({ ...emptyInputs(columns), ...defaults });
  const [inputs, setInputs] = useState<RowInputs>(fresh);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [other, setOther] = useState<string | null>(null);
  const [added, setAdded] = useState(0);
  const insert = useInsertRows();
  const refresh = useRefreshTable(workspace, collection);
  const container = () => (layout === "cells" ? rowRef.current : panelRef.current);
  useWarnBeforeLeaving(columns.some((c) => (inputs[c.name] ?? "") !== (fresh()[c.name] ?? "")));

  useEffect(() => {
    focusColumn(container(), undefined);
    // When the form opens (or moves between layouts).
  }, [layout]);

  const setInput = (name: string, value: string) => {
    setInputs((prev) => ({ ...prev, [name]: value }));
    if (problems[name]) setProblems(({ [name]: _gone, ...rest }) => rest);
    setOther(null);
  };

  const save = () => {
    if (insert.isPending) return;
    const { values, problems: found } = newRowValues(columns, inputs);
    if (Object.keys(found).length > 0) {
      setProblems(found);
      focusColumn(container(), columns.find((c) => found[c.name])?.name);
      return;
    }
    const blank = columns.every((c) => c.type === "boolean" ? values[c.name] !== true : values[c.name] === undefined);
    if (blank) {
      setOther("Fill in at least one column.");
      focusColumn(container(), undefined);
      return;
    }
    setOther(null);
    insert.mutate(
      { workspace, collection, rows: [values] },
      {
        onSuccess: ({ row_ids }) => {
          void refresh();
          setInputs(fresh());
          setAdded((n) => n + 1);
          announce("Row added. The form is ready for the next one.");
          if (row_ids[0]) onAdded(row_ids[0]);
          focusColumn(container(), undefined);
        },
        onError: (err) => {
          const p = rowProblemsOf(err, columns);
          setProblems(p.fields);
          setOther(p.other ?? (Object.keys(p.fields).length > 0 ? null : describeError(err)));
          const first = columns.find((c) => p.fields[c.name]);
          if (first) focusColumn(container(), first.name);
        },
      },
    );
  };

  const field = (col: Column, i: number, stacked: boolean) => (
    <>
      <CellInput
        column={col}
        value={inputs[col.name] ?? ""}
        onChange={(v) => setInput(col.name, v)}
        id={ids.input(i)}
        label={stacked ? undefined : `${col.name}, new row${col.required ? " (required)" : ""}`}
        invalid={Boolean(problems[col.name])}
        describedBy={problems[col.name] ? ids.problem(i) : undefined}
        stacked={stacked}
      />
      {problems[col.name] ? (
        <p id={ids.problem(i)} className="cell-problem">
          {problems[col.name]}
        </p>
      ) : null}
    </>
  );

  const actions = (
    <div className="grid-actions__buttons">
      <button type="button" className="button button--primary button--small" onClick={save} disabled={insert.isPending} aria-keyshortcuts="Enter">
        {insert.isPending ? "Adding…" : "Add"}
      </button>
      <button type="button" className="button button--small" onClick={onCancel} disabled={insert.isPending} aria-keyshortcuts="Escape">
        {added > 0 ? "Done" : "Cancel"}
      </button>
    </div>
  );

  return (
    <EditorFrame
      layout={layout}
      colSpan={colSpan}
      rowRef={rowRef}
      panelRef={panelRef}
      onKeyDown={editKeys(save, onCancel)}
      className="grid-row--new"
      cells={columns.map((col, i) => {
        const Tag = i === 0 ? "th" : "td";
        return (
          <Tag key={col.name} scope={i === 0 ? "row" : undefined} className={`grid-cell grid-cell--${col.type} grid-cell--input`}>
            {field(col, i, false)}
          </Tag>
        );
      })}
      meta={
        <span className="grid-meta__editing">
          {insert.isPending ? "Adding…" : added > 0 ? `${added} added` : "New row"}
          <span className="grid-meta__keys">Enter adds · Esc closes</span>
        </span>
      }
      actions={actions}
      stacked={
        <>
          <h3 className="row-form__title">New row</h3>
          <p className="field__hint">
            {added > 0 ? `${added} added so far. ` : ""}Enter adds the row, Escape closes.
          </p>
          {columns.map((col, i) => (
            <div key={col.name} className={`field row-form__field row-form__field--${col.type}`}>
              <label className="field__label" htmlFor={ids.input(i)}>
                {col.name}
                {col.required ? <span className="field__optional"> (required)</span> : null}
              </label>
              {field(col, i, true)}
            </div>
          ))}
        </>
      }
      panel={
        other ? (
          <p className="field__error" role="alert">
            {other}
          </p>
        ) : null
      }
    />
  );
}

