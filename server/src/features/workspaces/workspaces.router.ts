import { listActivity } from "@atelier/shared/domain/activity";
import { listAgents, setAgentBlocked } from "@atelier/shared/domain/agents";
import { addMemberByEmail, listMembers, removeMember, setMemberRole } from "@atelier/shared/domain/members";
import { createShareLink, listShareLinks, revokeShareLink } from "@atelier/shared/domain/share-links";
import { createWorkspaceFor, deleteWorkspace, getWorkspace, listWorkspaces, renameWorkspace, setVisibility } from "@atelier/shared/domain/workspaces";
import {
  ActivityInputSchema,
  ActivityViewSchema,
  AddedMemberViewSchema,
  AddMemberInputSchema,
  AgentRefInputSchema,
  AgentViewSchema,
  CreatedShareLinkViewSchema,
  CreateShareLinkInputSchema,
  CreateWorkspaceInputSchema,
  DeletedWorkspaceViewSchema,
  DeleteWorkspaceInputSchema,
  MemberRefInputSchema,
  MemberViewSchema,
  OkSchema,
  RenameWorkspaceInputSchema,
  SetMemberRoleInputSchema,
  SetVisibilityInputSchema,
  ShareLinkRefInputSchema,
  ShareLinkViewSchema,
  WorkspaceRefInputSchema,
  WorkspaceViewSchema,
} from "@atelier/shared/schemas/workspaces";
import { z } from "zod";
import { protectedProcedure, publicProcedure, router } from "../../trpc";

const ok = { ok: true as const };

const membersRouter = router({
  list: protectedProcedure
    .input(WorkspaceRefInputSchema)
    .output(z.array(MemberViewSchema))
    .query(({ ctx, input }) => listMembers(ctx, ctx.principal, input.slug)),
  add: protectedProcedure
    .input(AddMemberInputSchema)
    .output(AddedMemberViewSchema)
    .mutation(async ({ ctx, input }) => {
      const r = await addMemberByEmail(ctx, ctx.principal, { workspace: input.slug, email: input.email, role: input.role });
      return { user_id: r.userId, role: r.role, pending: r.pending, mailed: r.mailed };
    }),
  setRole: protectedProcedure
    .input(SetMemberRoleInputSchema)
    .output(OkSchema)
    .mutation(async ({ ctx, input }) => {
      await setMemberRole(ctx, ctx.principal, { workspace: input.slug, userId: input.user_id, role: input.role });
      return ok;
    }),
  remove: protectedProcedure
    .input(MemberRefInputSchema)
    .output(OkSchema)
    .mutation(async ({ ctx, input }) => {
      await removeMember(ctx, ctx.principal, { workspace: input.slug, userId: input.user_id });
      return ok;
    }),
});

const shareLinksRouter = router({
  list: protectedProcedure
    .input(WorkspaceRefInputSchema)
    .output(z.array(ShareLinkViewSchema))
    .query(({ ctx, input }) => listShareLinks(ctx, ctx.principal, input.slug)),
  /** The URL carries the secret and is shown this once. */
  create: protectedProcedure
    .input(CreateShareLinkInputSchema)
    .output(CreatedShareLinkViewSchema)
    .mutation(({ ctx, input }) => createShareLink(ctx, ctx.principal, { workspace: input.slug, page: input.page, expiresInDays: input.expires_in_days })),
  revoke: protectedProcedure
    .input(ShareLinkRefInputSchema)
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
    .input(WorkspaceRefInputSchema)
    .output(z.array(AgentViewSchema))
    .query(({ ctx, input }) => listAgents(ctx, ctx.principal, input.slug)),

  blockAgent: protectedProcedure
    .input(AgentRefInputSchema)
    .output(OkSchema)
    .mutation(async ({ ctx, input }) => {
      await setAgentBlocked(ctx, ctx.principal, { workspace: input.slug, tokenId: input.token_id, blocked: true });
      return ok;
    }),

  unblockAgent: protectedProcedure
    .input(AgentRefInputSchema)
    .output(OkSchema)
    .mutation(async ({ ctx, input }) => {
      await setAgentBlocked(ctx, ctx.principal, { workspace: input.slug, tokenId: input.token_id, blocked: false });
      return ok;
    }),

  activity: publicProcedure
    .input(ActivityInputSchema)
    .output(ActivityViewSchema)
    .query(({ ctx, input }) => listActivity(ctx, ctx.principal, { workspace: input.slug, cursor: input.cursor })),

  list: protectedProcedure.output(z.array(WorkspaceViewSchema)).query(({ ctx }) => listWorkspaces(ctx, ctx.principal)),

  get: publicProcedure
    .input(WorkspaceRefInputSchema)
    .output(WorkspaceViewSchema)
    .query(({ ctx, input }) => getWorkspace(ctx, ctx.principal, input.slug)),

  create: protectedProcedure
    .input(CreateWorkspaceInputSchema)
    .output(WorkspaceViewSchema)
    .mutation(({ ctx, input }) => createWorkspaceFor(ctx, ctx.principal, input)),

  rename: protectedProcedure
    .input(RenameWorkspaceInputSchema)
    .output(WorkspaceViewSchema)
    .mutation(({ ctx, input }) => renameWorkspace(ctx, ctx.principal, input)),

  /** Owners only. */
  delete: protectedProcedure
    .input(DeleteWorkspaceInputSchema)
    .output(DeletedWorkspaceViewSchema)
    .mutation(({ ctx, input }) => deleteWorkspace(ctx, ctx.principal, input)),

  setVisibility: protectedProcedure
    .input(SetVisibilityInputSchema)
    .output(WorkspaceViewSchema)
    .mutation(({ ctx, input }) => setVisibility(ctx, ctx.principal, input.slug, input.visibility)),
});
