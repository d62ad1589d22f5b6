// A table row as a versioned document (versioned-write.ts): how a version of it is
// finished — its revision, the revisions beyond REVISIONS_KEPT pruned, the table marked as
// changed and the pages showing it rendered again — and what its revisions look like.
import type { Actor, CollectionDoc, RowDoc, RowRevisionDoc } from "../../db/index";
import { revisionId } from "../../ids";
import { refreshTableViews } from "../artifacts";
import type { StoreDeps } from "../deps";
import { RECORD_OVERHEAD_BYTES, releaseUsage } from "../limits";
import { insertOnce } from "../../db";
import type { VersionedKind } from "../versioned-write";
import { tableChanged } from "./table-store";

/** What the writer already has for the finishing steps: the row's table. */
export interface RowHint {
  table: CollectionDoc;
}

/** A row's revision at its version (a tombstone when the row was deleted). */
export function rowRevision(row: RowDoc, actor: Actor, deleted = false): RowRevisionDoc {
  return {
    _id: revisionId(row._id, row.version),
    rowId: row._id,
    workspaceId: row.workspaceId,
    collectionId: row.collectionId,
    version: row.version,
    values: deleted ? null : row.values,
    bytes: RECORD_OVERHEAD_BYTES + (deleted ? 0 : row.bytes),
    deleted,
    actor,
    createdAt: row.updatedAt,
  };
}

/**
 * Gives back the bytes of the revisions that fell out of the last REVISIONS_KEPT: each update
 * writes one revision and drops the one REVISIONS_KEPT older, addressed by its `_id`
 * (`revisionId`), so no row's history is searched. Older ones that an update
 * stopped before its prune left behind go too: the versions just below are looked up by `_id`
 * while they exist (normally one lookup that finds nothing), and the run is deleted lowest
 * first, so a prune stopped midway leaves a run the next one finds again.
 */
async function pruneRowRevisions(deps: StoreDeps, row: Pick<RowDoc, "_id" | "version" | "workspaceId">): Promise<void> {
  const { rowRevisions } = deps.database.c;
  const oldest = row.version - deps.config.REVISIONS_KEPT;
  if (oldest < 1) return;
  let low = oldest;
  while (low > 1 && (await rowRevisions.findOne({ _id: revisionId(row._id, low - 1) }, { projection: { _id: 1 } }))) low--;
  // Only what this call deleted itself is given back: a racing prune of the same revision never releases it twice.
  let freed = 0;
  for (let v = low; v <= oldest; v++) freed += (await rowRevisions.findOneAndDelete({ _id: revisionId(row._id, v) }))?.bytes ?? 0;
  if (freed > 0) await releaseUsage(deps, row.workspaceId, { pages: 0, bytes: freed });
}

/** The row's table: the writer's copy, or read (the sweeper finishing a version has none). */
async function tableOf(deps: StoreDeps, row: RowDoc, hint: RowHint | undefined): Promise<CollectionDoc | null> {
  return hint?.table ?? (await deps.database.c.collections.findOne({ _id: row.collectionId }));
}

export const ROWS: VersionedKind<RowDoc, RowHint> = {
  noun: "row",
  collection: (deps) => deps.database.c.rows,
  steps: [
    { name: "revision", run: (deps, row) => insertOnce(deps.database.c.rowRevisions, rowRevision(row, row.updatedBy)) },
    { name: "prune", run: (deps, row) => pruneRowRevisions(deps, row) },
    {
      name: "rendition",
      async run(deps, row, ws, hint) {
        const table = await tableOf(deps, row, hint);
        if (!table) return;
        const after = await tableChanged(deps, table, [row._id]);
        await refreshTableViews(deps, ws, table, after);
      },
    },
  ],
  async event(deps, row, type, hint) {
    const table = hint?.table ?? (await deps.database.c.collections.findOne({ _id: row.collectionId }, { projection: { name: 1 } }));
    return { workspaceId: row.workspaceId, type, actor: row.updatedBy, target: { kind: "collection", id: row.collectionId, label: table?.name ?? "" } };
  },
};
