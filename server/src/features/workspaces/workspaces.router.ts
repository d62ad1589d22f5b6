import {
  createWorkspaceFor,
  getReadableWorkspace,
  listWorkspacesFor,
  setVisibility,
  workspaceView,
} from "@atelier/shared/domain/workspaces";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { z } from "zod";
import { protectedProcedure, publicProcedure, router } from "../../trpc";

const WorkspaceViewSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  visibility: z.enum(["private", "public"]),
  role: z.enum(["owner", "editor", "viewer"]).nullable(),
  can_write: z.boolean(),
  can_manage: z.boolean(),
  sandbox: z.object({ state: z.enum(["unclaimed", "claimed", "expired"]) }).nullable(),
  usage: z.object({ pages: z.number(), bytes: z.number() }),
  created_at: z.string(),
});

const NameSchema = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");

export const workspacesRouter = router({
  list: protectedProcedure.output(z.array(WorkspaceViewSchema)).query(async ({ ctx }) => {
    const list = await listWorkspacesFor(ctx.database, ctx.principal);
    return list.map((ws) => workspaceView(ws, ctx.principal));
  }),

  get: publicProcedure
    .input(z.object({ slug: SlugSchema }))
    .output(WorkspaceViewSchema)
    .query(async ({ ctx, input }) => workspaceView(await getReadableWorkspace(ctx.database, ctx.principal, input.slug), ctx.principal)),

  create: protectedProcedure
    .input(z.object({ slug: SlugSchema, name: NameSchema }))
    .output(WorkspaceViewSchema)
    .mutation(async ({ ctx, input }) => workspaceView(await createWorkspaceFor(ctx.database, ctx.principal, input), ctx.principal)),

  setVisibility: protectedProcedure
    .input(z.object({ slug: SlugSchema, visibility: z.enum(["private", "public"]) }))
    .output(WorkspaceViewSchema)
    .mutation(async ({ ctx, input }) => workspaceView(await setVisibility(ctx.database, ctx.principal, input.slug, input.visibility), ctx.principal)),
});
