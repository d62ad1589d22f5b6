import { getWorkspace as getWorkspaceInDomain } from "@atelier/shared/domain/workspaces";
import { z } from "zod";
import { defineTool, READ } from "./define";
import { GetWorkspaceInputSchema, WorkspaceViewSchema } from "@atelier/shared/schemas/workspaces";

export const getWorkspace = defineTool({
  name: "get_workspace",
  input: GetWorkspaceInputSchema,
  output: z.object({ workspace: WorkspaceViewSchema }),
  annotations: READ,
  async run(ctx, input) {
    return { workspace: await getWorkspaceInDomain(ctx, ctx.principal, input.workspace) };
  },
});
