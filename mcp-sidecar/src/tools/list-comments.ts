import { listComments as listCommentsInDomain } from "@atelier/shared/domain/comments/comments";
import { CommentsViewSchema, ListCommentsInputSchema } from "@atelier/shared/schemas/comments";
import { defineTool, READ } from "./define";

export const listComments = defineTool({
  name: "list_comments",
  input: ListCommentsInputSchema,
  output: CommentsViewSchema,
  annotations: READ,
  async run(ctx, input) {
    return listCommentsInDomain(ctx, ctx.principal, input);
  },
});
