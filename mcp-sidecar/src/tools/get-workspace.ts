import { getWorkspace as getWorkspaceInDomain } from "@atelier/shared/domain/workspaces";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { z } from "zod";
import { defineTool, READ } from "./define";
import { WorkspaceViewSchema } from "@atelier/shared/schemas/workspaces";

export const getWorkspace = defineTool({
  name: "get_workspace",
  input: z.object({ workspace: SlugSchema.describe("Workspace slug") }).strict(),
  output: z.object({ workspace: WorkspaceViewSchema }),
  annotations: READ,
  async run(ctx, input) {
    return { workspace: await getWorkspaceInDomain(ctx, ctx.principal, input.workspace) };
  },
});
