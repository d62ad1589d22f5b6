import { insertRows as insertRowsInDomain } from "@atelier/shared/domain/tables/insert-rows";
import { InsertRowsInputSchema } from "@atelier/shared/schemas/tables";
import { z } from "zod";
import { defineTool } from "./define";

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

export const insertRows = defineTool({
  name: "insert_rows",
  input: InsertRowsInputSchema,
  output: z.object({ row_ids: z.array(z.string()) }),
  annotations: WRITE,
  run(ctx, input) {
    return insertRowsInDomain(ctx, ctx.principal, input);
  },
});
