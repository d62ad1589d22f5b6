// Schema migrations, run by every process at start (after the indexes), idempotent and safe
// to run from several processes at once: each step only fills in what is missing.
import type { Db } from "mongodb";
import { utf8Bytes } from "../schemas/cells";
import { collections } from "./collections";
import type { CollectionDoc, PageDoc, TokenDoc, WorkspaceDoc } from "./documents";

export const SCHEMA_VERSION = 3;

const OVERHEAD = 256;
const contentBytes = (p: { title: string; summary: string; parts: { body: string }[] }) =>
  OVERHEAD + utf8Bytes(p.title) + utf8Bytes(p.summary) + p.parts.reduce((n, x) => n + utf8Bytes(x.body) + 64, 0);

/**
 * Version 2 (wave 2): hot lookups by `_id` (workspace slugs, page artifacts, token keys),
 * members changed by version, caps by a top-level flag, and everything stored counted.
 */
async function toVersion2(db: Db): Promise<void> {
  const c = collections(db);
  const t = new Date();
  for await (const ws of c.workspaces.find({})) {
    const w = ws as WorkspaceDoc & { membersVersion?: number; capped?: boolean };
    if (w.membersVersion === undefined || w.capped === undefined) {
      await c.workspaces.updateOne(
        { _id: w._id },
        { $set: { membersVersion: w.membersVersion ?? 0, capped: w.sandbox?.state === "unclaimed", visibilitySyncAt: null, usageDirtyAt: new Date(0) } },
      );
    }
    await c.workspaceSlugs.updateOne({ _id: w.slug }, { $setOnInsert: { workspaceId: w._id, pending: false, createdAt: t } }, { upsert: true });
  }
  for await (const raw of c.pages.find({})) {
    const page = raw as PageDoc & { html?: string; etag?: string };
    if (typeof page.html === "string") {
      const ws = await c.workspaces.findOne({ _id: page.workspaceId }, { projection: { visibility: 1, sandbox: 1 } });
      const isPublic = ws?.visibility === "public" && !(ws.sandbox && (ws.sandbox.hiddenAt !== null || ws.sandbox.state === "expired"));
      await c.artifacts.updateOne(
        { _id: page.slug },
        {
          $setOnInsert: {
            pageId: page._id,
            workspaceId: page.workspaceId,
            version: page.version,
            html: page.html,
            etag: page.etag ?? "",
            public: isPublic,
            bytes: utf8Bytes(page.html),
            redirect: null,
            updatedAt: t,
          },
        },
        { upsert: true },
      );
      await c.pages.updateOne(
        { _id: page._id },
        { $set: { bytes: contentBytes(page), writing: null, lastChange: { changes: [], restoredFrom: null } }, $unset: { html: "", etag: "" } },
      );
    }
  }
  for await (const r of c.revisions.find({ bytes: null as unknown as number })) {
    await c.revisions.updateOne({ _id: r._id }, { $set: { bytes: contentBytes(r), restoredFrom: null, changes: [] } });
  }
  for await (const tok of c.tokens.find({}, { projection: { hash: 1 } })) {
    const token = tok as Pick<TokenDoc, "_id" | "hash">;
    await c.tokenKeys.updateOne({ _id: token.hash }, { $setOnInsert: { tokenId: token._id, createdAt: t } }, { upsert: true });
  }
  for await (const col of c.collections.find({ bytes: null as unknown as number })) {
    const d = col as CollectionDoc;
    await c.collections.updateOne({ _id: d._id }, { $set: { bytes: OVERHEAD + utf8Bytes(d.name) + utf8Bytes(JSON.stringify(d.columns)) } });
  }
  await c.rows.updateMany({ writing: null }, { $set: { writing: null } });
  for await (const r of c.rowRevisions.find({ bytes: null as unknown as number }, { projection: { values: 1 } })) {
    await c.rowRevisions.updateOne({ _id: r._id }, { $set: { bytes: OVERHEAD + (r.values ? utf8Bytes(JSON.stringify(r.values)) : 0) } });
  }
  await c.events.updateMany({ bytes: null as unknown as number }, { $set: { bytes: 320 } });
  await c.shareLinks.updateMany({ lastUsedAt: null }, { $set: { lastUsedAt: null } });
}

/**
 * Version 3 (issue 23): dynamically registered OAuth clients expire when unused, and a public
 * client keeps no secret. Registrations made before get 30 days (an Allow extends them as it
 * does any registration) and lose the client_secret the provider used to store in clear.
 */
async function toVersion3(db: Db): Promise<void> {
  const c = collections(db);
  const until = new Date(Date.now() + 30 * 86_400_000);
  for await (const doc of c.oauth.find({ model: "Client", expiresAt: null })) {
    let payload = doc.payload;
    try {
      const { client_secret: _s, client_secret_expires_at: _e, ...rest } = JSON.parse(doc.payload) as Record<string, unknown>;
      payload = JSON.stringify(rest);
    } catch {
      // An unreadable record is left to expire.
    }
    await c.oauth.updateOne({ _id: doc._id, expiresAt: null }, { $set: { payload, expiresAt: until } });
  }
}

/** Two processes upserting the one meta document at once: the loser's write is the same. */
function ignoreRace(err: unknown): void {
  if ((err as { code?: unknown }).code !== 11000) throw err;
}

const STEPS: Record<number, (db: Db) => Promise<void>> = { 2: toVersion2, 3: toVersion3 };

/** Brings the database to SCHEMA_VERSION. A fresh database starts there. */
export async function migrate(db: Db): Promise<void> {
  const meta = collections(db).meta;
  const current = await meta.findOne({ _id: "schema" });
  if (!current) {
    const empty = (await collections(db).workspaces.countDocuments({})) === 0 && (await collections(db).tokens.countDocuments({})) === 0;
    if (empty) {
      await meta.updateOne({ _id: "schema" }, { $setOnInsert: { version: SCHEMA_VERSION, updatedAt: new Date() } }, { upsert: true }).catch(ignoreRace);
      return;
    }
  }
  let version = current?.version ?? 1;
  while (version < SCHEMA_VERSION) {
    const step = STEPS[version + 1];
    if (step) await step(db);
    version += 1;
    await meta.updateOne({ _id: "schema" }, { $set: { version, updatedAt: new Date() } }, { upsert: true }).catch(ignoreRace);
  }
}
