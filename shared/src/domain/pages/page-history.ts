import type { RevisionView } from "../../schemas/pages";
import { type Principal, readerIn } from "../access";
import type { StoreDeps } from "../deps";
import { readablePage } from "./page-store";
import { revisionView } from "./revision-view";

/** Every version kept of a page, newest first, as the principal may see them. */
export async function pageHistory(deps: StoreDeps, principal: Principal, slug: string): Promise<RevisionView[]> {
  const { page, ws } = await readablePage(deps, principal, { slug });
  const revisions = await deps.database.c.revisions.find({ pageId: page._id }).sort({ version: -1 }).limit(500).toArray();
  const reader = readerIn(principal, ws);
  return revisions.map((r) => revisionView(r, reader));
}
