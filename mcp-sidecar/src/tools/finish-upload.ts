import { finishUpload as finishUploadInDomain } from "@atelier/shared/domain/uploads";
import { FileViewSchema, FinishUploadInputSchema } from "@atelier/shared/schemas/files";
import { z } from "zod";
import { defineTool } from "./define";

export const finishUpload = defineTool({
  name: "finish_upload",
  input: FinishUploadInputSchema,
  output: z.object({ file: FileViewSchema, markdown: z.string(), url: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    const { file, markdown } = await finishUploadInDomain(ctx, ctx.principal, input);
    return { file, markdown, url: file.url };
  },
});
