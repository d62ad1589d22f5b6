import { createUploadUrl as createUploadUrlInDomain } from "@atelier/shared/domain/uploads";
import { CreateUploadUrlInputSchema } from "@atelier/shared/schemas/files";
import { z } from "zod";
import { defineTool } from "./define";

export const createUploadUrl = defineTool({
  name: "create_upload_url",
  input: CreateUploadUrlInputSchema,
  output: z.object({ upload_id: z.string(), upload_url: z.string(), method: z.literal("PUT"), max_bytes: z.number().int(), expires_at: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    return createUploadUrlInDomain(ctx, ctx.principal, input);
  },
});
