// Editing one row of the grid. Enter saves, Escape cancels. When someone saved or deleted
// the row meanwhile, both sides are shown and the person chooses (RowConflict); "Combine by
// hand" goes on editing over their version, with their values under each field.
import { useEffect, useState } from "react";
import { cellText } from "../../../lib/table/show-value";
import { inputOf, inputsOf, newRowValues, parseInput, rowChanges, sameCell } from "../../../lib/table/type-value";
import { type Column, type Row, type RowValues } from "../../../lib/table/types";
import { RowConflict, type TheirRow } from "../row-conflict";
import type { RowEditorProps } from "./common";
import { EditorButtons, EditorFrame, EditorMeta, RowField, useEditorFrame } from "./editor-frame";
import { editKeys, focusColumn, useWarnBeforeLeaving } from "./keys-and-focus";
import { RowNotes } from "./row-notes";
import { useRowInputs } from "./use-row-inputs";
import { useRowSave } from "./use-row-save";

export function RowEditor({
  row,
  latest,
  initial,
  focus,
  onSaved,
  onTakeTheirs,
  ...common
}: RowEditorProps & {
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
  const { workspace, collection, columns, layout, directory, rowName, onCancel, announce } = common;
  const { ids, container, frame } = useEditorFrame(common);
  const [base, setBase] = useState<{ version: number; values: RowValues }>({ version: row.version, values: row.values });
  const { inputs, setInputs, problems, setProblems, other, setOther, setInput, showRefusal } = useRowInputs(columns, () =>
    inputsOf(columns, { ...row.values, ...initial }),
  );
  const [reference, setReference] = useState<TheirRow | null>(null);
  const { conflict, setConflict, send, addBack, updating, saving } = useRowSave({
    workspace,
    collection,
    columns,
    rowId: row.row_id,
    rowName,
    announce,
    onSaved,
    setOther,
    onRefused: (err) => {
      const first = showRefusal(err);
      if (first) focusColumn(container(), first);
    },
  });
  useWarnBeforeLeaving(conflict !== null || columns.some((c) => (inputs[c.name] ?? "") !== inputOf(c, base.values[c.name])));

  useEffect(() => {
    focusColumn(container(), focus);
    // Only when the editor opens (or moves between layouts).
  }, [layout]);

  const save = () => {
    if (saving || conflict) return;
    const { values, problems: found } = rowChanges(columns, base.values, inputs);
    if (Object.keys(found).length > 0) {
      setProblems(found);
      focusColumn(container(), columns.find((c) => found[c.name])?.name);
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
            onRestore={() => addBack(newRowValues(columns, inputsOf(columns, { ...base.values, ...conflict.mine })).values)}
          />
        ) : null}
        <RowNotes
          other={conflict ? null : other}
          newer={newer}
          gone={gone}
          referenceVersion={reference && !conflict ? reference.version : null}
          directory={directory}
          onCompare={() => {
            if (!newer) return;
            const { values } = rowChanges(columns, base.values, inputs);
            setConflict({
              theirs: { version: newer.version, values: newer.values, deleted: false, actor: newer.updated_by, at: newer.updated_at },
              mine: values,
            });
          }}
        />
      </>
    ) : null;

  return (
    <EditorFrame
      {...frame}
      onKeyDown={editKeys(save, conflict ? null : onCancel)}
      className=""
      field={(col, i, stacked) => (
        <RowField
          column={col}
          i={i}
          ids={ids}
          stacked={stacked}
          label={`${col.name}, row “${rowName}”`}
          value={inputs[col.name] ?? ""}
          onChange={(v) => setInput(col.name, v)}
          problem={problems[col.name]}
          extraDescription={reference && ids.reference(i)}
          below={<TheirValue column={col} id={ids.reference(i)} theirs={reference} input={inputs[col.name] ?? ""} />}
        />
      )}
      meta={<EditorMeta status={saving ? "Saving…" : `Editing version ${base.version}`} keys="Enter saves · Esc cancels" />}
      actions={
        <EditorButtons
          saveLabel={updating ? "Saving…" : "Save"}
          onSave={save}
          saveDisabled={saving || Boolean(conflict)}
          cancelLabel="Cancel"
          // With both sides on screen, cancelling keeps theirs and leaves yours to copy from.
          onCancel={conflict ? () => onTakeTheirs(conflict.mine, base.values) : onCancel}
          cancelDisabled={saving}
        />
      }
      stackedTitle={<>Edit “{rowName}”</>}
      stackedHint={<>Version {base.version}. Enter saves, Escape cancels.</>}
      panel={panel}
    />
  );
}

/** Their value under a field, after "Combine by hand", where it differs from what is typed. */
function TheirValue({ column, id, theirs, input }: { column: Column; id: string; theirs: TheirRow | null; input: string }) {
  if (!theirs?.values) return null;
  const value = theirs.values[column.name] ?? null;
  const parsed = parseInput({ ...column, required: false }, input);
  if (parsed.ok && sameCell(parsed.value, value)) return null;
  return (
    <p id={id} className="cell-reference">
      Theirs: {value === null ? "(empty)" : cellText(column, value)}
    </p>
  );
}
