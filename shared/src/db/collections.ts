// Collection names, their document types and their indexes, declared together
// (docs/ARCHITECTURE.md#state). Routers and tools never touch MongoClient; they get these.
import type { Collection, CreateIndexesOptions, Db, IndexSpecification } from "mongodb";
import type {
  ArtifactDoc,
  AssertionReplayDoc,
  ChangeDoc,
  ChangeHeadDoc,
  ChangeSignalDoc,
  WebhookDeliveryDoc,
  WebhookDoc,
  CollectionDoc,
  CommentDoc,
  MentionMailDoc,
  EventDoc,
  FileChunkDoc,
  FileDoc,
  LoginCodeDoc,
  MetaDoc,
  SearchDocDoc,
  SearchTermDoc,
  OAuthRecordDoc,
  PageDoc,
  RateLimitDoc,
  RegistrationDoc,
  RevisionDoc,
  RowChangeDoc,
  RowDoc,
  RowRevisionDoc,
  SessionDoc,
  ShareLinkDoc,
  TokenDoc,
  TokenKeyDoc,
  UploadDoc,
  UserDoc,
  WorkspaceDoc,
  WorkspaceSlugDoc,
  PageViewDoc,
  ViewVisitorDoc,
  AnalyticsSaltDoc,
} from "./documents";

interface IndexDecl {
  key: IndexSpecification;
  options: CreateIndexesOptions & { name: string };
}

const idx = (name: string, key: Record<string, 1 | -1>, unique = false): IndexDecl => ({
  key,
  options: unique ? { name, unique: true } : { name },
});

// Hot lookups (a page or workspace by slug, a token by its hash, a session) are by `_id`,
// the one lookup every supported database serves from an index (FerretDB v1 pushes down
// nothing else). The secondary indexes below serve MongoDB, and the unique ones guard
// uniqueness on both.
const SCHEMA = {
  users: { doc: {} as UserDoc, indexes: [idx("email_unique", { email: 1 }, true)] },
  sessions: { doc: {} as SessionDoc, indexes: [idx("user", { userId: 1 }), idx("expires", { expiresAt: 1 })] },
  loginCodes: {
    doc: {} as LoginCodeDoc,
    indexes: [idx("purpose_subject_unique", { purpose: 1, subject: 1 }, true), idx("expires", { expiresAt: 1 })],
  },
  workspaces: {
    doc: {} as WorkspaceDoc,
    indexes: [idx("member", { "members.userId": 1 }), idx("sandbox_state", { "sandbox.state": 1 })],
  },
  workspaceSlugs: { doc: {} as WorkspaceSlugDoc, indexes: [idx("workspace", { workspaceId: 1 }), idx("pending", { pending: 1 })] },
  collections: {
    doc: {} as CollectionDoc,
    indexes: [idx("workspace_slug_unique", { workspaceId: 1, slug: 1 }, true)],
  },
  pages: {
    doc: {} as PageDoc,
    indexes: [idx("workspace_slug", { workspaceId: 1, slug: 1 }), idx("pending", { revisionPending: 1 })],
  },
  artifacts: { doc: {} as ArtifactDoc, indexes: [idx("workspace", { workspaceId: 1 }), idx("page", { pageId: 1 })] },
  revisions: {
    doc: {} as RevisionDoc,
    indexes: [idx("page_version_unique", { pageId: 1, version: 1 }, true), idx("workspace", { workspaceId: 1 })],
  },
  rows: {
    doc: {} as RowDoc,
    indexes: [idx("collection_id", { collectionId: 1, _id: 1 }), idx("workspace", { workspaceId: 1 }), idx("pending", { revisionPending: 1 })],
  },
  rowChanges: { doc: {} as RowChangeDoc, indexes: [idx("workspace", { workspaceId: 1 }), idx("collection", { collectionId: 1 })] },
  rowRevisions: { doc: {} as RowRevisionDoc, indexes: [idx("row_version", { rowId: 1, version: -1 }), idx("workspace", { workspaceId: 1 })] },
  tokens: { doc: {} as TokenDoc, indexes: [idx("hash_unique", { hash: 1 }, true), idx("owner", { ownerId: 1 })] },
  tokenKeys: { doc: {} as TokenKeyDoc, indexes: [idx("token", { tokenId: 1 })] },
  registrations: { doc: {} as RegistrationDoc, indexes: [idx("status_deadline", { status: 1, claimDeadline: 1 })] },
  rateLimits: { doc: {} as RateLimitDoc, indexes: [idx("window_end", { windowEnd: 1 })] },
  events: { doc: {} as EventDoc, indexes: [idx("workspace_at", { workspaceId: 1, at: -1 })] },
  // The change feed (docs/events.md): read by `_id` only; the unique eventId gives an event one position.
  changes: { doc: {} as ChangeDoc, indexes: [idx("event_unique", { eventId: 1 }, true)] },
  changeHeads: { doc: {} as ChangeHeadDoc, indexes: [] },
  changeSignals: { doc: {} as ChangeSignalDoc, indexes: [] },
  assertionReplays: { doc: {} as AssertionReplayDoc, indexes: [idx("expires", { expiresAt: 1 })] },
  shareLinks: { doc: {} as ShareLinkDoc, indexes: [idx("link_id_unique", { linkId: 1 }, true), idx("workspace", { workspaceId: 1 })] },
  // Comments (docs/comments.md): listed by page, or by table; counted by workspace.
  comments: {
    doc: {} as CommentDoc,
    indexes: [idx("page", { pageId: 1 }), idx("collection", { collectionId: 1 }), idx("workspace", { workspaceId: 1 }), idx("thread", { threadId: 1 })],
  },
  // Mention mails not sent yet (docs/comments.md#mentions): found when due, taken per person.
  mentionMails: { doc: {} as MentionMailDoc, indexes: [idx("due", { dueAt: 1 }), idx("user", { userId: 1 }), idx("workspace", { workspaceId: 1 })] },
  meta: { doc: {} as MetaDoc, indexes: [] },
  // Search (domain/search-index.ts): read by `_id` only; the workspace index serves its delete on MongoDB.
  searchTerms: { doc: {} as SearchTermDoc, indexes: [idx("workspace", { workspaceId: 1 })] },
  searchDocs: { doc: {} as SearchDocDoc, indexes: [idx("workspace", { workspaceId: 1 })] },
  // Files (docs/security.md#files): read by `_id` only (a chunk's id is its file's and its number);
  // the sweeper looks for incomplete ones (few: those being written or deleted).
  files: { doc: {} as FileDoc, indexes: [idx("workspace", { workspaceId: 1 }), idx("complete", { complete: 1 })] },
  fileChunks: { doc: {} as FileChunkDoc, indexes: [idx("workspace", { workspaceId: 1 })] },
  uploads: { doc: {} as UploadDoc, indexes: [idx("workspace", { workspaceId: 1 }), idx("expires", { expiresAt: 1 })] },
  webhooks: { doc: {} as WebhookDoc, indexes: [idx("workspace", { workspaceId: 1 })] },
  webhookDeliveries: {
    doc: {} as WebhookDeliveryDoc,
    indexes: [idx("due", { status: 1, nextAttemptAt: 1 }), idx("webhook_seq", { webhookId: 1, seq: -1 }), idx("workspace", { workspaceId: 1 })],
  },
  // Reading figures (docs/ARCHITECTURE.md#reading-figures): rows by page and by workspace,
  // visitors of the day and the day's salt read by `_id` and cleared by day.
  pageViews: {
    doc: {} as PageViewDoc,
    indexes: [idx("page_period", { pageId: 1, period: 1 }), idx("workspace_period", { workspaceId: 1, period: 1 }), idx("kind_period", { kind: 1, period: 1 })],
  },
  viewVisitors: { doc: {} as ViewVisitorDoc, indexes: [idx("day", { day: 1 })] },
  analyticsSalts: { doc: {} as AnalyticsSaltDoc, indexes: [] },
  oauth: {
    doc: {} as OAuthRecordDoc,
    indexes: [idx("grant", { grantId: 1 }), idx("uid", { uid: 1 }), idx("expires", { expiresAt: 1 })],
  },
} as const;

export type CollectionName = keyof typeof SCHEMA;
export type Collections = { [K in CollectionName]: Collection<(typeof SCHEMA)[K]["doc"]> };

export const COLLECTION_NAMES = Object.keys(SCHEMA) as CollectionName[];

/** The indexes declared for each collection. */
export const INDEXES = Object.fromEntries(COLLECTION_NAMES.map((n) => [n, SCHEMA[n].indexes])) as unknown as { [K in CollectionName]: readonly IndexDecl[] };

export function collections(db: Db): Collections {
  const out = {} as Record<CollectionName, Collection>;
  for (const name of COLLECTION_NAMES) out[name] = db.collection(name);
  return out as unknown as Collections;
}

/**
 * Creates every declared index that is missing; safe at every start and from many processes.
 * Only missing indexes are created, one at a time: FerretDB v1 (SQLite) drops the connection
 * when asked to create an index that already exists, so a lost race is settled by looking
 * again rather than by the server's idempotence.
 */
export async function ensureIndexes(db: Db): Promise<void> {
  for (const name of COLLECTION_NAMES) {
    const decls: readonly IndexDecl[] = SCHEMA[name].indexes;
    const existing = await indexNames(db, name);
    for (const d of decls) {
      if (existing.has(d.options.name)) continue;
      try {
        await db.collection(name).createIndex(d.key, d.options);
      } catch (err) {
        if (!(await indexNames(db, name)).has(d.options.name)) throw err;
      }
    }
  }
}

async function indexNames(db: Db, name: string): Promise<Set<string>> {
  try {
    const list = await db.collection(name).listIndexes().toArray();
    return new Set(list.map((i) => String(i.name)));
  } catch (err) {
    // A collection that does not exist yet has no indexes.
    if ((err as { codeName?: string }).codeName === "NamespaceNotFound") return new Set();
    throw err;
  }
}
