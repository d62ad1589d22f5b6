import { setVisibility } from "@atelier/shared/domain/workspaces";
import { z } from "zod";
import { defineTool } from "./define";
import { SetWorkspaceVisibilityInputSchema, WorkspaceViewSchema } from "@atelier/shared/schemas/workspaces";

export const setWorkspaceVisibility = defineTool({
  name: "set_workspace_visibility",
  input: SetWorkspaceVisibilityInputSchema,
  output: z.object({ workspace: WorkspaceViewSchema }),
  // Destructive: making a workspace public exposes every page in it to anyone.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    return { workspace: await setVisibility(ctx, ctx.principal, input.workspace, input.visibility) };
  },
});
