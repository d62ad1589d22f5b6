import { AppError } from "../../errors";
import type { PageView } from "../../schemas/pages";
import type { Principal } from "../access";
import type { StoreDeps } from "../deps";
import { pageAtVersion } from "./page-at-version";
import { readablePage } from "./page-store";
import { viewOf } from "./page-view";

/** A page by slug or id, for anyone who may read it; with `version`, as it was at that kept version. */
export async function getPage(deps: StoreDeps, principal: Principal, by: { slug: string } | { pageId: string }, version?: number): Promise<PageView> {
  if (version !== undefined) {
    const at = await pageAtVersion(deps, principal, by, version);
    if (!at) throw new AppError("not_found", `No such page, or it has no version ${version} (or it is no longer kept).`);
    return viewOf(deps, principal, at.page, at.ws);
  }
  // Access is checked on every call; only the documents may come from the cache.
  const { page, ws } = await readablePage(deps, principal, by, true);
  return viewOf(deps, principal, page, ws);
}
