import type { PageView } from "../../schemas/pages";
import type { Principal } from "../access";
import type { StoreDeps } from "../deps";
import { readablePage } from "./page-store";
import { viewOf } from "./page-view";

/** A page by slug or id, for anyone who may read it. */
export async function getPage(deps: StoreDeps, principal: Principal, by: { slug: string } | { pageId: string }): Promise<PageView> {
  // Access is checked on every call; only the documents may come from the cache.
  const { page, ws } = await readablePage(deps, principal, by, true);
  return viewOf(deps, principal, page, ws);
}
