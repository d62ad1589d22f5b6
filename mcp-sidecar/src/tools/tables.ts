import {
  createCollection as createCollectionInDomain,
  deleteRow as deleteRowInDomain,
  insertRows as insertRowsInDomain,
  listCollections as listCollectionsInDomain,
  listRows as listRowsInDomain,
  updateRow as updateRowInDomain,
} from "@atelier/shared/domain/tables";
import { SlugSchema } from "@atelier/shared/schemas/common";
import {
  CreateCollectionInputSchema,
  DeleteRowInputSchema,
  InsertRowsInputSchema,
  ListRowsInputSchema,
  RowListViewSchema,
  RowViewSchema,
  TableViewSchema,
  UpdateRowInputSchema,
} from "@atelier/shared/schemas/tables";
import { z } from "zod";
import { defineTool, READ } from "./define";

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

export const createCollection = defineTool({
  name: "create_collection",
  title: "Create a collection or table",
  description:
    "Creates a collection in a workspace: kind `pages` groups pages; kind `table` is a small data table with typed columns (text, number, boolean, date, url, select with options; required or not). Rows are then added with insert_rows.",
  access: "write",
  input: CreateCollectionInputSchema,
  output: z.object({ collection: TableViewSchema }),
  annotations: WRITE,
  async run(ctx, input) {
    return { collection: await createCollectionInDomain(ctx, ctx.principal, input) };
  },
});

export const listCollections = defineTool({
  name: "list_collections",
  title: "List collections and tables",
  description: "Lists the collections of a workspace (pages collections and data tables with their columns and row counts).",
  access: "read",
  input: z.object({ workspace: SlugSchema.optional() }).strict(),
  output: z.object({ collections: z.array(TableViewSchema) }),
  annotations: READ,
  async run(ctx, input) {
    return { collections: await listCollectionsInDomain(ctx, ctx.principal, input.workspace) };
  },
});

export const listRows = defineTool({
  name: "list_rows",
  title: "List table rows",
  description:
    "Reads rows of a table, filtered by equality (column: value) or ranges (column: {gt, gte, lt, lte}), sorted by a column, a page at a time (follow next_cursor; paging is stable while rows are added).",
  access: "read",
  input: ListRowsInputSchema,
  output: RowListViewSchema,
  annotations: READ,
  run(ctx, input) {
    return listRowsInDomain(ctx, ctx.principal, input);
  },
});

export const insertRows = defineTool({
  name: "insert_rows",
  title: "Insert table rows",
  description: "Adds up to 500 rows to a table, all or nothing: if one row is invalid, none is written and the error names the row and column. Returns the new row ids.",
  access: "write",
  input: InsertRowsInputSchema,
  output: z.object({ row_ids: z.array(z.string()) }),
  annotations: WRITE,
  run(ctx, input) {
    return insertRowsInDomain(ctx, ctx.principal, input);
  },
});

export const updateRow = defineTool({
  name: "update_row",
  title: "Update a table row",
  description: "Changes some values of a row. Pass expected_version (the version you read) so that a change made by someone else meanwhile is a conflict, not an overwrite.",
  access: "write",
  input: UpdateRowInputSchema,
  output: z.object({ row: RowViewSchema }),
  annotations: { ...WRITE, destructiveHint: true },
  async run(ctx, input) {
    return { row: await updateRowInDomain(ctx, ctx.principal, { ...input, rowId: input.row_id, expectedVersion: input.expected_version }) };
  },
});

export const deleteRow = defineTool({
  name: "delete_row",
  title: "Delete a table row",
  description: "Deletes one row of a table.",
  access: "write",
  input: DeleteRowInputSchema,
  output: z.object({ deleted: z.object({ row_id: z.string() }) }),
  annotations: { ...WRITE, destructiveHint: true, idempotentHint: true },
  async run(ctx, input) {
    return { deleted: await deleteRowInDomain(ctx, ctx.principal, { ...input, rowId: input.row_id, expectedVersion: input.expected_version }) };
  },
});
