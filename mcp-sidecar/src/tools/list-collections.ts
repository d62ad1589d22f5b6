import { listCollections as listCollectionsInDomain } from "@atelier/shared/domain/tables/list-collections";
import { ListCollectionsInputSchema, TableViewSchema } from "@atelier/shared/schemas/tables";
import { z } from "zod";
import { defineTool, READ } from "./define";

export const listCollections = defineTool({
  name: "list_collections",
  input: ListCollectionsInputSchema,
  output: z.object({ collections: z.array(TableViewSchema) }),
  annotations: READ,
  async run(ctx, input) {
    return { collections: await listCollectionsInDomain(ctx, ctx.principal, input.workspace) };
  },
});
