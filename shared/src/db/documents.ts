// Document types of every collection. Ids are strings (docs/contract.md#resources-and-identifiers); times are Dates.
import type { Binary } from "mongodb";

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
  /**
   * While a process sends this person's mention mail (docs/comments.md#mentions): until when
   * it holds the send, so two processes never send the same mentions. Absent or null: nobody.
   */
  mentionMailLeaseUntil?: Date | null;
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
  /**
   * One entry per person, changed only by replacing the whole list conditionally on
   * `membersVersion` (never $push or a dotted $ne: FerretDB v1 matches those through arrays).
   */
  members: Member[];
  membersVersion: number;
  sandbox: SandboxInfo | null;
  /**
   * True while the workspace is an unclaimed sandbox, whose caps (docs/contract.md#sandboxes-limits-and-lifecycle) apply: a
   * top-level flag, so a cap is one conditional update with a plain equality.
   */
  capped: boolean;
  /** Tokens the owner has cut off this workspace (docs/ARCHITECTURE.md#who-may-do-what). */
  blockedTokenIds: string[];
  usage: { pages: number; bytes: number };
  /**
   * Set by every change of `usage` (in the same update); the sweeper recounts usage of a
   * workspace whose mark is older than a minute, so a write cut off between reserving and
   * writing cannot leave the counters wrong for long.
   */
  usageDirtyAt: Date | null;
  /**
   * Set with a visibility change until its pages' artifacts carry the new visibility; the
   * sweeper finishes a change whose process stopped in between.
   */
  visibilitySyncAt: Date | null;
  /**
   * Set when a delete starts: from then on nobody can open the workspace, and the sweeper
   * finishes a delete whose process stopped (finishWorkspaceDelete).
   */
  deletingAt?: Date | null;
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
  /** Bytes of the definition (name and columns), counted in the workspace's usage. */
  bytes: number;
  /** Rows in a table, kept with the collection so the cap is one conditional update. */
  rowCount: number;
  /**
   * Moves on after every change to the table's rows or columns (tableChanged): a copy of the
   * rows read at one version is exact as long as the table is still at that version.
   */
  rowsVersion?: number;
  /**
   * Ids of the pages that have shown this table in a version (added before that version is
   * rendered; a page that stopped showing it stays listed and is skipped), so a row change
   * finds the documents to re-render by `_id` instead of reading every page.
   */
  viewedBy?: string[];
  /** True once `viewedBy` lists every page showing the table (absent: pages are read once to fill it). */
  viewersKnown?: boolean;
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
  /** Bytes of this version's content (title, summary, parts). */
  bytes: number;
  /** True from the write of a version until its revision and rendition are stored; the sweeper finishes it. */
  revisionPending: boolean;
  /**
   * The version a writer has claimed and is preparing (null when none): the one writer at a
   * time that may reserve usage for this page, so losers of a race never inflate the counters.
   */
  writing: { version: number; since: Date } | null;
  /** Set when a delete starts: the page is gone for readers, and the sweeper finishes a delete a process left. */
  deletingAt?: Date | null;
  /** What the current version changed, kept until its revision is stored (the sweeper may store it). */
  /** What the last version changed, copied into its revision (lines: the text's line counts, when known). */
  /** `event`: the event type the version records (the sweeper records it for a stopped writer). */
  lastChange: { changes: string[]; restoredFrom: number | null; lines?: { added: number; removed: number } | null; event?: string };
  /**
   * Bytes of the document its writer rendered for this version: what the next writer expects
   * the stored document to weigh, so it need not read it (absent on pages written before).
   */
  renditionBytes?: number;
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
  /** What this revision stores (counted in the workspace's usage). */
  bytes: number;
  /** The version this one brought back, when it is a restore. */
  restoredFrom: number | null;
  /** What changed from the version before ("created", "title", "text", …). */
  changes: string[];
  /** Lines of the text added and removed from the version before (absent in older revisions; null when too long to count). */
  lines?: { added: number; removed: number } | null;
  actor: Actor;
  createdAt: Date;
}

/**
 * A page's public address and what it serves, keyed by the slug so that GET /a/{slug} is
 * one primary-key lookup: the rendered document, its ETag, and whether anyone may read it
 * (a copy of the workspace's visibility, narrowed before and widened after the workspace).
 * `html` is null while a page is being created. A slug that moved keeps answering with a
 * redirect until `redirect.until`.
 */
export interface ArtifactDoc {
  /** The page slug. */
  _id: string;
  pageId: string;
  workspaceId: string;
  version: number;
  html: string | null;
  etag: string;
  public: boolean;
  bytes: number;
  redirect: { to: string; until: Date } | null;
  updatedAt: Date;
  /** The renderer that made `html` (RENDERER_VERSION in domain/render.ts); absent: before issue 27. */
  renderer?: number;
}

/** A workspace's slug, keyed by itself: lookups by slug are primary-key lookups, and a slug is unique by construction. */
export interface WorkspaceSlugDoc {
  _id: string;
  workspaceId: string;
  /** True until the workspace it names exists; the sweeper removes one left pending. */
  pending: boolean;
  createdAt: Date;
}

/** A token's credential hash, keyed by itself: the per-request token lookup is a primary-key lookup. */
export interface TokenKeyDoc {
  /** SHA-256 of the whole credential. */
  _id: string;
  tokenId: string;
  createdAt: Date;
}

/** Applied schema migrations (shared/src/db/migrations.ts). */
/**
 * One term's head or one of its bands in one workspace (domain/search-index.ts, layout 2):
 * `_id` `${workspaceId}:${term}:h` (the head: `n`, `c`, `s`), `${workspaceId}:${term}:${band}`
 * or a part of a split band `${workspaceId}:${term}:${band}:${fan}:${i}` (`p`; domain/search-postings.ts).
 */
export interface SearchTermDoc {
  _id: string;
  workspaceId: string;
  term: string;
  /** The layout (SEARCH_LAYOUT); absent in layout 1, whose documents the backfill deletes. */
  v?: number;
  /** The head: how many pages and tables hold the term. */
  n?: number;
  /** The head: how many postings each band holds (`b${band}`). */
  c?: Record<string, number>;
  /** The head: per band (`b${band}`), each fan-out it was split into (`f${fan}`: 1); the largest is current. */
  s?: Record<string, Record<string, number>>;
  /** A band: by page or table key (`searchKey`), the term's weight there. */
  p?: Record<string, number>;
  /** A band or part whose postings were moved into the parts of fan-out `to` (a split). */
  moved?: boolean;
  to?: number;
}

/** What the index holds for one page or table: `_id` `${workspaceId}:${searchKey}`. */
export interface SearchDocDoc {
  _id: string;
  workspaceId: string;
  kind: "page" | "table";
  targetId: string;
  /** The page's version (a table's rowsVersion) indexed. */
  version: number;
  /** Its terms and their weights, as written to the postings. */
  terms: Record<string, number>;
  /** The layout its postings were written in (SEARCH_LAYOUT); absent: layout 1. */
  v?: number;
}

export interface MetaDoc {
  _id: string;
  version: number;
  updatedAt: Date;
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
  bytes: number;
  deleted: boolean;
  actor: Actor;
  createdAt: Date;
}

/**
 * Which rows one change to a table touched (issue 15): `${tableId}:${rowsVersion}`, written
 * just after the change took that rowsVersion, so a process holding the table's rows at an
 * earlier version can bring them up to date by reading these and those rows by `_id`. The
 * last ROW_CHANGES_KEPT of a table are kept.
 */
export interface RowChangeDoc {
  _id: string;
  workspaceId: string;
  collectionId: string;
  version: number;
  rowIds: string[];
}

export interface RowDoc {
  _id: string;
  workspaceId: string;
  collectionId: string;
  /** Every column of the table, null where empty. */
  values: Record<string, CellValue>;
  version: number;
  bytes: number;
  /** As PageDoc.writing: the one writer preparing the next version. */
  writing: { version: number; since: Date } | null;
  /** As PageDoc.revisionPending (absent on rows written before it was kept: finished). */
  revisionPending?: boolean;
  /** The event the current version records, for the sweeper finishing it. */
  lastChange?: { event?: string } | null;
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
 * One record of the OAuth authorization server (oidc-provider's adapter, docs/ARCHITECTURE.md#oauth). `_id`
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
  /** `${counter}:${key}:${windowStartMs}` */
  _id: string;
  count: number;
  windowEnd: Date;
}

export interface EventDoc {
  _id: string;
  workspaceId: string;
  type: string;
  actor: Actor;
  target: { kind: "page" | "row" | "collection" | "workspace" | "member" | "token" | "share_link" | "webhook"; id: string; label: string };
  /** How many things the event stands for ("added 12 rows"). */
  count?: number;
  /** A version brought back, for page.restored. */
  restoredFrom?: number;
  /** What it stores (counted in the workspace's usage). */
  bytes: number;
  at: Date;
}

/**
 * One change in a workspace's feed (docs/events.md): `_id` is
 * `${workspaceId}:${seq}`, positions 1, 2, 3, … with no gaps. Ids and versions only, never
 * content, titles or secrets.
 */
export interface ChangeDoc {
  _id: string;
  workspaceId: string;
  seq: number;
  /** The event it records (unique: an event gets one position). */
  eventId: string;
  /** The event's type, or "hole" for a tombstone. */
  type: string;
  actor: { kind: "user" | "agent"; userId: string | null; tokenId?: string };
  target: { kind: EventDoc["target"]["kind"]; id: string };
  /** The document's version, for versioned documents (pages, rows). */
  version?: number;
  /** A tombstone: a position whose writer stopped before writing it (readers skip it). */
  hole?: boolean;
  at: Date;
}

/**
 * Where a feed stands: `_id` is a workspace id (its changes) or "*" (the process signals).
 * `seq` is the last position taken (it may still be being written), `floor` the oldest
 * position still kept.
 */
export interface ChangeHeadDoc {
  _id: string;
  seq: number;
  floor: number;
  at: Date;
}

/**
 * One signal to every process, `_id` its position (a decimal string) in one global order
 * with no gaps: "workspace W has changes up to seq", or "token T changed".
 */
export interface ChangeSignalDoc {
  _id: string;
  kind: "workspace" | "token" | "hole";
  id: string;
  hole?: boolean;
  seq?: number;
  /** For a workspace: the change's type and target, so caches drop exactly what changed. */
  type?: string;
  target?: { kind: EventDoc["target"]["kind"]; id: string };
  at: Date;
}

export interface AssertionReplayDoc {
  /** `${iss}|${jti}` */
  _id: string;
  expiresAt: Date;
}

/**
 * A comment (docs/comments.md): the first of a thread carries the anchor and whether the
 * thread is resolved; a reply names its thread. A deleted comment with replies stays as a
 * marker with no text.
 */
export interface CommentDoc {
  _id: string;
  workspaceId: string;
  /** The page it is on (page and quote anchors), or null for a row. */
  pageId: string | null;
  /** The table and row it is on (row anchors). */
  collectionId: string | null;
  rowId: string | null;
  /** The thread's first comment (itself for a first comment). */
  threadId: string;
  anchor:
    { kind: "page" } | { kind: "quote"; quote: string; prefix: string; suffix: string; start: number; version: number } | { kind: "row" } | { kind: "reply" };
  /** Markdown. */
  body: string;
  author: Actor;
  createdAt: Date;
  editedAt: Date | null;
  deletedAt: Date | null;
  /** First comments only: who resolved the thread, and when (null: open). */
  resolved: { at: Date; by: Actor } | null;
  /** What it stores (counted in the workspace's usage). */
  bytes: number;
  /** Who it mentions (docs/comments.md#mentions): members by user id, agents by token id, with the handle used. Absent: none. */
  mentions?: CommentMention[];
}

export interface CommentMention {
  kind: "member" | "agent";
  /** A member's user id, or an agent's token id. */
  id: string;
  handle: string;
}

/**
 * A member mentioned in a comment whose mail is not sent yet (docs/comments.md#mentions):
 * `_id` is the comment's and the person's, so a mention is queued once. Sent (or dropped)
 * in one mail with the person's other pending mentions once the first is due.
 */
export interface MentionMailDoc {
  _id: string;
  userId: string;
  workspaceId: string;
  commentId: string;
  at: Date;
  /** When the mail may go: `at` plus MENTION_MAIL_DELAY_SECONDS. */
  dueAt: Date;
  /** The send that took it (null: none yet). */
  sendId: string | null;
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
  /** Last time the link opened something (written at most once a minute). */
  lastUsedAt: Date | null;
  /** When it stops opening anything; null (or absent, links made before expiry existed): never. */
  expiresAt?: Date | null;
  /** Why it ended, once it has: revoked by an owner, or its maker lost the right to share (absent: revoked). */
  endedBecause?: "revoked" | "maker_lost_access" | null;
}

/**
 * A file in a workspace (docs/security.md#files): content-addressed, so the same bytes are
 * stored once per workspace (`_id` is `{workspaceId}:{sha256}`). Its bytes are in
 * `fileChunks`; `complete` turns true once every chunk is written.
 */
export interface FileDoc {
  _id: string;
  workspaceId: string;
  sha256: string;
  /** Decided from the bytes, never from what the uploader said. */
  type: string;
  ext: string;
  /** Bytes of content. */
  size: number;
  /** What the file costs its workspace (`size` and a fixed overhead per chunk). */
  bytes: number;
  width: number | null;
  height: number | null;
  name: string;
  chunks: number;
  complete: boolean;
  addedBy: Actor;
  createdAt: Date;
}

/** One piece of a file's bytes (`_id` is `{fileId}:{n}`), far below the 16 MiB BSON document limit. */
export interface FileChunkDoc {
  _id: string;
  workspaceId: string;
  fileId: string;
  n: number;
  data: Binary;
}

/** An upload URL handed to an agent: `_id` is the SHA-256 of its secret. */
export interface UploadDoc {
  _id: string;
  workspaceId: string;
  actor: Actor;
  name: string;
  fileId: string | null;
  expiresAt: Date;
  createdAt: Date;
}

/**
 * A webhook endpoint of a workspace (docs/events.md#webhooks). Its signing secrets are kept
 * encrypted with a key derived from SECRET_KEY (docs/security.md#webhook-secrets): signing needs them in clear.
 */
export interface WebhookDoc {
  /** `whk_…` */
  _id: string;
  workspaceId: string;
  url: string;
  /** Event types it receives; empty: every type. */
  events: string[];
  description: string;
  /** Newest first; a rotated-out secret stays until `until`, and deliveries carry a signature by each. */
  secrets: { enc: string; createdAt: Date; until: Date | null }[];
  status: "active" | "disabled";
  disabledAt: Date | null;
  disabledReason: "failing" | null;
  /** The feed position up to which its deliveries have been recorded. */
  cursor: number;
  /** Since when every attempt has failed (null: the last one succeeded). */
  failingSince: Date | null;
  createdBy: Actor;
  createdAt: Date;
}

/**
 * One change to deliver to one endpoint, recorded before any attempt: `_id` is
 * `${webhookId}:${seq}`, so recording it again is no second delivery.
 */
export interface WebhookDeliveryDoc {
  _id: string;
  webhookId: string;
  workspaceId: string;
  seq: number;
  /** The `webhook-id` header: the change's event id, the same on every attempt and on "send again". */
  messageId: string;
  type: string;
  /** The exact body sent on every attempt (ids and versions only). */
  payload: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  nextAttemptAt: Date;
  /** A process is sending it until then; after that any process may take it over. */
  leaseUntil: Date;
  /** The newest attempts, newest last (at most 10). */
  log: { at: Date; status: number | null; error: string | null }[];
  createdAt: Date;
  doneAt: Date | null;
}

/**
 * Reading figures of one page (optionally through one share link) for one UTC day, or one
 * month once the day is older than ANALYTICS_RETENTION_DAYS (docs/ARCHITECTURE.md#reading-figures).
 * `_id` is `${pageId}|${shareLinkId or "-"}|${period}`: the counters are `$inc`remented
 * by each process's flush, so any number of processes add to one row.
 */
export interface PageViewDoc {
  _id: string;
  workspaceId: string;
  pageId: string;
  /** The share link's linkId (never its secret) when the view came through one; null otherwise. */
  shareLinkId: string | null;
  /** `YYYY-MM-DD` (a UTC day) or `YYYY-MM` (a month of summed days). */
  period: string;
  /** "folding": a day being added to its month by the sweeper (analytics/retention.ts). */
  kind: "day" | "month" | "folding";
  /** Page views by people's browsers (and machine views), bots excluded. */
  views: number;
  /** Distinct visitors that day (for a month: the sum of its days' uniques). */
  uniques: number;
  /** Views whose user agent names a bot, crawler or script. */
  bots: number;
  /** Views by referring host (the host only; `.` written as `%2E` in the key). */
  referrers: Record<string, number>;
  /** MCP reads by agent: `t:{tokenId}` or `c:{oauth client id}`. */
  agents: Record<string, number>;
}

/**
 * One visitor of one page on one day: `_id` is `${day}|${pageId}|${link}|${hash}`, where hash
 * is SHA-256 of that day's salt, the page and link, and of (address, user agent); inserted
 * once, so the first insert of the day is the visitor's one unique. Deleted after the day.
 */
export interface ViewVisitorDoc {
  _id: string;
  day: string;
}

/** The salt of one UTC day's visitor hashes (`_id` the day); deleted once the day is over. */
export interface AnalyticsSaltDoc {
  _id: string;
  salt: string;
  createdAt: Date;
}
