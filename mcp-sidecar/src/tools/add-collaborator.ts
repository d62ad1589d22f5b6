import { addMemberByEmail } from "@atelier/shared/domain/members";
import { AddCollaboratorInputSchema, CollaboratorRoleSchema } from "@atelier/shared/schemas/workspaces";
import { z } from "zod";
import { defineTool } from "./define";

export const addCollaborator = defineTool({
  name: "add_collaborator",
  input: AddCollaboratorInputSchema,
  output: z.object({ workspace: z.string(), email: z.string(), role: CollaboratorRoleSchema }),
  // Destructive: it exposes the workspace to another person, and changes the role of one who is already a member.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    await addMemberByEmail(ctx, ctx.principal, input);
    return { workspace: input.workspace, email: input.email, role: input.role };
  },
});
