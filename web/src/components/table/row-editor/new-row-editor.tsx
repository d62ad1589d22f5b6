// The new-row form at the top of the grid: it stays open after adding, for the next one.
import { useEffect, useState } from "react";
import { type RowInputs, emptyInputs, newRowValues } from "../../../lib/table/type-value";
import { useInsertRows, useRefreshTable } from "../use-table";
import type { RowEditorProps } from "./common";
import { EditorButtons, EditorFrame, EditorMeta, RowField, useEditorFrame } from "./editor-frame";
import { editKeys, focusColumn, useWarnBeforeLeaving } from "./keys-and-focus";
import { useRowInputs } from "./use-row-inputs";

export function NewRowEditor({
  onAdded,
  defaults,
  ...common
}: RowEditorProps & {
  onAdded: (rowId: string) => void;
  /** Values to start each new row with (the filters in force), so it shows where you are. */
  defaults: RowInputs;
}) {
  const { workspace, collection, columns, layout, onCancel, announce } = common;
  const { ids, container, frame } = useEditorFrame(common);
  const fresh = () => ({ ...emptyInputs(columns), ...defaults });
  const { inputs, setInputs, problems, setProblems, other, setOther, setInput, showRefusal } = useRowInputs(columns, fresh);
  const [added, setAdded] = useState(0);
  const insert = useInsertRows();
  const refresh = useRefreshTable(workspace, collection);
  useWarnBeforeLeaving(columns.some((c) => (inputs[c.name] ?? "") !== (fresh()[c.name] ?? "")));

  useEffect(() => {
    focusColumn(container(), undefined);
    // When the form opens (or moves between layouts).
  }, [layout]);

  const save = () => {
    if (insert.isPending) return;
    const { values, problems: found } = newRowValues(columns, inputs);
    if (Object.keys(found).length > 0) {
      setProblems(found);
      focusColumn(container(), columns.find((c) => found[c.name])?.name);
      return;
    }
    const blank = columns.every((c) => (c.type === "boolean" ? values[c.name] !== true : values[c.name] === undefined));
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
          const first = showRefusal(err);
          if (first) focusColumn(container(), first);
        },
      },
    );
  };

  return (
    <EditorFrame
      {...frame}
      onKeyDown={editKeys(save, onCancel)}
      className="grid-row--new"
      field={(col, i, stacked) => (
        <RowField
          column={col}
          i={i}
          ids={ids}
          stacked={stacked}
          label={`${col.name}, new row${col.required ? " (required)" : ""}`}
          value={inputs[col.name] ?? ""}
          onChange={(v) => setInput(col.name, v)}
          problem={problems[col.name]}
        />
      )}
      meta={<EditorMeta status={insert.isPending ? "Adding…" : added > 0 ? `${added} added` : "New row"} keys="Enter adds · Esc closes" />}
      actions={
        <EditorButtons
          saveLabel={insert.isPending ? "Adding…" : "Add"}
          onSave={save}
          saveDisabled={insert.isPending}
          cancelLabel={added > 0 ? "Done" : "Cancel"}
          onCancel={onCancel}
          cancelDisabled={insert.isPending}
        />
      }
      stackedTitle="New row"
      stackedHint={<>{added > 0 ? `${added} added so far. ` : ""}Enter adds the row, Escape closes.</>}
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
