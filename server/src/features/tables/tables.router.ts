import { addColumn } from "@atelier/shared/domain/tables/add-column";
import { changeColumnType } from "@atelier/shared/domain/tables/change-column-type";
import { columnValues } from "@atelier/shared/domain/tables/column-values";
import { createCollection } from "@atelier/shared/domain/tables/create-collection";
import { deleteRow } from "@atelier/shared/domain/tables/delete-row";
import { deleteTable } from "@atelier/shared/domain/tables/delete-table";
import { insertRows } from "@atelier/shared/domain/tables/insert-rows";
import { listCollections } from "@atelier/shared/domain/tables/list-collections";
import { listRows } from "@atelier/shared/domain/tables/list-rows";
import { removeColumn } from "@atelier/shared/domain/tables/remove-column";
import { renameColumn } from "@atelier/shared/domain/tables/rename-column";
import { renameTable } from "@atelier/shared/domain/tables/rename-table";
import { rowHistory } from "@atelier/shared/domain/tables/row-history";
import { updateRow } from "@atelier/shared/domain/tables/update-row";
import { updateRows } from "@atelier/shared/domain/tables/update-rows";
import { UpdateRowsInputSchema, UpdateRowsViewSchema } from "@atelier/shared/schemas/table-batch";
import { SlugSchema } from "@atelier/shared/schemas/common";
import {
  AddColumnInputSchema,
  ChangeColumnTypeInputSchema,
  ColumnRefInputSchema,
  ColumnValuesViewSchema,
  RemoveColumnInputSchema,
  RenameColumnInputSchema,
  RenameTableInputSchema,
  TableRefInputSchema,
  CreateCollectionInputSchema,
  DeleteRowInputSchema,
  InsertRowsInputSchema,
  ListRowsInputSchema,
  RowListViewSchema,
  RowRevisionViewSchema,
  RowViewSchema,
  TableViewSchema,
  UpdateRowInputSchema,
  ListTablesInputSchema,
  DeletedTableViewSchema,
  InsertedRowsViewSchema,
  DeletedRowViewSchema,
  RowHistoryInputSchema,
} from "@atelier/shared/schemas/tables";
import { z } from "zod";
import { protectedProcedure, publicProcedure, router } from "../../trpc";

export const collectionsRouter = router({
  list: publicProcedure
    .input(ListTablesInputSchema)
    .output(z.array(TableViewSchema))
    .query(({ ctx, input }) => listCollections(ctx, ctx.principal, input.workspace)),
  create: protectedProcedure
    .input(CreateCollectionInputSchema)
    .output(TableViewSchema)
    .mutation(({ ctx, input }) => createCollection(ctx, ctx.principal, input)),
  rename: protectedProcedure
    .input(RenameTableInputSchema)
    .output(TableViewSchema)
    .mutation(({ ctx, input }) => renameTable(ctx, ctx.principal, input)),
  /** How many rows a column's removal would empty (what its confirmation says). */
  columnValues: protectedProcedure
    .input(ColumnRefInputSchema)
    .output(ColumnValuesViewSchema)
    .query(({ ctx, input }) => columnValues(ctx, ctx.principal, input)),
  addColumn: protectedProcedure
    .input(AddColumnInputSchema)
    .output(TableViewSchema)
    .mutation(({ ctx, input }) => addColumn(ctx, ctx.principal, input)),
  renameColumn: protectedProcedure
    .input(RenameColumnInputSchema)
    .output(TableViewSchema)
    .mutation(({ ctx, input }) => renameColumn(ctx, ctx.principal, input)),
  removeColumn: protectedProcedure
    .input(RemoveColumnInputSchema)
    .output(TableViewSchema)
    .mutation(({ ctx, input }) => removeColumn(ctx, ctx.principal, { ...input, expectedValues: input.expected_values })),
  changeColumnType: protectedProcedure
    .input(ChangeColumnTypeInputSchema)
    .output(TableViewSchema)
    .mutation(({ ctx, input }) => changeColumnType(ctx, ctx.principal, input)),
  delete: protectedProcedure
    .input(TableRefInputSchema)
    .output(DeletedTableViewSchema)
    .mutation(({ ctx, input }) => deleteTable(ctx, ctx.principal, input)),
});

export const rowsRouter = router({
  list: publicProcedure
    // `direction` is what tRPC's infinite queries add to the input; paging is forward only.
    .input(ListRowsInputSchema.extend({ workspace: SlugSchema, direction: z.enum(["forward", "backward"]).optional() }))
    .output(RowListViewSchema)
    .query(({ ctx, input: { direction: _direction, ...query } }) => listRows(ctx, ctx.principal, query)),
  insert: protectedProcedure
    .input(InsertRowsInputSchema.extend({ workspace: SlugSchema }))
    .output(InsertedRowsViewSchema)
    .mutation(({ ctx, input }) => insertRows(ctx, ctx.principal, input)),
  update: protectedProcedure
    .input(UpdateRowInputSchema.extend({ workspace: SlugSchema }))
    .output(RowViewSchema)
    .mutation(({ ctx, input }) => updateRow(ctx, ctx.principal, { ...input, rowId: input.row_id, expectedVersion: input.expected_version })),
  /** A block of cells at once (a paste): each change compare-and-swap on its row, new rows after. */
  updateMany: protectedProcedure
    .input(UpdateRowsInputSchema)
    .output(UpdateRowsViewSchema)
    .mutation(({ ctx, input }) =>
      updateRows(ctx, ctx.principal, {
        workspace: input.workspace,
        collection: input.collection,
        changes: input.changes.map((c) => ({ rowId: c.row_id, expectedVersion: c.expected_version, values: c.values })),
        rows: input.rows,
      }),
    ),
  delete: protectedProcedure
    .input(DeleteRowInputSchema.extend({ workspace: SlugSchema }))
    .output(DeletedRowViewSchema)
    .mutation(({ ctx, input }) => deleteRow(ctx, ctx.principal, { ...input, rowId: input.row_id, expectedVersion: input.expected_version })),
  history: publicProcedure
    .input(RowHistoryInputSchema)
    .output(z.array(RowRevisionViewSchema))
    .query(({ ctx, input }) => rowHistory(ctx, ctx.principal, { ...input, rowId: input.row_id })),
});
