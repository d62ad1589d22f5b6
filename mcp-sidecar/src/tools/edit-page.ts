import { editPage as editPageInDomain } from "@atelier/shared/domain/pages/edit-page";
import { EditedPageViewSchema, EditPageInputSchema } from "@atelier/shared/schemas/pages";
import { defineTool } from "./define";

export const editPage = defineTool({
  name: "edit_page",
  input: EditPageInputSchema,
  output: EditedPageViewSchema,
  // Not idempotent: a second identical call meets a newer version (a conflict), and edits that insert would insert twice.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    return editPageInDomain(ctx, ctx.principal, input);
  },
});
