// Document types of every collection. Ids are strings (DESIGN §2); times are Dates.

export type Role = "owner" | "editor" | "viewer";
export type Visibility = "private" | "public";
export type Scope = "mcp:read" | "mcp:write";
export type TokenKind = "user" | "anonymous" | "claimed_anonymous" | "verified_email" | "oauth";

/** Who did something: a person, or an agent (token) acting for a person or for nobody yet. */
export interface Actor {
  kind: "user" | "agent";
  userId: string | null;
  tokenId?: string;
  label: string;
}

export interface UserDoc {
  _id: string;
  email: string;
  confirmedAt: Date | null;
  defaultWorkspaceId: string | null;
  createdAt: Date;
}

export interface SessionDoc {
  /** SHA-256 of the session id; the id itself lives only in the browser's cookie. */
  _id: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
  lastSeenAt: Date;
}

export type CodePurpose = "sign_in" | "claim" | "verified_email";

export interface LoginCodeDoc {
  _id: string;
  purpose: CodePurpose;
  /** What the code unlocks: the e-mail address for sign-in, the registration id for claims. */
  subject: string;
  email: string;
  /** HMAC(SECRET_KEY, subject + code); the code itself is only in the e-mail. */
  codeHash: string;
  attempts: number;
  usedAt: Date | null;
  expiresAt: Date;
  createdAt: Date;
}

export interface Member {
  userId: string;
  role: Role;
  addedAt: Date;
}

export interface SandboxInfo {
  registrationId: string;
  state: "unclaimed" | "claimed" | "expired";
  hiddenAt: Date | null;
  deleteAfter: Date | null;
}

export interface WorkspaceDoc {
  _id: string;
  slug: string;
  name: string;
  visibility: Visibility;
  ownerId: string | null;
  members: Member[];
  sandbox: SandboxInfo | null;
  /** Tokens the owner has cut off this workspace (SPEC §1 rule 3). */
  blockedTokenIds: string[];
  usage: { pages: number; bytes: number };
  /**
   * Set by every change of `usage` (in the same update); the sweeper recounts usage of a
   * workspace whose mark is older than a minute, so a write cut off between reserving and
   * writing cannot leave the counters wrong for long.
   */
  usageDirtyAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type ColumnType = "text" | "number" | "boolean" | "date" | "url" | "select";

export interface ColumnDef {
  name: string;
  type: ColumnType;
  required: boolean;
  options?: string[];
}

export interface CollectionDoc {
  _id: string;
  workspaceId: string;
  slug: string;
  name: string;
  kind: "pages" | "table";
  isDefault: boolean;
  columns: ColumnDef[];
  /** Rows in a table, kept with the collection so the cap is one conditional update. */
  rowCount: number;
  /** As WorkspaceDoc.usageDirtyAt, for rowCount. */
  countDirtyAt: Date | null;
  createdAt: Date;
}

export interface PartDoc {
  id: string;
  kind: "markdown" | "html" | "table_view";
  body: string;
  position: number;
}

export interface PageDoc {
  /** The pageId (UUID). */
  _id: string;
  slug: string;
  workspaceId: string;
  collectionId: string;
  title: string;
  summary: string;
  parts: PartDoc[];
  version: number;
  bytes: number;
  /** Rendered on write so that a read is a lookup. */
  html: string;
  /** True from the write of a version until its revision is stored; the sweeper finishes it. */
  revisionPending: boolean;
  etag: string;
  createdBy: Actor;
  updatedBy: Actor;
  createdAt: Date;
  updatedAt: Date;
}

export interface RevisionDoc {
  _id: string;
  pageId: string;
  workspaceId: string;
  version: number;
  title: string;
  summary: string;
  parts: PartDoc[];
  actor: Actor;
  createdAt: Date;
}

export type CellValue = string | number | boolean | null;

export interface RowRevisionDoc {
  /** `${rowId}:v${version}` */
  _id: string;
  rowId: string;
  workspaceId: string;
  collectionId: string;
  version: number;
  values: Record<string, CellValue> | null;
  deleted: boolean;
  actor: Actor;
  createdAt: Date;
}

export interface RowDoc {
  _id: string;
  workspaceId: string;
  collectionId: string;
  /** Every column of the table, null where empty. */
  values: Record<string, CellValue>;
  version: number;
  bytes: number;
  createdBy: Actor;
  updatedBy: Actor;
  createdAt: Date;
  updatedAt: Date;
}

export interface TokenDoc {
  _id: string;
  /** SHA-256 of the whole credential. */
  hash: string;
  /** What may be shown later: the prefix and the first characters of the secret. */
  hint: string;
  ownerId: string | null;
  kind: TokenKind;
  scopes: Scope[];
  /** null: every workspace the owner can reach; otherwise only these. */
  workspaceIds: string[] | null;
  label: string;
  agentLabel: string | null;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** Kind "oauth" only: the client a person connected by signing in, and the grant behind it. */
  oauth?: TokenOAuthLink | null;
}

export interface TokenOAuthLink {
  /** The oidc-provider Grant's id; equal to the token's own `_id` (one grant, one token). */
  grantId: string;
  clientId: string;
  clientName: string;
  clientUri: string | null;
  /** How the client identified itself: a client ID metadata document (a URL) or dynamic registration. */
  via: "metadata_document" | "registration";
}

/**
 * One record of the OAuth authorization server (oidc-provider's adapter, DESIGN §11). `_id`
 * is `sha256(model + ":" + id)` for every model whose id is a credential (codes, tokens,
 * sessions, interactions), and `model + ":" + id` for the rest (clients, grants); the stored
 * payload never carries the credential itself. Expired records are deleted by the sweeper.
 */
export interface OAuthRecordDoc {
  _id: string;
  model: string;
  /** The payload as JSON text (its keys may hold dots, e.g. resource URLs), without `jti`. */
  payload: string;
  /** When a code or refresh token was used (epoch seconds), put back into the payload on read. */
  consumed: number | null;
  /** Copied out of the payload so that a grant's tokens can be revoked together. */
  grantId: string | null;
  /** Sessions are also found by their uid. */
  uid: string | null;
  expiresAt: Date | null;
  createdAt: Date;
}

/**
 * Anonymous: unclaimed → claiming → claimed, or unclaimed → expiring → expired → deleting →
 * deleted. Verified e-mail: otp_sent → claimed (or expired). The -ing states mark a change
 * whose later steps the sweeper finishes if the process that started it stopped.
 */
export type RegistrationStatus = "unclaimed" | "claiming" | "claimed" | "expiring" | "expired" | "deleting" | "deleted" | "otp_sent";

export interface RegistrationDoc {
  /** SHA-256 of the claim token (for anonymous registrations, the registration_id itself). */
  _id: string;
  /** A non-secret id shown for verified-email registrations; null for anonymous ones. */
  publicId: string | null;
  type: "anonymous" | "verified_email";
  status: RegistrationStatus;
  tokenId: string | null;
  workspaceId: string | null;
  agentLabel: string | null;
  email: string | null;
  claimDeadline: Date;
  claimedBy: string | null;
  claimedAt: Date | null;
  createdAt: Date;
}

export interface RateLimitDoc {
  /** `${bucket}:${key}:${windowStartMs}` */
  _id: string;
  count: number;
  windowEnd: Date;
}

export interface EventDoc {
  _id: string;
  workspaceId: string;
  type: string;
  actor: Actor;
  target: { kind: "page" | "row" | "collection" | "workspace" | "member" | "token"; id: string; label: string };
  at: Date;
}

export interface AssertionReplayDoc {
  /** `${iss}|${jti}` */
  _id: string;
  expiresAt: Date;
}

export interface ShareLinkDoc {
  /** SHA-256 of the secret in the link; the secret itself is only in the URL. */
  _id: string;
  /** A non-secret id to list and revoke the link by. */
  linkId: string;
  workspaceId: string;
  /** One page, or null for every page of the workspace. */
  pageId: string | null;
  createdBy: Actor;
  createdAt: Date;
  revokedAt: Date | null;
}
