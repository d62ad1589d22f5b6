import { listActivity } from "@atelier/shared/domain/activity";
import { listAgents, setAgentBlocked } from "@atelier/shared/domain/agents";
import { addMemberByEmail, listMembers, removeMember, setMemberRole } from "@atelier/shared/domain/members";
import { createShareLink, listShareLinks, revokeShareLink } from "@atelier/shared/domain/share-links";
import { createWorkspaceFor, deleteWorkspace, getWorkspace, listWorkspaces, renameWorkspace, setVisibility } from "@atelier/shared/domain/workspaces";
import { CursorSchema, EmailSchema, LabelSchema, SlugSchema } from "@atelier/shared/schemas/common";
import {
  ActivityViewSchema,
  AgentViewSchema,
  CreatedShareLinkViewSchema,
  CreateWorkspaceInputSchema,
  MemberViewSchema,
  OkSchema,
  RoleSchema,
  ShareLinkExpirySchema,
  ShareLinkIdSchema,
  ShareLinkViewSchema,
  TokenIdSchema,
  UserIdSchema,
  VisibilitySchema,
  WorkspaceViewSchema,
} from "@atelier/shared/schemas/workspaces";
import { z } from "zod";
import { protectedProcedure, publicProcedure, router } from "../../trpc";

const ok = { ok: true as const };

const membersRouter = router({
  list: protectedProcedure
    .input(z.object({ slug: SlugSchema }))
    .output(z.array(MemberViewSchema))
    .query(({ ctx, input }) => listMembers(ctx, ctx.principal, input.slug)),
  add: protectedProcedure
    .input(z.object({ slug: SlugSchema, email: EmailSchema, role: RoleSchema }))
    /** `pending`: they have not signed in yet; `mailed`: the invitation e-mail went out. */
    .output(z.object({ user_id: z.string(), role: RoleSchema, pending: z.boolean(), mailed: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const r = await addMemberByEmail(ctx, ctx.principal, { workspace: input.slug, email: input.email, role: input.role });
      return { user_id: r.userId, role: r.role, pending: r.pending, mailed: r.mailed };
    }),
  setRole: protectedProcedure
    .input(z.object({ slug: SlugSchema, user_id: UserIdSchema, role: RoleSchema }))
    .output(OkSchema)
    .mutation(async ({ ctx, input }) => {
      await setMemberRole(ctx, ctx.principal, { workspace: input.slug, userId: input.user_id, role: input.role });
      return ok;
    }),
  remove: protectedProcedure
    .input(z.object({ slug: SlugSchema, user_id: UserIdSchema }))
    .output(OkSchema)
    .mutation(async ({ ctx, input }) => {
      await removeMember(ctx, ctx.principal, { workspace: input.slug, userId: input.user_id });
      return ok;
    }),
});

const shareLinksRouter = router({
  list: protectedProcedure
    .input(z.object({ slug: SlugSchema }))
    .output(z.array(ShareLinkViewSchema))
    .query(({ ctx, input }) => listShareLinks(ctx, ctx.principal, input.slug)),
  /** The URL carries the secret and is shown this once. */
  create: protectedProcedure
    .input(z.object({ slug: SlugSchema, page: SlugSchema.optional(), expires_in_days: ShareLinkExpirySchema.optional() }))
    .output(CreatedShareLinkViewSchema)
    .mutation(({ ctx, input }) => createShareLink(ctx, ctx.principal, { workspace: input.slug, page: input.page, expiresInDays: input.expires_in_days })),
  revoke: protectedProcedure
    .input(z.object({ slug: SlugSchema, link_id: ShareLinkIdSchema }))
    .output(OkSchema)
    .mutation(async ({ ctx, input }) => {
      await revokeShareLink(ctx, ctx.principal, { workspace: input.slug, linkId: input.link_id });
      return ok;
    }),
});

export const workspacesRouter = router({
  members: membersRouter,
  shareLinks: shareLinksRouter,

  agents: protectedProcedure
    .input(z.object({ slug: SlugSchema }))
    .output(z.array(AgentViewSchema))
    .query(({ ctx, input }) => listAgents(ctx, ctx.principal, input.slug)),

  blockAgent: protectedProcedure
    .input(z.object({ slug: SlugSchema, token_id: TokenIdSchema }))
    .output(OkSchema)
    .mutation(async ({ ctx, input }) => {
      await setAgentBlocked(ctx, ctx.principal, { workspace: input.slug, tokenId: input.token_id, blocked: true });
      return ok;
    }),

  unblockAgent: protectedProcedure
    .input(z.object({ slug: SlugSchema, token_id: TokenIdSchema }))
    .output(OkSchema)
    .mutation(async ({ ctx, input }) => {
      await setAgentBlocked(ctx, ctx.principal, { workspace: input.slug, tokenId: input.token_id, blocked: false });
      return ok;
    }),

  activity: publicProcedure
    .input(z.object({ slug: SlugSchema, cursor: CursorSchema.optional() }))
    .output(ActivityViewSchema)
    .query(({ ctx, input }) => listActivity(ctx, ctx.principal, { workspace: input.slug, cursor: input.cursor })),

  list: protectedProcedure.output(z.array(WorkspaceViewSchema)).query(({ ctx }) => listWorkspaces(ctx, ctx.principal)),

  get: publicProcedure
    .input(z.object({ slug: SlugSchema }))
    .output(WorkspaceViewSchema)
    .query(({ ctx, input }) => getWorkspace(ctx, ctx.principal, input.slug)),

  create: protectedProcedure
    .input(CreateWorkspaceInputSchema)
    .output(WorkspaceViewSchema)
    .mutation(({ ctx, input }) => createWorkspaceFor(ctx, ctx.principal, input)),

  rename: protectedProcedure
    .input(z.object({ slug: SlugSchema, name: LabelSchema(100) }))
    .output(WorkspaceViewSchema)
    .mutation(({ ctx, input }) => renameWorkspace(ctx, ctx.principal, input)),

  /** Owners only; `confirm` is the workspace's slug, typed by the person. */
  delete: protectedProcedure
    .input(z.object({ slug: SlugSchema, confirm: z.string().max(100) }))
    .output(z.object({ slug: z.string() }))
    .mutation(({ ctx, input }) => deleteWorkspace(ctx, ctx.principal, input)),

  setVisibility: protectedProcedure
    .input(z.object({ slug: SlugSchema, visibility: VisibilitySchema }))
    .output(WorkspaceViewSchema)
    .mutation(({ ctx, input }) => setVisibility(ctx, ctx.principal, input.slug, input.visibility)),
});
