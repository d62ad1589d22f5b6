import {
  createCollection,
  deleteRow,
  insertRows,
  listCollections,
  listRows,
  rowHistory,
  rowView,
  tableView,
  updateRow,
} from "@atelier/shared/domain/tables";
import { getReadableWorkspace } from "@atelier/shared/domain/workspaces";
import { SlugSchema } from "@atelier/shared/schemas/common";
import {
  CellSchema,
  CreateCollectionInputSchema,
  DeleteRowInputSchema,
  InsertRowsInputSchema,
  ListRowsInputSchema,
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
    .query(async ({ ctx, input }) => {
      const ws = await getReadableWorkspace(ctx.database, ctx.principal, input.workspace);
      return (await listCollections(ctx.database, ctx.principal, ws)).map(tableView);
    }),
  create: protectedProcedure
    .input(CreateCollectionInputSchema)
    .output(TableViewSchema)
    .mutation(async ({ ctx, input }) => tableView((await createCollection(ctx, ctx.principal, input)).collection)),
});

const RevisionSchema = z.object({
  version: z.number(),
  values: z.record(z.string(), CellSchema).nullable(),
  deleted: z.boolean(),
  actor: z.object({ kind: z.enum(["user", "agent"]), user_id: z.string().nullable(), token_id: z.string().nullable(), label: z.string() }),
  created_at: z.string(),
});

export const rowsRouter = router({
  list: publicProcedure
    // `direction` is what tRPC's infinite queries add to the input; paging is forward only.
    .input(ListRowsInputSchema.extend({ workspace: SlugSchema, direction: z.enum(["forward", "backward"]).optional() }))
    .output(z.object({ table: TableViewSchema, rows: z.array(RowViewSchema), next_cursor: z.string().nullable() }))
    .query(async ({ ctx, input }) => {
      const { direction: _direction, ...query } = input;
      const { table, rows, nextCursor, insider } = await listRows(ctx.database, ctx.principal, query);
      return { table: tableView(table), rows: rows.map((r) => rowView(r, insider)), next_cursor: nextCursor };
    }),
  insert: protectedProcedure
    .input(InsertRowsInputSchema.extend({ workspace: SlugSchema }))
    .output(z.object({ row_ids: z.array(z.string()) }))
    .mutation(async ({ ctx, input }) => ({ row_ids: (await insertRows(ctx, ctx.principal, input)).rowIds })),
  update: protectedProcedure
    .input(UpdateRowInputSchema.extend({ workspace: SlugSchema }))
    .output(RowViewSchema)
    .mutation(async ({ ctx, input }) => rowView(await updateRow(ctx, ctx.principal, { ...input, rowId: input.row_id, expectedVersion: input.expected_version }))),
  delete: protectedProcedure
    .input(DeleteRowInputSchema.extend({ workspace: SlugSchema }))
    .output(z.object({ row_id: z.string() }))
    .mutation(async ({ ctx, input }) => ({ row_id: (await deleteRow(ctx, ctx.principal, { ...input, rowId: input.row_id, expectedVersion: input.expected_version })).rowId })),
  history: publicProcedure
    .input(z.object({ workspace: SlugSchema, collection: SlugSchema, row_id: z.string().max(60) }))
    .output(z.array(RevisionSchema))
    .query(({ ctx, input }) => rowHistory(ctx.database, ctx.principal, { ...input, rowId: input.row_id })),
});
