import { updateRow as updateRowInDomain } from "@atelier/shared/domain/tables/update-row";
import { RowViewSchema, UpdateRowInputSchema } from "@atelier/shared/schemas/tables";
import { z } from "zod";
import { defineTool } from "./define";

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

export const updateRow = defineTool({
  name: "update_row",
  input: UpdateRowInputSchema,
  output: z.object({ row: RowViewSchema }),
  annotations: { ...WRITE, destructiveHint: true },
  async run(ctx, input) {
    return { row: await updateRowInDomain(ctx, ctx.principal, { ...input, rowId: input.row_id, expectedVersion: input.expected_version }) };
  },
});
