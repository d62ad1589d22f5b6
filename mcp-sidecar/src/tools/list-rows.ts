import { listRows as listRowsInDomain } from "@atelier/shared/domain/tables";
import { ListRowsInputSchema, RowListViewSchema } from "@atelier/shared/schemas/tables";
import { defineTool, READ } from "./define";

export const listRows = defineTool({
  name: "list_rows",
  title: "List table rows",
  description:
    "Reads rows of a table, filtered by equality (column: value), ranges (column: {gt, gte, lt, lte}) or part of a text, link or choice in any case (column: {contains: text}), sorted by a column, a page at a time (follow next_cursor; paging is stable while rows are added).",
  access: "read",
  input: ListRowsInputSchema,
  output: RowListViewSchema,
  annotations: READ,
  run(ctx, input) {
    return listRowsInDomain(ctx, ctx.principal, input);
  },
});
