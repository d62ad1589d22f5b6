import { addComment as addCommentInDomain } from "@atelier/shared/domain/comments/comments";
import { AddCommentInputSchema, ThreadViewSchema } from "@atelier/shared/schemas/comments";
import { z } from "zod";
import { defineTool } from "./define";

export const addComment = defineTool({
  name: "add_comment",
  input: AddCommentInputSchema,
  output: z.object({ thread: ThreadViewSchema }),
  // Adds, never overwrites; calling it twice adds two comments.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    return { thread: await addCommentInDomain(ctx, ctx.principal, input) };
  },
});
