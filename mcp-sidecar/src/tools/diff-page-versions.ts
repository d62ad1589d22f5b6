import { diffPageVersions as diffPageVersionsInDomain } from "@atelier/shared/domain/pages/diff-page-versions";
import { DiffPageVersionsInputSchema, PageDiffViewSchema } from "@atelier/shared/schemas/pages";
import { defineTool, READ } from "./define";

export const diffPageVersions = defineTool({
  name: "diff_page_versions",
  input: DiffPageVersionsInputSchema,
  output: PageDiffViewSchema,
  annotations: READ,
  async run(ctx, input) {
    return diffPageVersionsInDomain(ctx, ctx.principal, input);
  },
});
