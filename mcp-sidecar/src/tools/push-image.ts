import { addFile, imagePreview } from "@atelier/shared/domain/files";
import { AppError } from "@atelier/shared/errors";
import { FileViewSchema, PushImageInputSchema } from "@atelier/shared/schemas/files";
import { z } from "zod";
import { defineTool, WithContent } from "./define";

export const pushImage = defineTool({
  name: "push_image",
  input: PushImageInputSchema,
  output: z.object({ file: FileViewSchema, markdown: z.string(), url: z.string() }),
  // The same image twice is stored once: repeating the call changes nothing more.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    const data = Buffer.from(input.data, "base64");
    if (data.length > 5 * 1024 * 1024)
      throw new AppError("payload_too_large", "push_image takes at most 5 MB of image; use create_upload_url for larger files.");
    const pushed = await addFile(ctx, ctx.principal, { workspace: input.workspace, data, name: input.name, alt: input.alt, imageOnly: true });
    const { file, markdown } = pushed;
    // The image as stored (cleaned, maybe scaled down), so a client can show what the page will.
    const preview = await imagePreview(pushed.data, file.type);
    const content = preview ? [{ type: "image" as const, data: preview.data.toString("base64"), mimeType: preview.mimeType }] : [];
    return new WithContent({ file, markdown, url: file.url }, content);
  },
});
