import { finishUpload as finishUploadInDomain } from "@atelier/shared/domain/uploads";
import { FileViewSchema, FinishUploadInputSchema } from "@atelier/shared/schemas/files";
import { z } from "zod";
import { defineTool, WithContent } from "./define";

export const finishUpload = defineTool({
  name: "finish_upload",
  input: FinishUploadInputSchema,
  output: z.object({ file: FileViewSchema, markdown: z.string(), url: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    const { file, markdown, preview } = await finishUploadInDomain(ctx, ctx.principal, input);
    const content = preview ? [{ type: "image" as const, data: preview.data.toString("base64"), mimeType: preview.mimeType }] : [];
    return new WithContent({ file, markdown, url: file.url }, content);
  },
});
