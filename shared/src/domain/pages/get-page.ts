import { AppError } from "../../errors";
import type { PageView } from "../../schemas/pages";
import type { Principal } from "../access";
import type { Deps, StoreDeps } from "../deps";
import { countAgentRead } from "../analytics/record";
import { pageAtVersion } from "./page-at-version";
import { readablePage } from "./page-store";
import { sharedViewOf, viewOf } from "./page-view";

/** A page by slug or id, for anyone who may read it; with `version`, as it was at that kept version. */
export async function getPage(
  deps: StoreDeps & Pick<Deps, "views">,
  principal: Principal,
  by: { slug: string } | { pageId: string },
  version?: number,
): Promise<Readonly<PageView>> {
  if (version !== undefined) {
    const at = await pageAtVersion(deps, principal, by, version);
    if (!at) throw new AppError("not_found", `No such page, or it has no version ${version} (or it is no longer kept).`);
    countAgentRead(deps.views, principal, { workspaceId: at.ws._id, pageId: at.page._id });
    return viewOf(deps, principal, at.page, at.ws);
  }
  // Access is checked on every call; only the documents may come from the cache.
  const { page, ws } = await readablePage(deps, principal, by, true);
  // An agent's read is counted under its token or OAuth client (docs/ARCHITECTURE.md#reading-figures); a person's is not.
  countAgentRead(deps.views, principal, { workspaceId: ws._id, pageId: page._id });
  // Built once per version of the page (and kind of reader) while the page stays in the read cache.
  return sharedViewOf(deps, principal, page, ws);
}
