import {
  addMemberByEmail,
  createWorkspaceFor,
  getReadableWorkspace,
  listActivity,
  listAgents,
  listMembers,
  listWorkspacesFor,
  removeMember,
  setAgentBlocked,
  setMemberRole,
  setVisibility,
  workspaceView,
} from "@atelier/shared/domain/workspaces";
import { createShareLink, listShareLinks, revokeShareLink, shareLinkView } from "@atelier/shared/domain/share-links";
import { EmailSchema, LabelSchema, SlugSchema } from "@atelier/shared/schemas/common";
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

const RoleSchema = z.enum(["owner", "editor", "viewer"]);
const UserIdSchema = z.string().regex(/^usr_[A-Za-z0-9_-]{10,40}$/, "is not a user id");
const TokenIdSchema = z.string().regex(/^tok_[A-Za-z0-9_-]{10,40}$/, "is not a token id");

const MemberViewSchema = z.object({ user_id: z.string(), email: z.string(), role: RoleSchema, confirmed: z.boolean(), added_at: z.string() });
const AgentViewSchema = z.object({
  token_id: z.string(),
  label: z.string(),
  acting_for: z.string().nullable(),
  last_active_at: z.string().nullable(),
  blocked: z.boolean(),
  status: z.enum(["active", "revoked", "expired"]),
});
const ActivitySchema = z.object({
  events: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      actor: z.object({ kind: z.enum(["user", "agent"]), user_id: z.string().nullable(), token_id: z.string().nullable(), label: z.string() }),
      target: z.object({ kind: z.string(), id: z.string(), label: z.string() }),
      at: z.string(),
    }),
  ),
  next_cursor: z.string().nullable(),
});

const membersRouter = router({
  list: protectedProcedure
    .input(z.object({ slug: SlugSchema }))
    .output(z.array(MemberViewSchema))
    .query(({ ctx, input }) => listMembers(ctx.database, ctx.principal, input.slug)),
  add: protectedProcedure
    .input(z.object({ slug: SlugSchema, email: EmailSchema, role: RoleSchema }))
    .output(z.object({ user_id: z.string(), role: RoleSchema }))
    .mutation(async ({ ctx, input }) => {
      const r = await addMemberByEmail(ctx.database, ctx.principal, { workspace: input.slug, email: input.email, role: input.role });
      return { user_id: r.userId, role: r.role };
    }),
  setRole: protectedProcedure
    .input(z.object({ slug: SlugSchema, user_id: UserIdSchema, role: RoleSchema }))
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await setMemberRole(ctx.database, ctx.principal, { workspace: input.slug, userId: input.user_id, role: input.role });
      return { ok: true as const };
    }),
  remove: protectedProcedure
    .input(z.object({ slug: SlugSchema, user_id: UserIdSchema }))
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await removeMember(ctx.database, ctx.principal, { workspace: input.slug, userId: input.user_id });
      return { ok: true as const };
    }),
});

const NameSchema = LabelSchema(100);

const ShareLinkViewSchema = z.object({ link_id: z.string(), page_id: z.string().nullable(), created_by: z.string(), created_at: z.string() });

const shareLinksRouter = router({
  list: protectedProcedure
    .input(z.object({ slug: SlugSchema }))
    .output(z.array(ShareLinkViewSchema))
    .query(async ({ ctx, input }) => (await listShareLinks(ctx.database, ctx.principal, input.slug)).map(shareLinkView)),
  /** The URL carries the secret and is shown this once. */
  create: protectedProcedure
    .input(z.object({ slug: SlugSchema, page: SlugSchema.optional() }))
    .output(ShareLinkViewSchema.extend({ url: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const { link, url } = await createShareLink(ctx.database, ctx.config.BASE_URL, ctx.principal, { workspace: input.slug, page: input.page });
      return { ...shareLinkView(link), url };
    }),
  revoke: protectedProcedure
    .input(z.object({ slug: SlugSchema, link_id: z.string().max(60) }))
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await revokeShareLink(ctx.database, ctx.principal, { workspace: input.slug, linkId: input.link_id });
      return { ok: true as const };
    }),
});

export const workspacesRouter = router({
  members: membersRouter,
  shareLinks: shareLinksRouter,

  agents: protectedProcedure
    .input(z.object({ slug: SlugSchema }))
    .output(z.array(AgentViewSchema))
    .query(({ ctx, input }) => listAgents(ctx.database, ctx.principal, input.slug)),

  blockAgent: protectedProcedure
    .input(z.object({ slug: SlugSchema, token_id: TokenIdSchema }))
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await setAgentBlocked(ctx.database, ctx.principal, { workspace: input.slug, tokenId: input.token_id, blocked: true });
      return { ok: true as const };
    }),

  unblockAgent: protectedProcedure
    .input(z.object({ slug: SlugSchema, token_id: TokenIdSchema }))
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await setAgentBlocked(ctx.database, ctx.principal, { workspace: input.slug, tokenId: input.token_id, blocked: false });
      return { ok: true as const };
    }),

  activity: publicProcedure
    .input(z.object({ slug: SlugSchema, cursor: z.string().max(200).optional() }))
    .output(ActivitySchema)
    .query(({ ctx, input }) => listActivity(ctx.database, ctx.principal, { workspace: input.slug, cursor: input.cursor })),

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
