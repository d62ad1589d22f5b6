import { listFiles as listFilesInDomain } from "@atelier/shared/domain/files";
import { FileListViewSchema, ListFilesInputSchema } from "@atelier/shared/schemas/files";
import { defineTool, READ } from "./define";

export const listFiles = defineTool({
  name: "list_files",
  input: ListFilesInputSchema,
  output: FileListViewSchema,
  annotations: READ,
  async run(ctx, input) {
    return listFilesInDomain(ctx, ctx.principal, input);
  },
});
