import { createCollection as createCollectionInDomain } from "@atelier/shared/domain/tables/create-collection";
import { CreateCollectionInputSchema, TableViewSchema } from "@atelier/shared/schemas/tables";
import { z } from "zod";
import { defineTool } from "./define";

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

export const createCollection = defineTool({
  name: "create_collection",
  input: CreateCollectionInputSchema,
  output: z.object({ collection: TableViewSchema }),
  annotations: WRITE,
  async run(ctx, input) {
    return { collection: await createCollectionInDomain(ctx, ctx.principal, input) };
  },
});
