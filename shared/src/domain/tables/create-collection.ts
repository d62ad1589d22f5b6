import type { CollectionDoc } from "../../db/index";
import { AppError, invalidField, invalidInput, isDuplicateKey } from "../../errors";
import { newId } from "../../ids";
import { checkColumns, type ColumnInput, type ColumnRule } from "../../schemas/cells";
import type { TableView } from "../../schemas/tables";
import { actorOf, assertCan, type Principal } from "../access";
import { now } from "../clock";
import type { StoreDeps } from "../deps";
import { recordEvent } from "../events";
import { EVENT_BYTES, releaseUsage, reserveUsage } from "../limits";
import { indexTable } from "../search-index";
import { resolveWorkspaceForWrite } from "../workspaces";
import { definitionBytes } from "./table-store";
import { tableView } from "./table-view";

/** Creates a collection: a folder of pages, or a table with its columns. A taken slug is `conflict`. */
export async function createCollection(
  deps: StoreDeps,
  principal: Principal,
  input: { workspace?: string | undefined; slug: string; name: string; kind: "pages" | "table"; columns?: ColumnInput[] | undefined },
): Promise<TableView> {
  const { database } = deps;
  const ws = await resolveWorkspaceForWrite(deps, principal, input.workspace);
  assertCan(principal, ws, "write");
  if (input.kind === "pages" && input.columns?.length) throw invalidField("columns", "not_allowed", "only tables have columns");
  let columns: ColumnRule[] = [];
  if (input.kind === "table") {
    const r = checkColumns(input.columns ?? []);
    if (!r.ok) throw invalidInput(r.issues);
    columns = r.columns;
  }
  const bytes = definitionBytes({ name: input.name, columns });
  const doc: CollectionDoc = {
    _id: newId("col"),
    workspaceId: ws._id,
    slug: input.slug,
    name: input.name,
    kind: input.kind,
    isDefault: false,
    columns,
    bytes,
    rowCount: 0,
    rowsVersion: 0,
    viewedBy: [],
    viewersKnown: true,
    countDirtyAt: null,
    createdAt: now(),
  };
  const delta = { pages: 0, bytes: bytes + EVENT_BYTES };
  await reserveUsage(deps, ws, delta);
  try {
    await database.c.collections.insertOne(doc);
  } catch (err) {
    await releaseUsage({ database }, ws._id, delta);
    if (isDuplicateKey(err)) throw new AppError("conflict", `This workspace already has a collection "${input.slug}".`);
    throw err;
  }
  await indexTable(deps, doc);
  await recordEvent(
    deps,
    { workspaceId: ws._id, type: "collection.created", actor: actorOf(principal), target: { kind: "collection", id: doc._id, label: doc.name } },
    { counted: true },
  );
  return tableView(doc);
}
