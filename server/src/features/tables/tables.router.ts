import { createCollection, deleteRow, insertRows, listCollections, listRows, rowHistory, updateRow } from "@atelier/shared/domain/tables";
import { SlugSchema } from "@atelier/shared/schemas/common";
import {
  CreateCollectionInputSchema,
  DeleteRowInputSchema,
  InsertRowsInputSchema,
  ListRowsInputSchema,
  RowListViewSchema,
  RowRevisionViewSchema,
  RowViewSchema,
  TableViewSchema,
  UpdateRowInputSchema,
} from "@atelier/shared/schemas/tables";
import { z } from "zod";
import { protectedProcedure, publicProcedure, router } from "../../trpc";

export const collectionsRouter = router({
  list: publicProcedure
    .input(z.object({ workspace: SlugSchema }))
    .output(z.array(TableViewSchema))
    .query(({ ctx, input }) => listCollections(ctx, ctx.principal, input.workspace)),
  create: protectedProcedure
    .input(CreateCollectionInputSchema)
    .output(TableViewSchema)
    .mutation(({ ctx, input }) => createCollection(ctx, ctx.principal, input)),
});

export const rowsRouter = router({
  list: publicProcedure
    // `direction` is what tRPC's infinite queries add to the input; paging is forward only.
    .input(ListRowsInputSchema.extend({ workspace: SlugSchema, direction: z.enum(["forward", "backward"]).optional() }))
    .output(RowListViewSchema)
    .query(({ ctx, input: { direction: _direction, ...query } }) => listRows(ctx, ctx.principal, query)),
  insert: protectedProcedure
    .input(InsertRowsInputSchema.extend({ workspace: SlugSchema }))
    .output(z.object({ row_ids: z.array(z.string()) }))
    .mutation(({ ctx, input }) => insertRows(ctx, ctx.principal, input)),
  update: protectedProcedure
    .input(UpdateRowInputSchema.extend({ workspace: SlugSchema }))
    .output(RowViewSchema)
    .mutation(({ ctx, input }) => updateRow(ctx, ctx.principal, { ...input, rowId: input.row_id, expectedVersion: input.expected_version })),
  delete: protectedProcedure
    .input(DeleteRowInputSchema.extend({ workspace: SlugSchema }))
    .output(z.object({ row_id: z.string() }))
    .mutation(({ ctx, input }) => deleteRow(ctx, ctx.principal, { ...input, rowId: input.row_id, expectedVersion: input.expected_version })),
  history: publicProcedure
    .input(z.object({ workspace: SlugSchema, collection: SlugSchema, row_id: z.string().max(60) }))
    .output(z.array(RowRevisionViewSchema))
    .query(({ ctx, input }) => rowHistory(ctx, ctx.principal, { ...input, rowId: input.row_id })),
});
