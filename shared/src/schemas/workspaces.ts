import { z } from "zod";
import { ActorViewSchema, CursorSchema, EmailSchema, LabelSchema, SlugSchema } from "./common";

export const RoleSchema = z.enum(["owner", "editor", "viewer"]);
export const VisibilitySchema = z.enum(["private", "public"]);

export const WorkspaceViewSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  visibility: VisibilitySchema,
  role: RoleSchema.nullable(),
  can_write: z.boolean(),
  can_manage: z.boolean(),
  sandbox: z.object({ state: z.enum(["unclaimed", "claimed", "expired"]) }).nullable(),
  usage: z.object({ pages: z.number(), bytes: z.number() }),
  created_at: z.string(),
});
export type WorkspaceView = z.infer<typeof WorkspaceViewSchema>;

export const CreateWorkspaceInputSchema = z.object({ slug: SlugSchema, name: LabelSchema(100) }).strict();

export const UserIdSchema = z.string().regex(/^usr_[A-Za-z0-9_-]{10,40}$/, "is not a user id");
export const TokenIdSchema = z.string().regex(/^tok_[A-Za-z0-9_-]{10,40}$/, "is not a token id");
export const ShareLinkIdSchema = z.string().regex(/^shr_[A-Za-z0-9_-]{10,40}$/, "is not a share link id");

export const MemberViewSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  role: RoleSchema,
  confirmed: z.boolean(),
  added_at: z.string(),
});
export type MemberView = z.infer<typeof MemberViewSchema>;

export const AgentViewSchema = z.object({
  token_id: z.string(),
  label: z.string(),
  /** The member the agent acts for (null for an unclaimed sandbox's own agent). */
  acting_for: z.string().nullable(),
  last_active_at: z.string().nullable(),
  blocked: z.boolean(),
  status: z.enum(["active", "revoked", "expired"]),
});
export type AgentView = z.infer<typeof AgentViewSchema>;

export const ActivityEventViewSchema = z.object({
  id: z.string(),
  type: z.string(),
  actor: ActorViewSchema,
  /**
   * What it happened to: a page or a table by the title it has now (by the one it had, once
   * it is gone), with its slug where it is now (null when gone), a person, an agent …
   */
  target: z.object({ kind: z.string(), id: z.string(), label: z.string(), slug: z.string().nullable() }),
  /** How many things the entry stands for ("added 12 rows": a run of row changes is one entry); 1 for most. */
  count: z.number(),
  restored_from: z.number().nullable(),
  at: z.string(),
});

export const ActivityViewSchema = z.object({ events: z.array(ActivityEventViewSchema), next_cursor: z.string().nullable() });
export type ActivityView = z.infer<typeof ActivityViewSchema>;

export const ShareLinkViewSchema = z.object({
  link_id: z.string(),
  /** The page it opens, or null for every page of the workspace. */
  page_id: z.string().nullable(),
  page_slug: z.string().nullable(),
  created_by: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  /** When it stops working, or null: never (until revoked or its maker loses access). */
  expires_at: z.string().nullable(),
  /** The link itself, to copy again (owners only see the list), or null for one made before SECRET_KEY changed. */
  url: z.string().nullable(),
});
export type ShareLinkView = z.infer<typeof ShareLinkViewSchema>;

/** How long a new share link works: whole days, or null for no end date; absent: the configured default. */
export const ShareLinkExpirySchema = z.number().int().min(1).max(3650).nullable();

export const CreatedShareLinkViewSchema = ShareLinkViewSchema.extend({ url: z.string() });

export const OkSchema = z.object({ ok: z.literal(true) });

// The app's inputs (tRPC names the workspace `slug`; the MCP tools name it `workspace`).
export const WorkspaceRefInputSchema = z.object({ slug: SlugSchema });
export const AddMemberInputSchema = z.object({ slug: SlugSchema, email: EmailSchema, role: RoleSchema });
/** `pending`: they have not signed in yet; `mailed`: the invitation e-mail went out. */
export const AddedMemberViewSchema = z.object({ user_id: z.string(), role: RoleSchema, pending: z.boolean(), mailed: z.boolean() });
export const SetMemberRoleInputSchema = z.object({ slug: SlugSchema, user_id: UserIdSchema, role: RoleSchema });
export const MemberRefInputSchema = z.object({ slug: SlugSchema, user_id: UserIdSchema });
export const CreateShareLinkInputSchema = z.object({ slug: SlugSchema, page: SlugSchema.optional(), expires_in_days: ShareLinkExpirySchema.optional() });
export const ShareLinkRefInputSchema = z.object({ slug: SlugSchema, link_id: ShareLinkIdSchema });
export const AgentRefInputSchema = z.object({ slug: SlugSchema, token_id: TokenIdSchema });
export const ActivityInputSchema = z.object({ slug: SlugSchema, cursor: CursorSchema.optional() });
export const RenameWorkspaceInputSchema = z.object({ slug: SlugSchema, name: LabelSchema(100) });
/** `confirm` is the workspace's address, typed by the person. */
export const DeleteWorkspaceInputSchema = z.object({ slug: SlugSchema, confirm: z.string().max(100) });
export const DeletedWorkspaceViewSchema = z.object({ slug: z.string() });
export const SetVisibilityInputSchema = z.object({ slug: SlugSchema, visibility: VisibilitySchema });
/** The roles an agent may give a collaborator (never owner). */
export const CollaboratorRoleSchema = z.enum(["editor", "viewer"]);

// The agents' inputs (MCP).
export const AddCollaboratorInputSchema = z.object({ workspace: SlugSchema, email: EmailSchema, role: CollaboratorRoleSchema }).strict();
export const GetWorkspaceInputSchema = z.object({ workspace: SlugSchema.describe("Workspace slug") }).strict();
export const SetWorkspaceVisibilityInputSchema = z.object({ workspace: SlugSchema, visibility: VisibilitySchema }).strict();
