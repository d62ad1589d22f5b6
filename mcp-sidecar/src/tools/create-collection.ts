import { createCollection as createCollectionInDomain } from "@atelier/shared/domain/tables";
import { CreateCollectionInputSchema, TableViewSchema } from "@atelier/shared/schemas/tables";
import { z } from "zod";
import { defineTool } from "./define";

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
