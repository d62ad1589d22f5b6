// Writing cells from the grid: one cell at a time (typed or ticked) or a pasted block in one
// batch. Each row write names the version it builds on. When someone else changed the row
// meanwhile: if they changed other cells only, the write is made again on their version (no
// one's change is lost); if they changed the same cell, nothing is overwritten and the person
// is shown both values to choose.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { describeError, isVersionConflict } from "../../lib/errors";
import { touchesMine, type PastePlan } from "../../lib/table/paste";
import { cellText } from "../../lib/table/show-value";
import type { Cell, Column, Row, RowValues } from "../../lib/table/types";
import { useTRPC } from "../../trpc";
import { useFetchNewest, usePatchRows, useRefreshTable, useUpdateRow } from "./use-table";

/** Rows whose cells someone else changed while the person wrote the same cells. */
export interface CellConflict {
  rows: { latest: Row; mine: RowValues }[];
}

export function useCellWrites({
  workspace,
  collection,
  columns,
  announce,
}: {
  workspace: string;
  collection: string;
  columns: Column[];
  announce: (message: string) => void;
}) {
  const trpc = useTRPC();
  const update = useUpdateRow();
  const many = useMutation(trpc.rows.updateMany.mutationOptions());
  const patch = usePatchRows(workspace, collection);
  const refresh = useRefreshTable(workspace, collection);
  const fetchNewest = useFetchNewest(workspace, collection);
  const [conflict, setConflict] = useState<CellConflict | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(0);

  const track = async <T>(work: Promise<T>): Promise<T> => {
    setPending((n) => n + 1);
    try {
      return await work;
    } finally {
      setPending((n) => n - 1);
    }
  };

  const describeCells = (values: RowValues) =>
    Object.entries(values)
      .map(([name, v]) => {
        const col = columns.find((c) => c.name === name);
        return col ? `${name} ${cellText(col, v) || "empty"}` : name;
      })
      .join(", ");

  /** One row's cells over `base` (the version the person saw); true when they are saved. */
  const saveCells = (base: Row, values: RowValues): Promise<boolean> =>
    track(
      (async () => {
        setProblem(null);
        // The cells show their new values at once; the saved row replaces them.
        patch(base.row_id, { ...base, values: { ...base.values, ...values } });
        let expected = base.version;
        let before = base.values;
        for (let attempt = 0; attempt < 3; attempt++) {
          try {
            const saved = await update.mutateAsync({ workspace, collection, row_id: base.row_id, values, expected_version: expected });
            patch(saved.row_id, saved);
            void refresh(saved.row_id);
            announce(`Saved: ${describeCells(values)}.`);
            return true;
          } catch (err) {
            if (!isVersionConflict(err)) {
              patch(base.row_id, base);
              setProblem(`Not saved: ${describeError(err)}`);
              return false;
            }
            const newest = await fetchNewest(base.row_id).catch(() => null);
            if (!newest || newest.deleted || !newest.values) {
              void refresh();
              setProblem("Not saved: someone deleted this row meanwhile.");
              return false;
            }
            const latest: Row = { ...base, version: newest.version, values: newest.values, updated_at: newest.created_at };
            if (touchesMine(before, newest.values, values)) {
              patch(base.row_id, latest);
              setConflict({ rows: [{ latest, mine: values }] });
              announce("Someone else changed the same cell meanwhile: choose which value to keep.");
              return false;
            }
            // They changed other cells: make the change again on their version.
            expected = newest.version;
            before = newest.values;
          }
        }
        setProblem("Not saved: the row keeps changing. Try again in a moment.");
        return false;
      })(),
    );

  /** A pasted block in one batch; rows changed meanwhile in other cells are written again once. */
  const paste = (plan: PastePlan, rowsNow: Row[]): Promise<boolean> =>
    track(
      (async () => {
        setProblem(null);
        const byId = new Map(rowsNow.map((r) => [r.row_id, r]));
        for (const c of plan.changes) {
          const base = byId.get(c.row_id);
          if (base) patch(c.row_id, { ...base, values: { ...base.values, ...c.values } });
        }
        try {
          let out = await many.mutateAsync({ workspace, collection, changes: plan.changes, rows: plan.rows });
          let saved = out.updated.length;
          const inserted = out.inserted.length;
          let clashes = out.conflicts;
          // Rows whose other cells changed meanwhile: the block's cells go on their new version.
          const again = clashes.filter((k) => {
            const base = byId.get(k.row_id);
            const mine = plan.changes.find((c) => c.row_id === k.row_id)?.values ?? {};
            return base && !touchesMine(base.values, k.row.values, mine);
          });
          if (again.length > 0) {
            const retry = await many.mutateAsync({
              workspace,
              collection,
              changes: again.map((k) => ({
                row_id: k.row_id,
                expected_version: k.row.version,
                values: plan.changes.find((c) => c.row_id === k.row_id)?.values ?? {},
              })),
              rows: [],
            });
            saved += retry.updated.length;
            out = { ...out, updated: [...out.updated, ...retry.updated] };
            clashes = [...clashes.filter((k) => !again.includes(k)), ...retry.conflicts];
          }
          for (const r of out.updated) patch(r.row_id, r);
          for (const k of clashes) patch(k.row_id, k.row);
          void refresh();
          if (clashes.length > 0) {
            setConflict({ rows: clashes.map((k) => ({ latest: k.row, mine: plan.changes.find((c) => c.row_id === k.row_id)?.values ?? {} })) });
          }
          const parts = [saved > 0 ? `${saved} row${saved === 1 ? "" : "s"} changed` : "", inserted > 0 ? `${inserted} added` : ""].filter(Boolean);
          announce(
            `Pasted ${plan.cells} cell${plan.cells === 1 ? "" : "s"}${parts.length ? `: ${parts.join(", ")}` : ""}.` +
              (clashes.length > 0 ? ` ${clashes.length} row${clashes.length === 1 ? "" : "s"} changed by someone else meanwhile were left as they are.` : ""),
          );
          return clashes.length === 0;
        } catch (err) {
          for (const c of plan.changes) {
            const base = byId.get(c.row_id);
            if (base) patch(c.row_id, base);
          }
          setProblem(`Nothing was pasted: ${describeError(err)}`);
          return false;
        }
      })(),
    );

  /** After a conflict: put the person's values over the newest versions. */
  const keepMine = async () => {
    if (!conflict) return;
    const rows = conflict.rows;
    setConflict(null);
    if (rows.length === 1 && rows[0]) {
      await saveCells(rows[0].latest, rows[0].mine);
      return;
    }
    await paste(
      {
        changes: rows.map((r) => ({ row_id: r.latest.row_id, expected_version: r.latest.version, values: r.mine })),
        rows: [],
        problems: [],
        columnsLeftOut: 0,
        cells: 0,
      },
      rows.map((r) => r.latest),
    );
  };

  const keepTheirs = () => {
    setConflict(null);
    announce("Kept the other person’s values.");
  };

  return { saveCells, paste, conflict, keepMine, keepTheirs, problem, setProblem, saving: pending > 0 };
}

/** A cell's value for the conflict sentence. */
export function shown(col: Column | undefined, value: Cell | undefined): string {
  if (!col) return String(value ?? "");
  return cellText(col, value ?? null) || "empty";
}
