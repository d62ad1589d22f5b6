import { getWorkspace as getWorkspaceInDomain } from "@atelier/shared/domain/workspaces";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { z } from "zod";
import { defineTool, READ } from "./define";
import { WorkspaceViewSchema } from "@atelier/shared/schemas/workspaces";

export const getWorkspace = defineTool({
  name: "get_workspace",
  title: "Get a workspace",
  description: "Describes one workspace by its slug. Public workspaces can be read without a token.",
  access: "read",
  input: z.object({ workspace: SlugSchema.describe("Workspace slug") }).strict(),
  output: z.object({ workspace: WorkspaceViewSchema }),
  annotations: READ,
  async run(ctx, input) {
    return { workspace: await getWorkspaceInDomain(ctx, ctx.principal, input.workspace) };
  },
});
