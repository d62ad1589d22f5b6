import type { Principal } from "../access";
import type { StoreDeps } from "../deps";
import { readableRevision, revisionView } from "./revision-view";

/** One earlier version of a page, whole. */
export async function getRevision(deps: StoreDeps, principal: Principal, slug: string, version: number) {
  const { rev, reader } = await readableRevision(deps, principal, slug, version);
  return { ...revisionView(rev, reader), parts: rev.parts.map((p) => ({ id: p.id, kind: p.kind, body: p.body, position: p.position })) };
}
