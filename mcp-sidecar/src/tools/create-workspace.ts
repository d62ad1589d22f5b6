import { createWorkspaceFor } from "@atelier/shared/domain/workspaces";
import { z } from "zod";
import { defineTool } from "./define";
import { CreateWorkspaceInputSchema, WorkspaceViewSchema } from "@atelier/shared/schemas/workspaces";

export const createWorkspace = defineTool({
  name: "create_workspace",
  input: CreateWorkspaceInputSchema,
  output: z.object({ workspace: WorkspaceViewSchema }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    return { workspace: await createWorkspaceFor(ctx, ctx.principal, input) };
  },
});
