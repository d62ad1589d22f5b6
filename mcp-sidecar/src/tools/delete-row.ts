import { deleteRow as deleteRowInDomain } from "@atelier/shared/domain/tables/delete-row";
import { DeleteRowInputSchema } from "@atelier/shared/schemas/tables";
import { z } from "zod";
import { defineTool } from "./define";

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

export const deleteRow = defineTool({
  name: "delete_row",
  input: DeleteRowInputSchema,
  output: z.object({ deleted: z.object({ row_id: z.string() }) }),
  annotations: { ...WRITE, destructiveHint: true, idempotentHint: true },
  async run(ctx, input) {
    return { deleted: await deleteRowInDomain(ctx, ctx.principal, { ...input, rowId: input.row_id, expectedVersion: input.expected_version }) };
  },
});
