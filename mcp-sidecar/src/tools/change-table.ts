import { changeTable as changeTableInDomain } from "@atelier/shared/domain/tables/change-table";
import { ChangeTableInputSchema, TableViewSchema } from "@atelier/shared/schemas/tables";
import { z } from "zod";
import { defineTool } from "./define";

export const changeTable = defineTool({
  name: "change_table",
  input: ChangeTableInputSchema,
  output: z.object({ collection: TableViewSchema }),
  // Removing a column drops its values; renaming twice to the same name is the same table.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    return { collection: await changeTableInDomain(ctx, ctx.principal, input) };
  },
});
