import { deleteFile as deleteFileInDomain } from "@atelier/shared/domain/files";
import { DeleteFileInputSchema } from "@atelier/shared/schemas/files";
import { z } from "zod";
import { defineTool } from "./define";

export const deleteFile = defineTool({
  name: "delete_file",
  input: DeleteFileInputSchema,
  output: z.object({ deleted: z.object({ sha256: z.string(), freed_bytes: z.number().int() }) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    return { deleted: await deleteFileInDomain(ctx, ctx.principal, input) };
  },
});
