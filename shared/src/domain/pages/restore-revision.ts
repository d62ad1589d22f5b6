import type { PageView } from "../../schemas/pages";
import type { Principal } from "../access";
import type { WriteDeps } from "../versioned-write";
import { changePage } from "./page-versions";
import { readableRevision } from "./revision-view";

/** Brings an earlier version back as a new version; nothing in between is lost. */
export async function restoreRevision(
  deps: WriteDeps,
  principal: Principal,
  input: { slug: string; version: number; expected_version?: number | undefined },
): Promise<PageView> {
  const { rev } = await readableRevision(deps, principal, input.slug, input.version);
  return changePage(deps, principal, input.slug, input.expected_version, "page.restored", () => ({
    title: rev.title,
    summary: rev.summary,
    parts: rev.parts,
    restoredFrom: rev.version,
  }));
}
