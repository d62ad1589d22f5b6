import { importWorkspace as importWorkspaceInDomain } from "@atelier/shared/domain/workspace-archive/import-workspace";
import { ImportedWorkspaceViewSchema, ImportWorkspaceInputSchema } from "@atelier/shared/schemas/workspace-archive";
import { defineTool } from "./define";

export const importWorkspace = defineTool({
  name: "import_workspace",
  input: ImportWorkspaceInputSchema,
  output: ImportedWorkspaceViewSchema,
  // Only adds pages and tables (taken slugs get a suffix); nothing there is overwritten.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    return importWorkspaceInDomain(ctx, ctx.principal, { workspace: input.workspace, archive: Buffer.from(input.archive_base64, "base64") });
  },
});
