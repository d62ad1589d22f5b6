import { addMemberByEmail } from "@atelier/shared/domain/members";
import { EmailSchema, SlugSchema } from "@atelier/shared/schemas/common";
import { z } from "zod";
import { defineTool } from "./define";

export const addCollaborator = defineTool({
  name: "add_collaborator",
  title: "Add a collaborator",
  description: "Gives a person (by e-mail) the editor or viewer role in a workspace and e-mails them an invitation with its link; someone without an account is pending until they sign in with that address. Owners only.",
  access: "admin",
  input: z.object({ workspace: SlugSchema, email: EmailSchema, role: z.enum(["editor", "viewer"]) }).strict(),
  output: z.object({ workspace: z.string(), email: z.string(), role: z.enum(["editor", "viewer"]) }),
  // Destructive: it exposes the workspace to another person, and changes the role of one who is already a member.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    await addMemberByEmail(ctx, ctx.principal, input);
    return { workspace: input.workspace, email: input.email, role: input.role };
  },
});
