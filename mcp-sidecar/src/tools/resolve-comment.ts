import { resolveComment as resolveCommentInDomain } from "@atelier/shared/domain/comments/comments";
import { ResolveCommentInputSchema, ThreadViewSchema } from "@atelier/shared/schemas/comments";
import { z } from "zod";
import { defineTool } from "./define";

export const resolveComment = defineTool({
  name: "resolve_comment",
  input: ResolveCommentInputSchema,
  output: z.object({ thread: ThreadViewSchema }),
  // Resolving a resolved thread again changes nothing.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    return { thread: await resolveCommentInDomain(ctx, ctx.principal, input) };
  },
});
