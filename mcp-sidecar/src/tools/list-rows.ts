import { listRows as listRowsInDomain } from "@atelier/shared/domain/tables/list-rows";
import { ListRowsInputSchema, RowListViewSchema } from "@atelier/shared/schemas/tables";
import { defineTool, READ } from "./define";

export const listRows = defineTool({
  name: "list_rows",
  input: ListRowsInputSchema,
  output: RowListViewSchema,
  annotations: READ,
  run(ctx, input) {
    return listRowsInDomain(ctx, ctx.principal, input);
  },
});
