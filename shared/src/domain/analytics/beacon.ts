// The public page's beacon (docs/ARCHITECTURE.md#reading-figures): a published page answered
// by the nginx micro-cache never reaches a server, so the page itself says it was read. Only
// public pages are counted this way; private pages and share links are counted where they
// are served (every one of those reads reaches a server), so their beacons are ignored.
import { SLUG_PATTERN } from "../../schemas/common";
import { getRenderedArtifact } from "../artifacts";
import type { StoreDeps } from "../deps";
import type { ViewCounter } from "./counter";
import { countBrowserRead, type BrowserRead } from "./record";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The page a public address names (`/a/{slug}`, `/artifacts/{id}`, either `@{n}`), or null. */
export function beaconTarget(path: string): { slug: string } | { pageId: string } | null {
  const m = /^\/(a|artifacts)\/([^/@]+)(?:@[1-9][0-9]{0,8})?$/.exec(path);
  if (!m) return null;
  const [, kind, name = ""] = m;
  if (kind === "a") return SLUG_PATTERN.test(name) ? { slug: name } : null;
  return UUID.test(name) ? { pageId: name } : null;
}

/** Counts a beacon's view when it names a public page; anything else is ignored the same way (the answer never tells). */
export async function countBeacon(
  deps: StoreDeps,
  views: ViewCounter | undefined,
  input: { path: unknown } & Omit<BrowserRead, "workspaceId" | "pageId" | "shareLinkId">,
): Promise<void> {
  if (!views?.enabled || typeof input.path !== "string" || input.path.length > 200) return;
  const target = beaconTarget(input.path);
  if (!target) return;
  const found = await getRenderedArtifact(deps, { kind: "nobody" }, target);
  if (found?.kind !== "document" || !found.isPublic) return;
  countBrowserRead(views, { ...input, workspaceId: found.workspaceId, pageId: found.pageId });
}
