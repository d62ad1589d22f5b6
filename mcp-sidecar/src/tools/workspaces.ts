import { addMemberByEmail } from "@atelier/shared/domain/members";
import { createWorkspaceFor, getWorkspace as getWorkspaceInDomain, listWorkspaces as listWorkspacesInDomain, setVisibility } from "@atelier/shared/domain/workspaces";
import { EmailSchema, LabelSchema, SlugSchema } from "@atelier/shared/schemas/common";
import { z } from "zod";
import { defineTool, READ } from "./define";
import { WorkspaceViewSchema } from "@atelier/shared/schemas/workspaces";

export const listWorkspaces = defineTool({
  name: "list_workspaces",
  title: "List workspaces",
  description: "Lists the workspaces this token can reach, with your role and whether you can write there.",
  access: "read",
  input: z.object({}).strict(),
  output: z.object({ workspaces: z.array(WorkspaceViewSchema) }),
  annotations: READ,
  async run(ctx) {
    return { workspaces: await listWorkspacesInDomain(ctx, ctx.principal) };
  },
});

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

export const createWorkspace = defineTool({
  name: "create_workspace",
  title: "Create a workspace",
  description: "Creates a private workspace owned by the person this token acts for.",
  access: "admin",
  input: z.object({ slug: SlugSchema, name: LabelSchema(100) }).strict(),
  output: z.object({ workspace: WorkspaceViewSchema }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    return { workspace: await createWorkspaceFor(ctx, ctx.principal, input) };
  },
});

export const setWorkspaceVisibility = defineTool({
  name: "set_workspace_visibility",
  title: "Publish or unpublish a workspace",
  description: "Makes a workspace public (anyone can read its pages at /a/{slug}) or private. Owners only.",
  access: "admin",
  input: z.object({ workspace: SlugSchema, visibility: z.enum(["public", "private"]) }).strict(),
  output: z.object({ workspace: WorkspaceViewSchema }),
  // Destructive: making a workspace public exposes every page in it to anyone.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    return { workspace: await setVisibility(ctx, ctx.principal, input.workspace, input.visibility) };
  },
});

export const addCollaborator = defineTool({
  name: "add_collaborator",
  title: "Add a collaborator",
  description: "Gives a person (by e-mail) the editor or viewer role in a workspace. Owners only.",
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
