import { createWorkspaceFor } from "@atelier/shared/domain/workspaces";
import { LabelSchema, SlugSchema } from "@atelier/shared/schemas/common";
import { z } from "zod";
import { defineTool } from "./define";
import { WorkspaceViewSchema } from "@atelier/shared/schemas/workspaces";

export const createWorkspace = defineTool({
  name: "create_workspace",
  input: z.object({ slug: SlugSchema, name: LabelSchema(100) }).strict(),
  output: z.object({ workspace: WorkspaceViewSchema }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    return { workspace: await createWorkspaceFor(ctx, ctx.principal, input) };
  },
});
