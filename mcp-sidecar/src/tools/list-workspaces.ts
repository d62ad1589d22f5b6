import { listWorkspaces as listWorkspacesInDomain } from "@atelier/shared/domain/workspaces";
import { z } from "zod";
import { defineTool, READ } from "./define";
import { WorkspaceViewSchema } from "@atelier/shared/schemas/workspaces";

export const listWorkspaces = defineTool({
  name: "list_workspaces",
  input: z.object({}).strict(),
  output: z.object({ workspaces: z.array(WorkspaceViewSchema) }),
  annotations: READ,
  async run(ctx) {
    return { workspaces: await listWorkspacesInDomain(ctx, ctx.principal) };
  },
});
