import { listFiles as listFilesInDomain } from "@atelier/shared/domain/files";
import { FileViewSchema, ListFilesInputSchema } from "@atelier/shared/schemas/files";
import { z } from "zod";
import { defineTool, READ } from "./define";

export const listFiles = defineTool({
  name: "list_files",
  input: ListFilesInputSchema,
  output: z.object({ workspace: z.string(), files: z.array(FileViewSchema.extend({ used_in: z.array(z.string()) })), truncated: z.boolean() }),
  annotations: READ,
  async run(ctx, input) {
    return listFilesInDomain(ctx, ctx.principal, input.workspace);
  },
});
